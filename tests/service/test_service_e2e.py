"""End to end: real `ludex serve` (HTTP and gRPC on loopback) plays every bundled ruleset with
random legal moves; the exported log replays and audits; tampered logs fail naming the event."""

from __future__ import annotations

import json
import random
import threading

import httpx
import pytest
from service_harness import (
    Server,
    bearer,
    create_http_game,
    grpc_auth,
    grpc_stub,
    play_grpc,
    play_http,
    rehash,
    run_cli,
    write_log,
)

from api.grpc.messages import entry_from_pb
from dsl import bundled_rulesets

RULESETS = sorted(info.name for info in bundled_rulesets())


def _export(server: Server, game_id: str) -> tuple[dict, list[dict]]:
    """`ludex export`: its header line (keys, signed receipt) and the log records."""
    done = run_cli("export", game_id, "--db", server.db_url)
    assert done.returncode == 0, done.stderr
    export, *records = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return export, records


def _audit(tmp_path, entries, name="log.jsonl", export=None):
    """`ludex audit` of the records (a log alone), or of a whole export with its header."""
    return run_cli("audit", str(write_log(tmp_path / name, [export, *entries] if export else entries)))



@pytest.mark.parametrize("ruleset", RULESETS)
def test_play_export_replay_audit_over_http(ruleset, server, client, tmp_path):
    rng = random.Random(f"http-{ruleset}")
    info = next(r for r in client.get("/rulesets").json() if r["name"] == ruleset)
    seats = info["seats"]["min"]
    game = create_http_game(client, ruleset, seats)
    assert len(game["tokens"]) == seats
    play_http(client, game["game_id"], game["tokens"], rng)

    export, log = _export(server, game["game_id"])
    assert log[0]["kind"] == "header" and log[-1]["kind"] == "reveal"
    assert export["receipt"]["version"] == log[-1]["version"] and not export["receipt"]["sealed"]
    # The service publishes the keys the export lists, and the same receipt of the end.
    assert client.get("/keys").json()["keys"] == export["keys"]
    assert client.get(f"/games/{game['game_id']}/receipt").json() == export["receipt"]
    assert log[0]["body"]["ruleset"] == ruleset and log[0]["body"]["content_hash"] == info["content_hash"]
    # Once the game is over the public event list is the full log.
    assert client.get(f"/games/{game['game_id']}/events").json()["events"] == log
    report = client.get(f"/games/{game['game_id']}/audit").json()
    assert report["verified"], report
    assert {"hash_chain", "export_receipt", "seed_commitment", "moves_legal", "chance_outcomes",
            "outcome"} <= set(report["passed"])

    done = _audit(tmp_path, log, export=export)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("verified")
    # The log alone: nothing outside it vouches for its end, so it is not fully verified.
    done = _audit(tmp_path, log, "alone.jsonl")
    assert done.returncode == 1 and "skipped  export_receipt" in done.stdout, done.stdout

    mid = len(log) // 2
    replayed = run_cli("replay", str(tmp_path / "log.jsonl"), "--at", str(mid), "--json")
    assert replayed.returncode == 0, replayed.stderr
    over_http = client.get(f"/games/{game['game_id']}/replay", params={"at": mid}).json()
    assert json.loads(replayed.stdout)["view"] == over_http["view"]

    # An edited move: the hash chain breaks at that event.
    moves = [i for i, e in enumerate(log) if e["kind"] == "move"]
    edited = [dict(e) for e in log]
    i = moves[len(moves) // 2]
    edited[i]["body"] = dict(edited[i]["body"], move="not_a_move")
    done = _audit(tmp_path, edited, "edited.jsonl")
    assert done.returncode == 1 and f"event {log[i]['version']}:" in done.stdout, done.stdout

    # The same edit with the chain recomputed: the move is not legal at that event.
    done = _audit(tmp_path, rehash(edited), "edited-rehashed.jsonl")
    assert done.returncode == 1 and f"event {log[i]['version']}:" in done.stdout, done.stdout

    # A broken hash names its event.
    broken = [dict(e) for e in log]
    broken[mid]["hash"] = "f" * 64
    done = _audit(tmp_path, broken, "broken.jsonl")
    assert done.returncode == 1 and f"event {log[mid]['version']}:" in done.stdout, done.stdout


def _swap_chance(log: list[dict]) -> tuple[list[dict], int] | None:
    """Swap the outcomes of two chance events that differ, or reorder a shuffle."""
    chances = [i for i, e in enumerate(log) if e["kind"] == "chance"]
    for a in chances:
        outcome = log[a]["body"]["outcome"]
        if len(outcome) > 1 and len(set(outcome)) > 1:  # a shuffle: reorder it
            tampered = [dict(e) for e in log]
            tampered[a]["body"] = dict(log[a]["body"], outcome=list(reversed(outcome)))
            return tampered, log[a]["version"]
    for a, b in zip(chances, chances[1:]):
        if log[a]["body"]["outcome"] != log[b]["body"]["outcome"]:
            tampered = [dict(e) for e in log]
            tampered[a]["body"] = dict(log[a]["body"], outcome=log[b]["body"]["outcome"])
            tampered[b]["body"] = dict(log[b]["body"], outcome=log[a]["body"]["outcome"])
            return tampered, log[a]["version"]
    return None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_play_stream_and_audit_over_grpc(ruleset, server, tmp_path):
    import grpc

    pb2, stub, channel = grpc_stub(server.grpc_target)
    try:
        listed = {r.name: r for r in stub.ListRulesets(pb2.ListRulesetsRequest()).rulesets}
        seats = listed[ruleset].max_seats
        game = stub.CreateGame(pb2.CreateGameRequest(ruleset=ruleset, seats=seats))
        assert len(game.tokens) == seats

        streamed: list = []

        def follow():
            for event in stub.StreamEvents(pb2.StreamEventsRequest(game_id=game.game_id)):
                streamed.append(event)

        follower = threading.Thread(target=follow)
        follower.start()
        play_grpc(pb2, stub, game.game_id, list(game.tokens), random.Random(f"grpc-{ruleset}"))
        follower.join(30)
        assert not follower.is_alive(), "the stream did not end with the game"

        page = stub.ListEvents(pb2.ListEventsRequest(game_id=game.game_id))
        assert page.finished
        assert [e.version for e in streamed] == list(range(1, page.version + 1))
        assert streamed[-1].kind == "reveal"
        report = stub.Audit(pb2.AuditRequest(game_id=game.game_id))
        assert report.ok and report.verified, report

        # The spectator stream saw redacted events; the final log is complete, and with the
        # service's receipt and keys (over gRPC too) it is a whole export.
        log = [entry_from_pb(e) for e in page.events]
        typed = stub.GetReceipt(pb2.GetReceiptRequest(game_id=game.game_id)).receipt
        receipt = {f.name: getattr(typed, f.name) for f in typed.DESCRIPTOR.fields}
        keys = [
            {"key_id": k.key_id, "algorithm": k.algorithm, "public_key": k.public_key, "created_at": k.created_at,
             "current": k.current}
            for k in stub.GetPublicKeys(pb2.GetPublicKeysRequest()).keys
        ]
        export = {"export": "ludex-export/1", "game_id": game.game_id, "keys": keys, "receipt": receipt}
        done = _audit(tmp_path, log, export=export)
        assert done.returncode == 0, done.stdout

        swapped = _swap_chance(log)
        if swapped is not None:
            tampered, version = swapped
            done = _audit(tmp_path, tampered, "swapped.jsonl")
            assert done.returncode == 1 and f"event {version}:" in done.stdout, done.stdout
            done = _audit(tmp_path, rehash(tampered), "swapped-rehashed.jsonl")
            assert done.returncode == 1 and f"event {version}:" in done.stdout, done.stdout

        with pytest.raises(grpc.RpcError) as info:
            stub.SubmitMove(
                pb2.SubmitMoveRequest(game_id=game.game_id, move=pb2.Move(name="x"), expected_version=page.version),
                metadata=grpc_auth(game.tokens[0]),
            )
        assert info.value.code() == grpc.StatusCode.ABORTED  # game over
    finally:
        channel.close()


def test_sse_stream_follows_a_game(server, client):
    ruleset = RULESETS[0]
    game = create_http_game(client, ruleset)
    seen: list[dict] = []

    def follow():
        with httpx.Client(base_url=server.http, timeout=60) as c:
            with c.stream("GET", f"/games/{game['game_id']}/stream", headers=bearer(game["tokens"][0])) as r:
                assert r.status_code == 200
                for line in r.iter_lines():
                    if line.startswith("data:"):
                        seen.append(json.loads(line[5:]))

    follower = threading.Thread(target=follow)
    follower.start()
    play_http(client, game["game_id"], game["tokens"], random.Random("sse"))
    follower.join(30)
    assert not follower.is_alive()
    final = client.get(f"/games/{game['game_id']}/events").json()
    assert [e["version"] for e in seen] == [e["version"] for e in final["events"]]
    assert seen[-1]["kind"] == "reveal"
    # An EventSource reconnecting after the end is told to stop; one that missed events resumes.
    last = str(seen[-1]["version"])
    assert client.get(f"/games/{game['game_id']}/stream", headers={"Last-Event-ID": last}).status_code == 204
    with client.stream("GET", f"/games/{game['game_id']}/stream", headers={"Last-Event-ID": str(int(last) - 2)}) as r:
        ids = [line[3:].strip() for line in r.iter_lines() if line.startswith("id:")]
    assert ids == [str(int(last) - 1), last]
