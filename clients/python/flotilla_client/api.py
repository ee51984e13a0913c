"""The generated API's old home: `flotilla_client.api.<package>.v1.x_pb2` is `flotilla.api.<package>.v1.x_pb2`.

The generated code is the `flotilla-api` distribution's (`flotilla.api`, a dependency of the SDK);
new code imports it from there. Importing this module imports every generated module once and
registers each under its old name too (the same module objects, no second copy), so code written
against earlier SDKs keeps working.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import flotilla.api as _api


def _alias() -> None:
    this = sys.modules[__name__]
    for info in pkgutil.walk_packages(_api.__path__, _api.__name__ + "."):
        module = importlib.import_module(info.name)
        old = __name__ + info.name.removeprefix(_api.__name__)
        sys.modules.setdefault(old, module)
        if old.count(".") == __name__.count(".") + 1:  # a direct child: `flotilla_client.api.game`
            setattr(this, old.rsplit(".", 1)[1], module)


_alias()
