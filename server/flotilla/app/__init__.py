"""Transport-agnostic use cases shared by the gateway and the worker (no grpc imports here)."""
