"""The families of rules, one module each: a family keeps the moves that answer its decisions (`lists`), what
its moves turn into and what declining means there (`move_handler`, `declines`), what its events do to the state
(`handles`) and its steps of the schedule (`runs`, or a function the schedule calls at its place, named
`..._step`), registered in the kind registries (`app.rules.registry`). What a family computes for others to read
(prices, income, the view, the score) stays in the module named after that rule (`app.rules.outlaws`, ...).

A family imports no other family and no dispatch module (`decide`, `legal`, `flow`, `evolve`); the dispatch
modules import this package, so that every family has registered its pieces before anything is dispatched.
"""

from __future__ import annotations

from types import ModuleType

from app.rules.families import (
    auction,
    cards,
    characters,
    city_hall,
    construction,
    doctor_undertaker,
    dynamite,
    horses,
    might_is_right,
    new_beginning,
    newspaper_boy,
    outlaws,
    river,
    vote,
)

FAMILIES: tuple[ModuleType, ...] = (
    cards, construction, newspaper_boy, characters, auction, outlaws, city_hall, dynamite, doctor_undertaker,
    horses, vote, might_is_right, new_beginning, river,
)
