"""The authoritative game service: accounts, games, moves, and the bus that announces changes."""
