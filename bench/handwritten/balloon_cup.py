"""A straightforward hand-written Balloon Cup engine, the baseline of bench/interpreter_bench.py.

It follows the rules of `rulesets/balloon_cup/game.ludex` (base game, default options: colour
limit 2 per tile at setup and refill, three-for-one trades allowed) step for step, so that a
random playout of it does the same work as one of the Ludex interpreter:

- 45 cards (values per colour as in the ruleset), 45 cubes in a bag, tiles plains 1,
  mountain 2, plains 3, mountain 4, cubes drawn at random with a rejected cube redrawn,
  8-card hands, seat 0 starts;
- steps `play`, `exchange_discard`, `after_exchange`, `winner_claims`, `other_claims` and the
  same moves: place, exchange n (0..4, only when no placement), discard one card at a time,
  cannot_place, claim(trophy, trade), done (refused while a plain claim is payable), decline;
- a full tile is scored at once (before the placer draws), its cubes go to the winner, its
  cards to the discard, it flips and is refilled, or removed when the bag cannot fill it
  (too few cubes, or only cubes over the colour limit left); three trophies win; a game with
  no tile left or none completable is a draw.

Plain classes and lists; legal moves are rebuilt as a list of tuples every ply. Not part of
the test suite.

API: `new_game(seed) -> State`, `legal_moves(state) -> list`, `apply(state, move)`,
`is_terminal(state) -> bool`, `outcome(state) -> str | None`.
"""

from __future__ import annotations

import random

COLOURS = ["red", "yellow", "green", "blue", "gray"]
VALUES = {
    "red": list(range(1, 14)),
    "yellow": [1, 2, 3, 5, 6, 7, 8, 9, 11, 12, 13],
    "green": [1, 2, 4, 6, 7, 8, 10, 12, 13],
    "blue": [1, 3, 5, 7, 9, 11, 13],
    "gray": [1, 4, 7, 10, 13],
}
PRICE = {"gray": 3, "blue": 4, "green": 5, "yellow": 6, "red": 7}
COLOUR_LIMIT = 2
THREE_FOR_ONE = True
HAND_SIZE = 8


class Tile:
    def __init__(self, number: int, terrain: str):
        self.number = number
        self.terrain = terrain
        self.cubes: list[str] = []
        self.sides: list[list[tuple[str, int]]] = [[], []]
        self.last_placer: int | None = None

    def cubes_of(self, colour: str) -> int:
        return self.cubes.count(colour)

    def cards_of(self, seat: int, colour: str) -> int:
        return sum(1 for c in self.sides[seat] if c[0] == colour)

    def needs(self, seat: int, colour: str) -> int:
        return self.cubes_of(colour) - self.cards_of(seat, colour)

    def __repr__(self) -> str:
        return f"tile{self.number}"


class State:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.deck = [(c, v) for c in COLOURS for v in VALUES[c]]
        self.discard: list[tuple[str, int]] = []
        self.hands: list[list[tuple[str, int]]] = [[], []]
        self.bag = [c for c in COLOURS for _ in VALUES[c]]
        self.won: list[list[str]] = [[], []]
        self.trophy_row = list(COLOURS)
        self.trophies_won: list[list[str]] = [[], []]
        self.tiles = [Tile(1, "plains"), Tile(2, "mountain"), Tile(3, "plains"), Tile(4, "mountain")]
        self.step = "play"
        self.current = 0
        self.actor = 0
        self.flight_winner: int | None = None
        self.to_discard = 0
        self.drawn_back = 0
        self.revealed = [False, False]
        self.terminal = False
        self.winner: int | None = None
        self.reason = ""


# ---- rules helpers ----

def cube_rejected(tile: Tile, colour: str) -> bool:
    return COLOUR_LIMIT is not None and tile.cubes_of(colour) >= COLOUR_LIMIT


