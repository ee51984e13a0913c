"""Flotilla's version, for `flotilla --version` when it runs from a source tree.

`flotilla` is a namespace package (no `__init__.py`): the server and the generated API (the
`flotilla-api` distribution, `flotilla.api`) each ship a part of it (docs/notes.md).
"""

__version__ = "0.1.0"
