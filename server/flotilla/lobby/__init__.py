"""Lobbies (rooms), matchmaking tickets and ratings: the use cases between the gateway and the store."""
