"""`ludex serve --access-log`: one JSON line per HTTP request with game, seat, status and latency;
no token or ticket in it."""

from __future__ import annotations

import json

import httpx
from service_harness import Server, bearer


def test_serve_writes_one_json_line_per_request(tmp_path):
    server = Server(f"sqlite:///{tmp_path / 'ludex.db'}", tmp_path / "server.log", extra_args=["--access-log"]).start()
    try:
        with httpx.Client(base_url=server.http, timeout=30) as http:
            game = http.post("/games", json={"ruleset": "balloon_cup", "seed": "example"}).json()
            gid, token = game["game_id"], game["tokens"][1]
            http.get(f"/games/{gid}/view", headers=bearer(token))
            http.get(f"/games/{gid}/view")
            http.get(f"/games/{gid}/legal-moves", headers=bearer("wrong"))
            ticket = http.post(f"/games/{gid}/stream-ticket", headers=bearer(token)).json()["ticket"]
            http.get(f"/games/{gid}/events", params={"ticket": ticket})
    finally:
        server.stop()
    text = (tmp_path / "server.log").read_text()
    records = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    requests = [(r["method"], r["path"].replace(gid, "ID"), r["game"], r["seat"], r["status"]) for r in records]
    assert requests[-6:] == [
        ("POST", "/games", None, None, 201),
        ("GET", "/games/ID/view", gid, 1, 200),
        ("GET", "/games/ID/view", gid, None, 200),
        ("GET", "/games/ID/legal-moves", gid, None, 401),
        ("POST", "/games/ID/stream-ticket", gid, 1, 200),
        ("GET", "/games/ID/events", gid, None, 200),  # /events takes no ticket: a spectator
    ]
    assert all(r["latency_ms"] >= 0 and r["ts"].endswith("+00:00") and r["client"] == "127.0.0.1" for r in records)
    assert token not in text and ticket not in text
