"""Determinisation for search over a running game (bots): one world consistent with what a
seat sees, for search under hidden information (a bot's Monte Carlo playouts).

The components in zones `seat` cannot see (other seats' hands, face-down decks) are dealt
again at random among those zones, each zone keeping its count and each place the kind of
component it held (a card's back shows its deck); marks stay with their places, so
the seat's view of the sampled world is exactly its view of the real one. What a mark means
about a hidden component (a hint "this card is red") is rule text the engine does not
interpret, so it is not enforced. The sampled world also draws future chance from a fresh
seed, so it never carries the real game's coming shuffles.
"""

from __future__ import annotations

import random
from typing import Any

from runtime.chance import ChanceSource


def determinise(game: Any, seat: int, rng: random.Random) -> Any:
    """A clone of `game` (a `runtime.Game`) whose hidden components are resampled for `seat`.

    The clone is independent of `game`; `rng` draws the deal and the clone's chance seed.
    """
    g = game.clone()
    st = g.st
    hidden = [z for z in st.zone_refs if not z.visible_to(seat) and st.zones[z.idx]]
    slots = [(z.idx, k) for z in hidden for k in range(len(st.zones[z.idx]))]
    old = [st.zones[i][k] for i, k in slots]
    marks = [st.marks.get(c.id) for c in old]
    # a slot keeps the kind of component it held (a card's back tells its deck)
    by_kind: dict[str, list[Any]] = {}
    for c in old:
        by_kind.setdefault(c.kind, []).append(c)
    for group in by_kind.values():
        rng.shuffle(group)
    pool = [by_kind[c.kind].pop() for c in old]
    new_zones = {z.idx: list(st.zones[z.idx]) for z in hidden}  # zone lists are copy-on-write
    for c in pool:
        st.marks.pop(c.id, None)
    for (i, k), c, m in zip(slots, pool, marks):
        new_zones[i][k] = c
        st.loc[c.id] = i
        if m is not None:
            st.marks[c.id] = m
    for i, zone in new_zones.items():
        st.zones[i] = zone
    g.forget_choices(keep=seat)  # other seats' sealed moves at a simultaneous step are unknown too
    st.chance = ChanceSource(rng.getrandbits(64))
    st.version += 1
    g._listing = None  # the listing belonged to the state before the resampling
    return g

