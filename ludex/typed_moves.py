"""A move typed as text, `place card=red-12 t=tile3 s=0`, matched against a seat's legal moves:
what `ludex play` reads in its typed line and `ludex play --plain` at its prompt.

- The move's name, each argument's name and each value may be shortened to a unique prefix
  (`pl c=red-12 t=tile3 s=0`, `place card=red-1 ...` when only `red-12` starts so); a value
  typed whole wins over longer values it begins (`s=1` is 1, not 10).
- Arguments left out are free: the text names a move when exactly one legal move fits it.
- A pick (`NAME in COUNT of DOMAIN`) takes its candidates separated by commas, `cs=h-2,s-5`.
- A number alone is the move of that number in the listing.

`typed_form` answers the shortest such text `resolve` reads as one listed move, for the listing
to show beside the move's sentence.

`resolve` answers the move to play, or raises `TypedMoveError` with a sentence that says why
the text names no move (the names and values that do exist) or which moves it could name.
A text that fits no listed move but names existing arguments is sent to the rules as typed
(`literal`), so that the player reads the rule's own reason for refusing it.
"""

from __future__ import annotations

import itertools
import json
from typing import Any, Sequence

from runtime.picks import is_offer
from runtime.sentences import value_text

MAX_NAMED = 8  # candidates an ambiguity message names before it counts the rest


