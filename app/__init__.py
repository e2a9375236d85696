"""Carson City Online: the board game Carson City, played asynchronously in the browser."""
