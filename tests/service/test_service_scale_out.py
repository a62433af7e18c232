"""Two `ludex serve` processes on one PostgreSQL database behave as one service."""

from __future__ import annotations

import json
import random
import threading
import time

import httpx
from service_harness import Server, bearer, create_http_game

RULESET = "balloon_cup"


def test_stream_on_one_server_sees_moves_made_through_another(pg_url, tmp_path):
    a = Server(pg_url, tmp_path / "a.log").start()
    b = Server(pg_url, tmp_path / "b.log").start()
    try:
        with httpx.Client(base_url=a.http, timeout=30) as ca, httpx.Client(base_url=b.http, timeout=30) as cb:
            game = create_http_game(ca, RULESET)
            gid = game["game_id"]
            seen: list[dict] = []
            arrived: dict[int, float] = {}

            def follow():
                with httpx.Client(base_url=a.http, timeout=60) as c:
                    with c.stream("GET", f"/games/{gid}/stream") as r:
                        for line in r.iter_lines():
                            if line.startswith("data:"):
                                seen.append(json.loads(line[5:]))
                                arrived[seen[-1]["version"]] = time.monotonic()

            follower = threading.Thread(target=follow)
            follower.start()

            # A race across processes: the to-move seat submits the same version through both.
            view = cb.get(f"/games/{gid}/view").json()
            seat = view["decision"]["seats"][0]
            legal = cb.get(f"/games/{gid}/legal-moves", headers=bearer(game["tokens"][seat])).json()
            barrier, statuses = threading.Barrier(2), []

            def submit(client_base):
                with httpx.Client(base_url=client_base, timeout=30) as c:
                    barrier.wait()
                    r = c.post(f"/games/{gid}/moves", headers=bearer(game["tokens"][seat]),
                               json={"move": legal["moves"][0], "expected_version": legal["version"]})
                    statuses.append(r.status_code)

            racers = [threading.Thread(target=submit, args=(base,)) for base in (a.http, b.http)]
            for t in racers:
                t.start()
            for t in racers:
                t.join()
            assert sorted(statuses) == [200, 409]

            # Moves through B, each timed from its acknowledgement to its arrival on A's stream.
            acked: dict[int, float] = {}
            rng = random.Random("scale-out")
            while True:
                view = cb.get(f"/games/{gid}/view").json()
                if view["terminal"]:
                    break
                seat = view["decision"]["seats"][0]
                legal = cb.get(f"/games/{gid}/legal-moves", headers=bearer(game["tokens"][seat])).json()
                r = cb.post(f"/games/{gid}/moves", headers=bearer(game["tokens"][seat]),
                            json={"move": rng.choice(legal["moves"]), "expected_version": legal["version"]})
                assert r.status_code == 200, r.text
                acked[r.json()["version"]] = time.monotonic()
            follower.join(30)
            assert not follower.is_alive(), "the stream on server A did not see the game end"
            final = ca.get(f"/games/{gid}/events").json()
            assert final["finished"]
            assert [e["version"] for e in seen] == [e["version"] for e in final["events"]]
            # LISTEN/NOTIFY wakes A's stream at B's commit; A polls only every 2 s as a fallback.
            delays = sorted(arrived[v] - t for v, t in acked.items())
            assert delays[len(delays) // 2] < 0.5, f"median cross-process delay {delays[len(delays) // 2]:.2f}s"
            assert ca.get(f"/games/{gid}/audit").json()["ok"]
            assert cb.get(f"/games/{gid}/audit").json()["ok"]
    finally:
        a.stop()
        b.stop()
