"""Who a caller is: Flotilla's own JWTs, an operator's external issuer, API keys (docs/security.md)."""
