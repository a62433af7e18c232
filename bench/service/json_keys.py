"""The cost of refusing duplicate JSON keys (issue 23), per request body.

Parses the body of a move (`POST /games/{id}/moves`, 100 bytes) and of a game's creation with
options, with orjson (what the move path used, which keeps the last of two equal keys), the
standard library alone, and `api.http.strict_json.loads` (the standard library's C parser with
an `object_pairs_hook` that refuses a repeated key, plus UTF-8 and NaN checks). Prints
microseconds per body and the difference per request.

    .venv/bin/python -m bench.service.json_keys
"""

from __future__ import annotations

import json
import timeit

import orjson

from api.http.strict_json import loads

BODIES = {
    "move": b'{"move": {"name": "place", "args": {"card": "red-7", "t": "tile2", "s": 1}}, "expected_version": 12}',
    "create": b'{"ruleset": "balloon_cup", "variants": ["wind"], "options": {"colour_limit": 3, '
              b'"three_for_one": true}, "seats": 2, "seed": "bench"}',
    "claim": b'{"move": {"name": "claim", "args": {"tr": "trophy-red", "trade": {"red": 2, "blue": 1, '
             b'"green": 0, "yellow": 0, "grey": 0}}}, "expected_version": 40}',
}


def main() -> None:
    n = 100_000
    for name, body in BODIES.items():
        us = {label: min(timeit.repeat(lambda f=f: f(body), number=n, repeat=5)) / n * 1e6
              for label, f in (("orjson", orjson.loads), ("json", json.loads), ("strict", loads))}
        print(f"{name:6s} {len(body):3d} bytes: orjson {us['orjson']:.2f} us, json {us['json']:.2f} us, "
              f"strict {us['strict']:.2f} us; strict costs {us['strict'] - us['orjson']:+.2f} us per request over orjson")


if __name__ == "__main__":
    main()
