"""Email notifications: pure message builders, SMTP senders, and the outbox worker."""