class TypedMoveError(ValueError):
    """Why a typed text names no single move: `message` names the candidates or the choices."""

    def __init__(self, message: str, candidates: Sequence[Any] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.candidates = list(candidates)


def parse_typed_move(text: str) -> dict[str, Any]:
    """`name k=v ...` as `{name, args}`; a value is JSON when it parses, else text; a pick's
    `a,b,c` is a list."""
    name, *pairs = text.split()
    args: dict[str, Any] = {}
    for p in pairs:
        k, _, v = p.partition("=")
        args[k] = _literal(v)
    return {"name": name, "args": args}


def _literal(v: str) -> Any:
    try:
        return json.loads(v)
    except ValueError:
        return [_literal(x) for x in v.split(",")] if "," in v else v


def _unique(prefix: str, names: Sequence[str], what: str) -> str:
    """The one name of `names` that is `prefix` or starts with it; TypedMoveError otherwise."""
    if prefix in names:
        return prefix
    hits = [n for n in names if n.startswith(prefix)]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise TypedMoveError(f"{what} {prefix!r} is ambiguous: it could be {', '.join(hits)}")
    raise TypedMoveError(f"there is no {what} {prefix!r} now; the {what}s are {', '.join(names) or 'none'}")


def _fits(listed: Any, typed: str) -> int:
    """2 when the listed value is the typed text, 1 when it starts with it, 0 otherwise (a pick's
    offer fits any list of its candidates)."""
    if is_offer(listed):
        wanted = [x for x in typed.split(",") if x]
        names = [value_text(c) for c in listed["of"]]
        return 2 if len(wanted) == listed["pick"] and all(w in names for w in wanted) else 0
    text = value_text(listed)
    return 2 if text == typed else 1 if text.startswith(typed) else 0


def _resolved(typed: str, listed: list[Any]) -> Any:
    """A typed value as the rules should read it: the one listed value it is or begins, else
    the text itself (JSON when it parses)."""
    exact = [v for v in listed if not is_offer(v) and _fits(v, typed) == 2]
    if exact:
        return exact[0]
    begun = {json.dumps(v, sort_keys=True): v for v in listed if not is_offer(v) and _fits(v, typed) == 1}
    return next(iter(begun.values())) if len(begun) == 1 else _literal(typed)


def resolve(text: str, moves: Sequence[Any], describe: Any = None) -> Any:
    """The legal move (an element of `moves`, `runtime.Move`s of one seat) that `text` names,
    or the literal move `{name, args}` to send to the rules when the text fits none of them but
    its names exist (the rules then give their reason). `describe(move)` words a candidate in
    the errors (default: `name k v, ...`). Raises TypedMoveError."""
    describe = describe or (lambda m: f"{m.name} " + ", ".join(f"{k} {value_text(v)}" for k, v in m.args.items()))
    words = text.split()
    if not words:
        raise TypedMoveError("type a move: its name and arguments, as in `name arg=value ...`")
    if len(words) == 1 and words[0].isdigit():
        i = int(words[0])
        if 0 <= i < len(moves):
            return moves[i]
        raise TypedMoveError(f"there is no move {i}: choose 0 to {len(moves) - 1}" if moves else "you have no move now")
    names = list(dict.fromkeys(m.name for m in moves))
    name = _unique(words[0], names, "move")
    fitting = [m for m in moves if m.name == name]
    arg_names = list(dict.fromkeys(k for m in fitting for k in m.args))
    typed: dict[str, str] = {}
    for pair in words[1:]:
        key, eq, value = pair.partition("=")
        if not eq:
            raise TypedMoveError(f"{pair!r} is not `argument=value`; {name}'s arguments are {', '.join(arg_names) or 'none'}")
        typed[_unique(key, arg_names, f"argument of {name}")] = value
    resolved = {k: _resolved(v, [m.args.get(k) for m in fitting]) for k, v in typed.items()}
    for key, value in typed.items():
        scored = [(_fits(m.args.get(key), value), m) for m in fitting]
        best = max((s for s, _ in scored), default=0)
        if best == 0:  # no listed move takes these values together: an unclear value, or the rules say why
            for k, v in typed.items():
                begun = list(dict.fromkeys(value_text(x) for m in moves if m.name == name
                                           if not is_offer(x := m.args.get(k)) and _fits(x, v) == 1))
                if len(begun) > 1 and not any(_fits(m.args.get(k), v) == 2 for m in moves if m.name == name):
                    raise TypedMoveError(f"{k}={v} is ambiguous: it could be {', '.join(begun[:MAX_NAMED])}"
                                         + (f" and {len(begun) - MAX_NAMED} more" if len(begun) > MAX_NAMED else ""))
            return {"name": name, "args": resolved}
        fitting = [m for s, m in scored if s == best]
    offers = [k for k in arg_names if k not in typed and fitting and is_offer(fitting[0].args.get(k))]
    if len(fitting) == 1 and not offers:
        return _picked(fitting[0], typed)
    if len(fitting) == 1:
        raise TypedMoveError(f"{name} needs {', '.join(offers)}: pick {fitting[0].args[offers[0]]['pick']} of "
                             f"{value_text(fitting[0].args[offers[0]]['of'])}, separated by commas")
    differ = [k for k in arg_names if len({json.dumps(m.args.get(k), sort_keys=True) for m in fitting}) > 1]
    shown = "; ".join(describe(m) for m in fitting[:MAX_NAMED])
    more = f"; and {len(fitting) - MAX_NAMED} more" if len(fitting) > MAX_NAMED else ""
    raise TypedMoveError(f"{text!r} fits {len(fitting)} moves (say {', '.join(differ)}): {shown}{more}", fitting)


def _picked(move: Any, typed: dict[str, str]) -> Any:
    """The listed move with each offer replaced by the typed pick (a list of candidates)."""
    offers = {k: v for k, v in move.args.items() if is_offer(v)}
    if not offers:
        return move
    args = dict(move.args)
    for k, v in offers.items():
        names = {value_text(c): c for c in v["of"]}
        args[k] = [names[x] for x in typed[k].split(",") if x]
    return {"name": move.name, "args": args}


def typed_form(move: Any, moves: Sequence[Any]) -> str:
    """The shortest text `name k=v ...` that `resolve` reads as `move` among `moves` (a seat's
    listed `runtime.Move`s): whole names and values, as few arguments as make it one move (ties:
    the shorter text, then the arguments' order). A pick (runtime.picks) is always typed, shown as
    `k=<N, commas>`; the check types its first N candidates. Whole text when no subset names it."""
    offers = [k for k, v in move.args.items() if is_offer(v)]
    free = [k for k in move.args if k not in offers]

    def text(keys: Sequence[str], shown: bool) -> str:
        def value(k: str) -> str:
            v = move.args[k]
            if not is_offer(v):
                return value_text(v)
            return f"<{v['pick']}, commas>" if shown else ",".join(value_text(c) for c in v["of"][: v["pick"]])
        return " ".join([move.name, *(f"{k}={value(k)}" for k in move.args if k in keys or k in offers)])

    for size in range(len(free) + 1):
        for keys in sorted(itertools.combinations(free, size), key=lambda ks: len(text(ks, True))):
            try:
                got = resolve(text(keys, False), moves)
            except TypedMoveError:
                continue
            if got is move or (offers and isinstance(got, dict) and got["name"] == move.name
                               and all(got["args"].get(k) == move.args[k] for k in free)):
                return text(keys, True)
    return text(free, True)
