"""Weather Machine through a real `ludex serve` over HTTP: 3 seats play to final scoring with
its tie-breakers; while it runs, no seat's view or events show a face-down tile (the
workshop pile, the experiment stack and its stages, the removed stage III tiles)."""

from __future__ import annotations

import random

import httpx
from service_harness import bearer, create_http_game

FACE_DOWN = ("workshop_down", "exp_stage", "exp_deck", "stage_ii", "stage_iii", "box")


def _hides_face_down(client: httpx.Client, game_id: str, token: str) -> int:
    """Checks the seat's view and events; returns how many face-down chance events it saw."""
    zones = client.get(f"/games/{game_id}/view", headers=bearer(token)).json()["view"]["zones"]
    for z in FACE_DOWN:
        assert "components" not in zones[z], z
    seen = 0
    for e in client.get(f"/games/{game_id}/events", headers=bearer(token)).json()["events"]:
        body = e.get("body", e)
        if body.get("kind") == "chance" and body.get("zone") in FACE_DOWN:
            assert body["outcome"] == [], body
            seen += 1
    return seen


def test_three_seats_play_weather_machine_to_final_scoring_over_http(server):
    rng = random.Random("wm-http")
    with httpx.Client(base_url=server.http, timeout=30) as client:
        game = create_http_game(client, "weather_machine", 3)
        gid, tokens = game["game_id"], game["tokens"]
        for t in tokens:
            assert _hides_face_down(client, gid, t) >= 4  # the shuffles of the setup
        moves = 0
        while True:
            view = client.get(f"/games/{gid}/view").json()
            if view["terminal"]:
                break
            seat = view["decision"]["seats"][0]
            legal = client.get(f"/games/{gid}/legal-moves", headers=bearer(tokens[seat])).json()
            assert legal["moves"], f"seat {seat} is stuck at {view['step']}"
            r = client.post(f"/games/{gid}/moves", json={"move": rng.choice(legal["moves"]), "expected_version": legal["version"]},
                            headers=bearer(tokens[seat]))
            assert r.status_code == 200, r.text
            moves += 1
            assert moves < 3000, "cut at the ply cap"
            if moves % 60 == 0:
                _hides_face_down(client, gid, tokens[seat])
        outcome = view["outcome"]
        assert outcome["reason"].startswith("final scoring (")
        assert outcome["kind"] in ("scores", "draw")
        assert set(outcome["scores"]) == {"0", "1", "2"}
        assert len(outcome["tiebreaks"]) == 3  # Nobel Prize, papers, completed office rows
        assert client.get(f"/games/{gid}/audit").json()["ok"]
