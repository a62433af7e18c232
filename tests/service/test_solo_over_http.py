"""Weather Machine solo over HTTP (issue 9): a real `ludex serve` plays a game against the
Saboteurs with the one human seat's token; the automaton's moves arrive as events citing their
rule and file:line; the exported log verifies with `ludex audit`."""

from __future__ import annotations

import json
import random

import httpx
from service_harness import bearer, create_http_game, run_cli, write_log


def test_a_solo_game_plays_to_its_end_with_one_token_and_audits(server, tmp_path):
    rng = random.Random("solo over http")
    with httpx.Client(base_url=server.http, timeout=30) as client:
        game = create_http_game(client, "weather_machine", 1, variants=["solo"])
        assert len(game["tokens"]) == 1
        token, gid = game["tokens"][0], game["game_id"]
        moves = 0
        while True:
            view = client.get(f"/games/{gid}/view", headers=bearer(token)).json()
            if view["terminal"]:
                break
            assert view["decision"]["seats"] == [0]  # never the Saboteurs' seat
            assert "components" not in view["view"]["zones"]["report_deck"]
            legal = client.get(f"/games/{gid}/legal-moves", headers=bearer(token)).json()
            r = client.post(f"/games/{gid}/moves", headers=bearer(token),
                            json={"move": rng.choice(legal["moves"]), "expected_version": legal["version"]})
            assert r.status_code == 200, r.text
            moves += 1
            assert moves < 5000
        assert view["view"]["outcome"]["winners"] in ([0], [1])
        events = client.get(f"/games/{gid}/events", headers=bearer(token)).json()["events"]
        sab = [e["body"] for e in events if e["kind"] == "move" and e["body"]["seat"] == 1]
        assert sab and all(e["source"].startswith("weather_machine/variants/solo.ludex:") for e in sab)
        assert {e["move"] for e in sab} >= {"sab_move", "sab_report"}
        assert client.get(f"/games/{gid}/audit").json()["ok"]

    done = run_cli("export", gid, "--db", server.db_url)
    assert done.returncode == 0, done.stderr
    log = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    audited = run_cli("audit", str(write_log(tmp_path / "solo.jsonl", log)))
    assert audited.returncode == 0 and audited.stdout.startswith("verified"), audited.stdout + audited.stderr
    # an edited Saboteur move is caught
    i = next(i for i, e in enumerate(log) if e.get("kind") == "move" and e["body"]["seat"] == 1 and e["body"]["args"])
    edited = [dict(e) for e in log]
    edited[i]["body"] = dict(log[i]["body"], args={k: "snow" if v != "snow" else "rain" for k, v in log[i]["body"]["args"].items()})
    bad = run_cli("audit", str(write_log(tmp_path / "edited.jsonl", edited)))
    assert bad.returncode == 1 and f"event {log[i]['version']}:" in bad.stdout, bad.stdout
