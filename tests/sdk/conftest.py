"""Fixtures of these tests: the in-process gateways and worker (tests/inproc.py)."""

from __future__ import annotations

from inproc import inproc

__all__ = ["inproc"]
