"""The matchmaker process: forms games from ticket queues, runs bot seats, rates finished games."""
