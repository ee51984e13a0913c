"""CatalogService: the game kinds and their catalogues (flotilla/app/catalogue.py builds and caches them).

No token is needed: everything here is public and the same for every caller. The responses are built
once per process and kept, so a call only encodes them.
"""

from __future__ import annotations

from typing import Any

import grpc

from flotilla.api.catalog.v1 import catalog_service_pb2 as pb
from flotilla.api.catalog.v1 import catalog_service_pb2_grpc as pb_grpc
from flotilla.app import catalogue
from flotilla.gateway.errors import maps_errors

Context = grpc.aio.ServicerContext[Any, Any]


class CatalogServicer(pb_grpc.CatalogServiceServicer):
    """The catalogue API of one gateway process."""

    @maps_errors
    async def ListGameKinds(self, request: pb.ListGameKindsRequest, context: Context) -> pb.ListGameKindsResponse:
        return catalogue.kinds()

    @maps_errors
    async def GetCatalog(self, request: pb.GetCatalogRequest, context: Context) -> pb.GetCatalogResponse:
        return catalogue.get_catalog(request.kind, request.rules_version)
