"""The HTTP API against a real server: errors, tokens, concurrency, hidden information."""

from __future__ import annotations

import json
import os
import threading

import httpx
import pytest
from service_harness import Server, bearer, create_http_game, run_cli

from dsl import bundled_rulesets

RULESET = "balloon_cup" if any(i.name == "balloon_cup" for i in bundled_rulesets()) else bundled_rulesets()[0].name


@pytest.fixture
def game(client):
    return create_http_game(client, RULESET)


def _error(r: httpx.Response, status: int, code: str) -> dict:
    assert r.status_code == status, r.text
    body = r.json()["error"]
    assert body["code"] == code, body
    assert body["message"]
    return body


def _log(server: Server, game_id: str) -> list[dict]:
    """The log records of `ludex export` (its first line, the export header, left out)."""
    done = run_cli("export", game_id, "--db", server.db_url)
    assert done.returncode == 0, done.stderr
    export, *records = [json.loads(line) for line in done.stdout.splitlines()]
    assert export["export"] == "ludex-export/1" and export["game_id"] == game_id
    return records


def _to_move(client, game) -> tuple[int, dict]:
    view = client.get(f"/games/{game['game_id']}/view").json()
    seat = view["decision"]["seats"][0]
    legal = client.get(f"/games/{game['game_id']}/legal-moves", headers=bearer(game["tokens"][seat])).json()
    return seat, legal


def test_health_docs_and_rulesets(client):
    assert client.get("/healthz").json()["status"] == "ok"
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/rulesets", "/rulesets/check", "/games", "/games/{game_id}/view", "/games/{game_id}/legal-moves",
                 "/games/{game_id}/moves", "/games/{game_id}/events", "/games/{game_id}/replay",
                 "/games/{game_id}/audit", "/games/{game_id}/stream", "/healthz"):
        assert path in paths
    rulesets = client.get("/rulesets").json()
    assert {r["name"] for r in rulesets} == {i.name for i in bundled_rulesets()}
    for r in rulesets:
        assert len(r["content_hash"]) == 64 and r["seats"]["min"] <= r["seats"]["max"]


def test_check_ruleset_reports_diagnostics(client):
    r = client.post("/rulesets/check", json={"text": "this is not a ruleset {", "filename": "bad.ludex"})
    assert r.status_code == 200
    body = r.json()
    assert body["ok"] is False and body["diagnostics"]
    assert {"severity", "message", "line", "column"} <= set(body["diagnostics"][0])


def test_create_game_returns_tokens_and_commits_to_the_seed(server, client, game):
    assert game["version"] >= 1 and all(len(t) >= 40 for t in game["tokens"])
    log = _log(server, game["game_id"])
    header = log[0]["body"]
    assert len(header["seed_commitment"]) == 64 and "seed" not in header
    # Tokens are stored hashed: no token text appears anywhere in the log or the database.
    db_path = server.db_url.removeprefix("sqlite:///")
    db_text = b"".join(open(p, "rb").read() for p in (db_path, db_path + "-wal") if os.path.exists(p))
    for token in game["tokens"]:
        assert token.encode() not in db_text


def test_bad_game_requests(client):
    _error(client.post("/games", json={"ruleset": "no_such_game"}), 404, "ruleset_not_found")
    _error(client.post("/games", json={"ruleset": "../../etc/passwd"}), 404, "ruleset_not_found")
    _error(client.post("/games", json={"ruleset": RULESET, "seats": 99}), 400, "bad_seats")
    _error(client.post("/games", json={"ruleset": RULESET, "variants": ["nope"]}), 400, "bad_variant")
    _error(client.post("/games", json={"ruleset": RULESET, "options": {"nope": 1}}), 400, "bad_options")
    _error(client.post("/games", json={"ruleset": RULESET, "surprise": 1}), 422, "invalid_request")
    # issue 32: a variant name is a file name, never empty and without a slash or control character,
    # as the OpenAPI document says (minLength, pattern): the request is invalid, not a bad variant
    for name in ("", "a/b", "a\x00"):
        _error(client.post("/games", json={"ruleset": RULESET, "variants": [name]}), 422, "invalid_request")
    _error(client.post("/games", content=b"{not json", headers={"content-type": "application/json"}),
           400, "malformed_json")
    _error(client.post("/games", content=b"x" * (2 << 20), headers={"content-type": "application/json"}),
           413, "body_too_large")


def test_unknown_game(client):
    for path in ("view", "events", "audit", "replay?at=1", "stream"):
        _error(client.get(f"/games/nope/{path}"), 404, "game_not_found")
    _error(client.post("/games/nope/moves", json={"move": {"name": "x"}, "expected_version": 1},
                       headers=bearer("t")), 404, "game_not_found")


