"""SIGKILL the server while clients play: every acknowledged move survives, chain intact."""

from __future__ import annotations

import random
import threading
import time

import httpx
from service_harness import Server, bearer, create_http_game, play_http

RULESET = "balloon_cup"
CLIENTS = 4


def test_acknowledged_moves_survive_sigkill(db_url, tmp_path):
    server = Server(db_url, tmp_path / "server.log").start()
    acknowledged: dict[str, list[dict]] = {}
    games: dict[str, dict] = {}
    stop = threading.Event()

    def player(i: int) -> None:
        rng = random.Random(i)
        try:
            with httpx.Client(base_url=server.http, timeout=10) as c:
                while not stop.is_set():
                    game = create_http_game(c, RULESET)
                    gid = game["game_id"]
                    games[gid], acknowledged[gid] = game, []
                    while True:
                        view = c.get(f"/games/{gid}/view").json()
                        if view["terminal"]:
                            break
                        seat = rng.choice(view["decision"]["seats"])
                        legal = c.get(f"/games/{gid}/legal-moves", headers=bearer(game["tokens"][seat])).json()
                        r = c.post(f"/games/{gid}/moves", headers=bearer(game["tokens"][seat]),
                                   json={"move": rng.choice(legal["moves"]), "expected_version": legal["version"]})
                        assert r.status_code == 200, r.text
                        acknowledged[gid].extend(r.json()["events"])
        except (httpx.HTTPError, ValueError):
            return  # the server died under us

    threads = [threading.Thread(target=player, args=(i,)) for i in range(CLIENTS)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 30
    while sum(len(v) for v in list(acknowledged.values())) < 40 and time.monotonic() < deadline:
        time.sleep(0.05)
    server.kill()  # mid-flight: clients are still submitting
    stop.set()
    for t in threads:
        t.join(30)
    assert sum(len(v) for v in acknowledged.values()) > 0, "no move was acknowledged before the kill"

    server.start()
    try:
        with httpx.Client(base_url=server.http, timeout=30) as c:
            for gid, acked in acknowledged.items():
                game = games[gid]
                stored = {e["version"]: e for e in c.get(f"/games/{gid}/events",
                                                          headers=bearer(game["tokens"][0])).json()["events"]}
                for event in acked:
                    assert event["version"] in stored, f"acknowledged event {event['version']} of {gid} lost"
                    assert stored[event["version"]]["kind"] == event["kind"]
                    if event["kind"] == "move":
                        for key in ("seat", "move", "rule"):
                            assert stored[event["version"]]["body"][key] == event["body"][key]
                report = c.get(f"/games/{gid}/audit").json()
                assert report["ok"], report
            # Play on: a game interrupted by the crash finishes normally after the restart.
            gid = max(acknowledged, key=lambda g: len(acknowledged[g]))
            play_http(c, gid, games[gid]["tokens"], random.Random("after"))
            assert c.get(f"/games/{gid}/audit").json()["ok"]
    finally:
        server.stop()
