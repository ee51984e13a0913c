"""structlog configuration: JSON when not on a terminal, with the process on every line.

Game, seat and request id are bound per request (contextvars) by the gateway and passed
by the worker. Nothing hidden (states, decks, secret objectives) is ever logged: log calls
name ids and reasons, never payloads.
"""

from __future__ import annotations

import logging
import os
import sys

import structlog
from structlog.tracebacks import ExceptionDictTransformer


def configure(process: str, log_format: str = "auto", level: int = logging.INFO) -> None:
    """Configure structlog for a `flotilla` process (`gateway`, `worker`, ...)."""
    as_json = log_format == "json" or (log_format == "auto" and not sys.stderr.isatty())
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer() if as_json else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            # Never locals in tracebacks: a frame's locals can hold a game state (hidden cards).
            structlog.processors.ExceptionRenderer(ExceptionDictTransformer(show_locals=False))
            if as_json
            else structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.WriteLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )
    structlog.contextvars.bind_contextvars(process=process, pid=os.getpid())
