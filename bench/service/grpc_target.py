"""The gRPC target of issue 23, measured in one run: gRPC's server CPU per move is at most
HTTP's plus two grpcio floor calls.

One `ludex serve` process answers moves offered open loop over HTTP, then over gRPC, at the
same rate (openloop.py: a legal-moves listing and a move per move); between them grpcio's
synchronous server answers bare echo calls with no Ludex code (grpc_floor.py), at the rate the
moves make calls (two per move), since grpcio's cost per call grows as calls thin out. The rounds
alternate, so the machine's other load falls on each alike. Prints each figure and whether
`grpc <= http + 2 * floor` held in each round.

    flock /work/bench.lock .venv/bin/python -m bench.service.grpc_target --rate 300 --seconds 8 --rounds 2

Not part of the test suite (CPU figures on a shared machine are not assertions).
"""

from __future__ import annotations

import argparse
import os

from bench.service.grpc_floor import measure
from bench.service.openloop import run_rate, temporary_server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=300, help="offered moves/s on each face")
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--floor-rate", type=float, default=None,
                        help="offered echo calls/s (default: twice --rate, the calls the moves make)")
    parser.add_argument("--ruleset", default="balloon_cup")
    args = parser.parse_args()
    with temporary_server(None) as (server, label):
        for n in range(1, args.rounds + 1):
            cpu = {}
            for face in ("http", "grpc"):
                target = server.http if face == "http" else server.grpc_target
                r = run_rate(target, face, server.proc.pid, args.ruleset, args.rate, args.seconds, 2, 40)
                cpu[face] = r["server_cpu_ms_per_move"]
                print(f"round {n} {label} {face:4s} {r['achieved']:.0f} of {args.rate:.0f} moves/s, {r['errors']} errors: "
                      f"server CPU {cpu[face]:.3f} ms/move")
            floor_ms = measure("grpc", args.floor_rate or 2 * args.rate, args.seconds / 2)["server_us"] / 1000
            bound = cpu["http"] + 2 * floor_ms
            print(f"round {n} grpcio floor {floor_ms:.3f} ms/call; target: gRPC {cpu['grpc']:.3f} <= HTTP {cpu['http']:.3f} "
                  f"+ 2 x {floor_ms:.3f} = {bound:.3f} ms/move: {'met' if cpu['grpc'] <= bound else 'NOT met'} "
                  f"(load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
