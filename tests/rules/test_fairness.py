"""Provably fair dice (issue 14, API.md "Provably fair"): the seed's canonical 32 bytes, its commitment, and old
integer seeds keyed exactly as before (docs/fairness.md)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from app.rules import GameConfig, new_game
from app.rules.audit import audit
from app.rules.fairness import SEED_BYTES, commitment, parse_seed, seed_bytes, seed_number
from app.rules.rng import Rng

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def test_an_integer_seed_is_its_big_endian_32_bytes() -> None:
    """An admin's seed and the seeds of games created before seeds were bytes: the number written big-endian,
    zero-padded to 32 bytes, and read back to the same number (so the generator is keyed as before)."""
    assert seed_bytes(1) == bytes(31) + b"\x01"
    assert seed_bytes(2**63 - 1).hex() == "0" * 48 + "7fffffffffffffff"
    for number in (0, 7, 1001, 2**63 - 1, 2**256 - 1):
        assert seed_number(seed_bytes(number)) == number
    with pytest.raises(ValueError):
        seed_bytes(-1)
    with pytest.raises(ValueError):
        seed_bytes(2**256)
    with pytest.raises(ValueError):
        seed_number(b"\x01" * 31)


def test_the_commitment_is_the_sha256_of_the_seeds_bytes() -> None:
    """API.md: `seed_commitment` is the SHA-256 (hex) of the secret seed; `seed` is its 64 hex characters."""
    seed = bytes(range(SEED_BYTES))
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert len(commitment(seed)) == 64
    assert parse_seed(seed.hex()) == seed
    assert commitment(seed_bytes(1001)) == hashlib.sha256(bytes(30) + (1001).to_bytes(2, "big")).hexdigest()
    for wrong in ("00" * 31, "zz" * 32, "00" * 33):
        with pytest.raises(ValueError):
            parse_seed(wrong)


def test_a_32_byte_seed_keys_the_generator_deterministically() -> None:
    """The rules core stays pure: one (seed, event number) always gives the same draws, another number others."""
    seed = seed_number(bytes.fromhex("f3" * SEED_BYTES))
    first = [Rng(seed, 5).die() for _ in range(1)] + Rng(seed, 5).shuffled(range(20))
    again = [Rng(seed, 5).die() for _ in range(1)] + Rng(seed, 5).shuffled(range(20))
    assert first == again
    assert Rng(seed, 5).shuffled(range(20)) != Rng(seed, 6).shuffled(range(20))
    config = GameConfig.from_variants(4, {"sides": "random", "might_is_right": True})
    assert new_game(config, seed) == new_game(config, seed)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_old_integer_seed_games_verify_through_their_bytes(path: Path) -> None:
    """Existing games keep working: a golden log (made with an integer seed) verifies against the seed's
    canonical bytes, so its revealed hex seed and its commitment are those of the same draws."""
    game = json.loads(path.read_text(encoding="utf-8"))
    revealed = seed_bytes(game["seed"]).hex()
    config = GameConfig.from_variants(game["players"], game["variants"])
    result = audit(config, seed_number(parse_seed(revealed)), game["events"])
    assert result.ok, result.discrepancy
    assert result.state is not None and result.state.status == "finished"