def refill(state: State, tile: Tile) -> None:
    if len(state.bag) < tile.number:
        state.tiles.remove(tile)
        return
    for _ in range(tile.number):
        ok = [i for i, c in enumerate(state.bag) if not cube_rejected(tile, c)]
        if not ok:  # every cube left is over the limit: nothing is drawn
            continue
        i = ok[state.rng.randrange(len(ok))]
        tile.cubes.append(state.bag.pop(i))
    if len(tile.cubes) < tile.number:  # B15 with B4: the bag cannot fill the tile
        state.bag.extend(tile.cubes)
        tile.cubes = []
        state.tiles.remove(tile)


def draw_card(state: State, seat: int) -> None:
    if not state.deck and state.discard:
        state.deck = state.discard
        state.discard = []
        state.rng.shuffle(state.deck)
    if state.deck:
        state.hands[seat].append(state.deck.pop(0))


def owned(state: State, seat: int, colour: str) -> int:
    return state.won[seat].count(colour)


def awarded(state: State, colour: str) -> bool:
    return any(colour in tw for tw in state.trophies_won)


def tradeable(state: State, seat: int, colour: str) -> dict[str, int]:
    if not THREE_FOR_ONE:
        return {}
    return {d: owned(state, seat, d) // 3 for d in COLOURS if d != colour and awarded(state, d)}


def missing(state: State, seat: int, colour: str) -> int:
    return max(0, PRICE[colour] - owned(state, seat, colour))


def bundles(avail: dict[str, int], n: int) -> list[tuple[tuple[str, int], ...]]:
    """Every way to take n units from the counts in avail, as sorted (colour, count) tuples."""
    keys = [k for k in avail if avail[k] > 0]
    out: list[tuple[tuple[str, int], ...]] = []

    def rec(i: int, left: int, acc: list[tuple[str, int]]) -> None:
        if left == 0:
            out.append(tuple(acc))
            return
        if i == len(keys):
            return
        k = keys[i]
        for take in range(min(avail[k], left), -1, -1):
            if take:
                rec(i + 1, left - take, acc + [(k, take)])
            else:
                rec(i + 1, left, acc)

    rec(0, n, [])
    return out


def plainly_payable(state: State, seat: int) -> bool:
    return any(owned(state, seat, tr) >= PRICE[tr] for tr in state.trophy_row)


def free_cards(state: State, colour: str) -> int:
    return len(VALUES[colour]) - sum(t.cards_of(s, colour) for t in state.tiles for s in (0, 1))


def completable(tile: Tile, free: dict[str, int]) -> bool:
    return all(tile.needs(0, c) + tile.needs(1, c) <= free[c] for c in COLOURS)


def flight_winner_of(tile: Tile) -> int:
    a = sum(c[1] for c in tile.sides[0])
    b = sum(c[1] for c in tile.sides[1])
    if a == b:
        return tile.last_placer  # type: ignore[return-value]
    if tile.terrain == "mountain":
        return 0 if a > b else 1
    return 0 if a < b else 1


def check_stall(state: State) -> None:
    if state.terminal:
        return
    free = {c: free_cards(state, c) for c in COLOURS}
    if not state.tiles or not any(completable(t, free) for t in state.tiles):
        state.terminal = True
        state.winner = None
        state.reason = "no tile can be completed"


def resolve_flight(state: State, tile: Tile) -> None:
    w = flight_winner_of(tile)
    state.flight_winner = w
    state.won[w].extend(tile.cubes)
    tile.cubes = []
    for s in (0, 1):
        state.discard.extend(tile.sides[s])
        tile.sides[s] = []
    tile.terrain = "plains" if tile.terrain == "mountain" else "mountain"
    refill(state, tile)
    state.step = "winner_claims"
    state.actor = w


def end_turn(state: State) -> None:
    state.current = 1 - state.current
    state.actor = state.current
    state.step = "play"
    state.revealed = [False, False]


def turn_to(state: State, seat: int) -> None:
    state.current = state.actor = seat
    state.step = "play"
    state.revealed = [False, False]


def pay(state: State, seat: int, trophy: str, trade: tuple[tuple[str, int], ...]) -> None:
    plain = PRICE[trophy] - sum(n for _, n in trade)
    for colour, n in [(trophy, plain)] + [(d, 3 * k) for d, k in trade]:
        for _ in range(n):
            state.won[seat].remove(colour)
    state.trophy_row.remove(trophy)
    state.trophies_won[seat].append(trophy)
    if len(state.trophies_won[seat]) >= 3:
        state.terminal = True
        state.winner = seat
        state.reason = "three trophies"


# ---- API ----

def new_game(seed) -> State:
    state = State(seed)
    for t in list(state.tiles):
        refill(state, t)
    state.rng.shuffle(state.deck)
    for s in (0, 1):
        for _ in range(HAND_SIZE):
            draw_card(state, s)
    check_stall(state)
    return state


def placements(state: State, seat: int) -> list[tuple]:
    moves = []
    for card in state.hands[seat]:
        for t in state.tiles:
            for s in (0, 1):
                if t.needs(s, card[0]) > 0:
                    moves.append(("place", card, t, s))
    return moves


def legal_moves(state: State) -> list[tuple]:
    """The moves of the seat to act (`state.actor`)."""
    if state.terminal:
        return []
    seat = state.actor
    step = state.step
    if step == "play":
        moves = placements(state, seat)
        return moves or [("exchange", n) for n in range(5)]
    if step == "after_exchange":
        return placements(state, seat) or [("cannot_place",)]
    if step == "exchange_discard":
        return [("discard", card) for card in state.hands[seat]]
    moves = []
    for tr in state.trophy_row:
        for trade in bundles(tradeable(state, seat, tr), missing(state, seat, tr)):
            moves.append(("claim", tr, trade))
    if step == "winner_claims":
        if not plainly_payable(state, seat):
            moves.append(("done",))
    else:
        moves.append(("decline",))
    return moves


def apply(state: State, move: tuple) -> None:
    """Apply a legal move of `state.actor` (not re-checked)."""
    seat = state.actor
    kind = move[0]
    if kind == "place":
        _, card, t, s = move
        t.last_placer = seat
        state.hands[seat].remove(card)
        t.sides[s].append(card)
        flown = False
        if len(t.sides[0]) == t.number and len(t.sides[1]) == t.number:
            resolve_flight(state, t)
            flown = True
        check_stall(state)
        if state.terminal:
            return
        draw_card(state, seat)
        if not flown:
            end_turn(state)
    elif kind == "exchange":
        n = move[1]
        state.revealed[seat] = True
        state.to_discard = n
        state.drawn_back = n
        state.step = "exchange_discard" if n > 0 else "after_exchange"
    elif kind == "discard":
        state.hands[seat].remove(move[1])
        state.discard.append(move[1])
        state.to_discard -= 1
        if state.to_discard == 0:
            for _ in range(state.drawn_back):
                draw_card(state, seat)
            state.step = "after_exchange"
    elif kind == "cannot_place":
        state.revealed[seat] = True
        end_turn(state)
    elif kind == "claim":
        _, tr, trade = move
        pay(state, seat, tr, trade)
        if state.terminal:
            return
        if state.step == "other_claims":
            state.step = "winner_claims"
            state.actor = state.flight_winner  # type: ignore[assignment]
    elif kind == "done":
        state.step = "other_claims"
        state.actor = 1 - seat
    elif kind == "decline":
        turn_to(state, 1 - state.flight_winner)  # type: ignore[operator]
    else:
        raise ValueError(f"unknown move {move!r}")


def is_terminal(state: State) -> bool:
    return state.terminal


def outcome(state: State) -> str | None:
    """`win seat N`, `draw (reason)`, or None while the game goes on."""
    if not state.terminal:
        return None
    if state.winner is None:
        return f"draw ({state.reason})"
    return f"win seat {state.winner}"
