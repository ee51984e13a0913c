"""Everything Redis-shaped: keys, Lua scripts, the store used by gateways and workers."""
