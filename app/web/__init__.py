"""HTTP: the JSON API, the live stream, settings and the application factory."""
