"""Persistence: the PostgreSQL connection, the tables, the append-only event log and the state cache."""
