"""The grpc.aio edge: converts and delegates; no rules here."""
