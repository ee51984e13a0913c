"""CatalogService over a real gateway: the kinds and catalogues as the app layer builds them, no token
needed, typed errors for unknown and malformed input."""

from __future__ import annotations

from collections.abc import AsyncIterator

import grpc
import pytest
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from flotilla.api.catalog.v1 import catalog_service_pb2 as pb
from flotilla.api.catalog.v1 import catalog_service_pb2_grpc as pb_grpc
from flotilla.games import REGISTRY, served
from flotilla.gateway.catalog_servicer import catalog
from flotilla.gateway.server import Gateway, start_gateway
from flotilla.settings import Settings
from raw_rpc import answer_of, call

pytestmark = [pytest.mark.redis, pytest.mark.timeout(60)]
SERVICE = pb.DESCRIPTOR.services_by_name["CatalogService"]


@pytest.fixture
async def gateway(redis_url: str) -> AsyncIterator[Gateway]:
    started = await start_gateway(Settings(redis_url=redis_url, secret="catalogue-" + "c" * 32, bind="127.0.0.1:0"))
    yield started
    await started.stop(0)


@pytest.fixture
async def stub(gateway: Gateway) -> AsyncIterator[pb_grpc.CatalogServiceStub]:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{gateway.port}") as channel:
        yield pb_grpc.CatalogServiceStub(channel)


async def test_every_kind_is_listed_and_its_catalogue_served_without_a_token(
    stub: pb_grpc.CatalogServiceStub,
) -> None:
    listed = await stub.ListGameKinds(pb.ListGameKindsRequest())
    assert [k.kind for k in listed.kinds] == sorted(REGISTRY)
    for kind in listed.kinds:
        assert kind.rules_version == REGISTRY[kind.kind].version
        served = await stub.GetCatalog(pb.GetCatalogRequest(kind=kind.kind))
        again = await stub.GetCatalog(pb.GetCatalogRequest(kind=kind.kind, rules_version=kind.rules_version))
        assert served.catalog == again.catalog == catalog(kind.kind)
        assert served.catalog.etag == kind.catalog_etag
        assert served.catalog.WhichOneof("game") == (None if kind.kind == "counter" else kind.kind)


async def test_every_served_rules_version_has_its_catalogue(stub: pb_grpc.CatalogServiceStub) -> None:
    """A game in flight under an older rules version (Navegador 1) still gets its catalogue."""
    for rules in served("navegador"):
        answer = await stub.GetCatalog(pb.GetCatalogRequest(kind="navegador", rules_version=rules.version))
        assert answer.catalog == catalog("navegador", rules.version)
        assert answer.catalog.rules_version == rules.version
    assert [r.version for r in served("navegador")] == ["2", "1"]
    current = await stub.GetCatalog(pb.GetCatalogRequest(kind="navegador"))
    assert current.catalog.rules_version == REGISTRY["navegador"].version == "2"


async def test_modes_seat_counts_and_options_are_the_configs(stub: pb_grpc.CatalogServiceStub) -> None:
    kinds = {k.kind: k for k in (await stub.ListGameKinds(pb.ListGameKindsRequest())).kinds}
    port_royal = kinds["port_royal"]
    modes = {m.name: list(m.seat_counts) for m in port_royal.modes}
    assert modes == {
        "base": [2, 3, 4, 5],
        "base_plus": [2, 3, 4, 5],
        "contract_comp": [2, 3, 4, 5],
        "contract_coop": [1, 2, 3, 4, 5],
    }
    mode = next(o for o in port_royal.options if o.name == "mode")
    assert (mode.type, mode.default_value, list(mode.values)) == ("enum", "base", list(modes))
    assert [(m.name, list(m.seat_counts)) for m in kinds["sail_away"].modes] == [("", [2, 3, 4])]
    assert [(o.name, o.type, o.default_value) for o in kinds["sail_away"].options] == [("max_rounds", "int", "50")]
    assert [(o.name, o.type) for o in kinds["navegador"].options] == [("random_colours", "bool")]


@pytest.mark.parametrize(
    ("request_", "reason", "metadata"),
    [
        (pb.GetCatalogRequest(kind="chess"), "ERROR_REASON_CATALOG_NOT_FOUND", {"kind": "chess"}),
        (
            pb.GetCatalogRequest(kind="port_royal", rules_version="999"),
            "ERROR_REASON_CATALOG_NOT_FOUND",
            {"kind": "port_royal", "rules_version": "999"},
        ),
    ],
)
async def test_an_unknown_kind_or_version_is_not_found(
    stub: pb_grpc.CatalogServiceStub, request_: pb.GetCatalogRequest, reason: str, metadata: dict[str, str]
) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.GetCatalog(request_)
    answer = answer_of(caught.value)
    answer.check_typed()
    assert (answer.code, answer.reason, answer.metadata) == (grpc.StatusCode.NOT_FOUND, reason, metadata)
    assert "ListGameKinds" in answer.details or "rules version" in answer.details


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        (pb.GetCatalogRequest(), "kind"),
        (pb.GetCatalogRequest(kind="Port Royal"), "kind"),
        (pb.GetCatalogRequest(kind="k" * 5000), "kind"),
        (pb.GetCatalogRequest(kind="port_royal", rules_version="1\n2"), "rules_version"),
        (pb.GetCatalogRequest(kind="port_royal", rules_version="v" * 41), "rules_version"),
    ],
)
async def test_malformed_input_is_invalid_and_never_echoed_in_full(
    stub: pb_grpc.CatalogServiceStub, request_: pb.GetCatalogRequest, field: str
) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.GetCatalog(request_)
    answer = answer_of(caught.value)
    answer.check_typed()
    assert (answer.code, answer.reason, answer.metadata) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "ERROR_REASON_INVALID_REQUEST",
        {"field": field},
    )
    assert "k" * 100 not in answer.details
    assert (await stub.ListGameKinds(pb.ListGameKindsRequest())).kinds  # still serving


async def test_a_body_that_is_not_the_message_is_malformed(gateway: Gateway) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{gateway.port}") as channel:
        for method in SERVICE.methods:
            answer = await call(channel, method, [b"\xff\xff\xff"])
            answer.check_typed()
            assert (answer.code, answer.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "ERROR_REASON_MALFORMED_MESSAGE")


async def test_reflection_lists_the_service_and_serves_its_files(gateway: Gateway) -> None:
    """grpcurl and other reflection clients can find CatalogService and every per-game catalogue file."""
    async with grpc.aio.insecure_channel(f"127.0.0.1:{gateway.port}") as channel:
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        asks = [
            reflection_pb2.ServerReflectionRequest(list_services=""),
            reflection_pb2.ServerReflectionRequest(file_containing_symbol=SERVICE.full_name),
        ]
        replies = [reply async for reply in stub.ServerReflectionInfo(iter(asks))]
    assert SERVICE.full_name in {s.name for s in replies[0].list_services_response.service}
    files = replies[1].file_descriptor_response.file_descriptor_proto
    assert len(files) >= 1 + len(SERVICE.file.dependencies)
