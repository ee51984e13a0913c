"""The error tree (flotilla/errors.py) and its one table at the edge (gateway/errors.py ROWS) agree:
every error class with a reason has exactly one row, every reason is a wire name, and a worker's
refusal (an outcome's reason) gets the status its exception would have got. In process, no servers."""

from __future__ import annotations

import re

import grpc
import pytest
from google.rpc import error_details_pb2

from flotilla import errors
from flotilla.api.game.v1 import error_reason_pb2
from flotilla.app.outcome import Outcome
from flotilla.gateway.errors import ROWS, Rejected, to_status


def tree(root: type[errors.FlotillaError] = errors.FlotillaError) -> list[type[errors.FlotillaError]]:
    """`root` and every class under it, depth first."""
    found = [root]
    for sub in root.__subclasses__():
        found.extend(tree(sub))
    return found


def has_reason(cls: type[errors.FlotillaError]) -> bool:
    return "reason" in vars(cls)


def reason_of(status_details: list[object]) -> str:
    info = error_details_pb2.ErrorInfo()
    assert status_details[0].Unpack(info)  # type: ignore[attr-defined]
    return info.reason


def test_every_error_class_with_a_reason_has_exactly_one_row() -> None:
    rows = [cls for cls, _code in ROWS]
    doubled = sorted({cls.__name__ for cls in rows if rows.count(cls) > 1})
    assert not doubled, f"more than one row in gateway/errors.py ROWS: {doubled}"
    missing = sorted(cls.__name__ for cls in tree() if has_reason(cls) and cls not in rows)
    assert not missing, f"add a row to gateway/errors.py ROWS for: {missing}"
    categories = sorted(cls.__name__ for cls in rows if not has_reason(cls))
    assert not categories, f"a category has no reason and no row: {categories}"


def test_the_tree_names_every_class_it_holds() -> None:
    drawn = errors.__doc__ or ""
    undrawn = sorted(
        cls.__name__
        for cls in tree()
        if cls.__module__ == errors.__name__ and not re.search(rf"\b{cls.__name__}\b", drawn)
    )
    assert not undrawn, f"draw these in flotilla/errors.py's docstring: {undrawn}"


def test_every_reason_is_a_wire_name_and_names_one_class() -> None:
    wire = set(error_reason_pb2.ErrorReason.keys())
    reasons = [cls.reason for cls, _code in ROWS]
    unknown = sorted(r for r in reasons if f"ERROR_REASON_{r}" not in wire)
    assert not unknown, f"add these to error_reason.proto: {unknown}"
    assert len(reasons) == len(set(reasons)), "two classes share a reason"


def test_no_row_is_unknown_or_ok() -> None:
    assert not [cls for cls, code in ROWS if code in (grpc.StatusCode.UNKNOWN, grpc.StatusCode.OK)]


@pytest.mark.parametrize(("cls", "code"), ROWS, ids=[cls.__name__ for cls, _code in ROWS])
def test_an_outcome_gets_the_status_of_its_exception(cls: type[errors.FlotillaError], code: grpc.StatusCode) -> None:
    error = cls("refused " + "x" * 300, game="games/g1")
    raised = to_status(error)
    relayed = to_status(Rejected(Outcome.loads(Outcome.rejected(error).dumps())))
    assert raised.code == code.value[0]
    assert reason_of(list(raised.details)) == f"ERROR_REASON_{cls.reason}"
    assert (relayed.code, relayed.message, reason_of(list(relayed.details))) == (
        raised.code,
        raised.message,
        reason_of(list(raised.details)),
    )
    assert len(raised.message) <= 200


def test_an_unknown_reason_reads_as_a_rules_refusal() -> None:
    relayed = to_status(Rejected(Outcome(False, reason="FROM_A_NEWER_WORKER", message="no")))
    assert relayed.code == grpc.StatusCode.FAILED_PRECONDITION.value[0]
    assert reason_of(list(relayed.details)) == "ERROR_REASON_RULES_ERROR"


def test_a_category_raised_is_a_bug() -> None:
    assert to_status(errors.WrongState("a category")).code == grpc.StatusCode.INTERNAL.value[0]
