"""The game's secret seed as the world sees it: 32 bytes, committed to by their SHA-256 before the first draw and
revealed when the game is over, so anyone can check that every die, bag draw and shuffle came from it.

One canonical form serves every game. The seed is 32 bytes; the number the random generator (`rng.Rng`) is keyed
with is those bytes read as a big-endian unsigned integer. A game created before seeds were bytes has an integer
seed below 2**63: its bytes are that integer written big-endian in 32 bytes (zero-padded on the left), so its
draws, its commitment and its revealed hex all follow from the same rule and its log replays unchanged.
"""

from __future__ import annotations

import hashlib
from typing import Final

SEED_BYTES: Final = 32


def seed_number(seed: bytes) -> int:
    """The integer the random generator is keyed with: the seed's bytes read big-endian.

    >>> seed_number(bytes(31) + b"\\x07")
    7
    """
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a seed has {SEED_BYTES} bytes, not {len(seed)}")
    return int.from_bytes(seed, "big")


def seed_bytes(number: int) -> bytes:
    """The canonical 32 bytes of an integer seed (an admin's choice, or a game created before seeds were bytes).

    >>> seed_bytes(7).hex()[-4:]
    '0007'
    """
    if not 0 <= number < 2 ** (8 * SEED_BYTES):
        raise ValueError("an integer seed lies in 0 .. 2**256 - 1")
    return number.to_bytes(SEED_BYTES, "big")


def commitment(seed: bytes) -> str:
    """The SHA-256 of the seed's 32 bytes, in hex: published when the game is created, before any draw."""
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a seed has {SEED_BYTES} bytes, not {len(seed)}")
    return hashlib.sha256(seed).hexdigest()


def parse_seed(text: str) -> bytes:
    """A revealed seed (64 hex characters) back to its bytes; ValueError for anything else."""
    seed = bytes.fromhex(text)
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a seed is {2 * SEED_BYTES} hex characters")
    return seed