def test_bad_moves_leave_the_store_unchanged(server, client, game):
    gid = game["game_id"]
    before = _log(server, gid)
    seat, legal = _to_move(client, game)
    version = legal["version"]
    move = legal["moves"][0]
    url = f"/games/{gid}/moves"
    mine, other_game = bearer(game["tokens"][seat]), create_http_game(client, RULESET)

    _error(client.post(url, content=b'{"move": ', headers={**mine, "content-type": "application/json"}),
           400, "malformed_json")
    _error(client.post(url, json={"move": move, "expected_version": version}), 401, "token_required")
    _error(client.post(url, json={"move": move, "expected_version": version}, headers=bearer("forged")),
           401, "bad_token")
    _error(client.post(url, json={"move": move, "expected_version": version},
                       headers=bearer(other_game["tokens"][0])), 401, "bad_token")
    _error(client.post(url, json={"move": move, "expected_version": version},
                       headers={"Authorization": "Basic abc"}), 401, "bad_token")
    _error(client.post(url, json={"move": move, "expected_version": version, "seat": (seat + 1) % len(game["tokens"])},
                       headers=mine), 403, "wrong_seat")
    stale = _error(client.post(url, json={"move": move, "expected_version": version - 1}, headers=mine),
                   409, "stale_version")
    assert stale["current_version"] == version
    illegal = _error(client.post(url, json={"move": {"name": "no_such_move", "args": {}}, "expected_version": version},
                                 headers=mine), 422, "illegal_move")
    assert illegal["reason"]
    # names nothing has, each where a name goes (a name in a number's place is a type error, 400)
    bad_args = dict(move, args={k: "no_such_thing" if isinstance(v, str) else v for k, v in move["args"].items()}
                    or {"x": "y"})
    _error(client.post(url, json={"move": bad_args, "expected_version": version}, headers=mine), 422, "illegal_move")
    _error(client.post(url, json={"move": {"name": 5}, "expected_version": version}, headers=mine),
           422, "invalid_request")
    _error(client.post(url, content=b"x" * (2 << 20), headers={**mine, "content-type": "application/json"}),
           413, "body_too_large")
    assert _log(server, gid) == before


def test_out_of_turn_is_forbidden(client, game):
    view = client.get(f"/games/{game['game_id']}/view").json()
    waiting = [s for s in range(len(game["tokens"])) if s not in view["decision"]["seats"]]
    if not waiting:
        pytest.skip("every seat may move at the start of this game")
    seat, legal = _to_move(client, game)
    r = client.post(f"/games/{game['game_id']}/moves", json={"move": legal["moves"][0], "expected_version": legal["version"]},
                    headers=bearer(game["tokens"][waiting[0]]))
    _error(r, 403, "not_your_turn")
    lm = client.get(f"/games/{game['game_id']}/legal-moves", headers=bearer(game["tokens"][waiting[0]])).json()
    assert lm["moves"] == []


def test_two_clients_race_for_one_version(server, client, game):
    """Two clients of the to-move seat submit for the same version: one wins, one gets 409."""
    gid = game["game_id"]
    seat, legal = _to_move(client, game)
    before = _log(server, gid)
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def submit(move):
        with httpx.Client(base_url=server.http, timeout=30) as c:
            barrier.wait()
            r = c.post(f"/games/{gid}/moves", json={"move": move, "expected_version": legal["version"]},
                       headers=bearer(game["tokens"][seat]))
            statuses.append(r.status_code)

    moves = [legal["moves"][0], legal["moves"][-1]]
    threads = [threading.Thread(target=submit, args=(m,)) for m in moves]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [200, 409]
    after = _log(server, gid)
    assert after[: len(before)] == before
    new = after[len(before):]
    assert [e["kind"] for e in new].count("move") == 1
    assert [e["version"] for e in after] == list(range(1, len(after) + 1))


def test_views_and_events_hide_other_seats_information(server, client, game):
    gid = game["game_id"]
    full = _log(server, gid)
    spectator = client.get(f"/games/{gid}/view").json()
    assert spectator["seat"] is None
    views = [client.get(f"/games/{gid}/view", headers=bearer(t)).json() for t in game["tokens"]]
    assert [v["seat"] for v in views] == list(range(len(game["tokens"])))
    events = client.get(f"/games/{gid}/events").json()
    assert events["finished"] is False
    assert all("hash" not in e and "prev_hash" not in e for e in events["events"])
    if RULESET == "balloon_cup":
        # Hands are hidden: each seat's view differs from the spectator's and from the others'.
        assert views[0]["view"] != views[1]["view"]
        assert views[0]["view"] != spectator["view"]
        # Some chance outcome (the deck's shuffle) is redacted for the spectator.
        stored = {e["version"]: e for e in full}
        assert any(e["body"] != stored[e["version"]]["body"] for e in events["events"] if e["kind"] == "chance")
    # Every chance outcome a viewer may not see is removed from the events it gets.
    for viewer, token in [(None, None), *enumerate(game["tokens"])]:
        headers = bearer(token) if token else {}
        for e in client.get(f"/games/{gid}/events", headers=headers).json()["events"]:
            secret = full[e["version"] - 1]["body"]
            if e["kind"] == "chance" and secret["seen_by"] is not None and viewer not in secret["seen_by"]:
                assert e["body"]["outcome"] == [] and e["body"]["hidden"] == len(secret["outcome"])
    r = client.get(f"/games/{gid}/legal-moves")
    _error(r, 401, "token_required")


def test_replay_bounds(client, game):
    gid = game["game_id"]
    _error(client.get(f"/games/{gid}/replay", params={"at": 0}), 422, "invalid_request")
    _error(client.get(f"/games/{gid}/replay", params={"at": 10_000}), 400, "bad_at")
    assert client.get(f"/games/{gid}/replay", params={"at": 1}).status_code == 200
