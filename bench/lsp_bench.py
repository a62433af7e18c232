"""The language server's two targets (issue 28), measured through a real client over stdio:

1. latency: from a `didChange` of Weather Machine's game file (905 lines) to the diagnostics
   published for that version (debounce included), over `--edits` single edits of three kinds
   (a comment at the end, a number mid-file, a line inserted near the top);
2. memory: over `--total` edits (3,000) sent in bursts of `--burst` (as typing sends them), each burst
   waited on for its diagnostics, the server's resident set size (VmRSS) and the Python memory
   tracemalloc counts (started in the server when this phase starts, `--frames` frames a trace;
   the server's `ludex/memory` request) every `--every` edits; then the growth between edit
   `--flat-from` and the last, and, between the two `--snapshots` edits, the allocations that grew
   most, by traceback (tracemalloc snapshots the server writes).

Tracing slows the server several times over, so the memory phase comes after the latency phase.
Prints figures only; nothing is asserted. Run: `nice -n 10 .venv/bin/python bench/lsp_bench.py`.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from lsprotocol import types as T
from pygls.lsp.client import LanguageClient

from dsl.loader import rulesets_root
from ludex.lsp.server import MEMORY

GAME = rulesets_root() / "weather_machine" / "game.ludex"


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def main(edits: int, total: int, burst: int, every: int, frames: int, flat_from: int,
               snapshots: tuple[int, int], top: int) -> None:
    client = LanguageClient("ludex-bench", "1")
    published: dict[int, float] = {}
    got = asyncio.Event()

    @client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _diagnostics(params: T.PublishDiagnosticsParams) -> None:
        published[params.version or 0] = time.perf_counter()
        got.set()

    await client.start_io(sys.executable, "-c", "from ludex.cli import main; main()", "lsp")
    pid = client._server.pid  # type: ignore[union-attr]
    await client.initialize_async(T.InitializeParams(capabilities=T.ClientCapabilities()))
    client.initialized(T.InitializedParams())
    text = GAME.read_text(encoding="utf-8")
    uri = GAME.as_uri()
    lines = text.count("\n")
    client.text_document_did_open(T.DidOpenTextDocumentParams(
        text_document=T.TextDocumentItem(uri=uri, language_id="ludex", version=0, text=text)))
    await asyncio.wait_for(got.wait(), 60)

    version = 0

    # a one-digit constant mid-file (`const bot_cost = N ...`): the edit rewrites its digit, column 17
    mid = next(k for k, ln in enumerate(text.split("\n")) if ln.startswith("const bot_cost = ") and ln[17].isdigit())

    def change(i: int, kind: str = "end") -> None:
        """An edit that keeps the file valid: `end` rewrites a comment on the last line, `mid` a
        number in the middle (a declaration on line `mid`), `insert` adds a line near the top,
        which moves every declaration below it (the worst case for re-using parsed pieces)."""
        nonlocal version, lines
        version += 1
        if kind == "end":
            start, end, new = (lines, 0), (lines + 1, 0), f"# edit {i}\n"
        elif kind == "mid":
            start, end, new = (mid, 17), (mid, 18), str(i % 9 + 1)
        else:
            start, end, new = (1, 0), (1, 0), f"# inserted {i}\n"
            lines += 1
        client.text_document_did_change(T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[T.TextDocumentContentChangePartial(
                range=T.Range(start=T.Position(line=start[0], character=start[1]), end=T.Position(line=end[0], character=end[1])),
                text=new)]))

    async def settle() -> None:
        while version not in published:
            got.clear()
            await asyncio.wait_for(got.wait(), 60)

    print(f"diagnostics after one edit of weather_machine/{GAME.name} ({lines} lines), {edits} edits of each kind "
          "(target: 150 ms):")
    for kind in ("end", "mid", "insert"):
        latencies = []
        for i in range(edits):
            sent = time.perf_counter()
            change(i, kind)
            await settle()
            latencies.append((published[version] - sent) * 1000)
        latencies.sort()
        print(f"  {kind:6s} median {statistics.median(latencies):.0f} ms, p90 {latencies[int(0.9 * len(latencies)) - 1]:.0f} ms, "
              f"min {latencies[0]:.0f} ms, max {latencies[-1]:.0f} ms")

    print(f"server memory over {total} edits in bursts of {burst} (RSS; Python memory traced by tracemalloc, "
          f"{frames} frame{'s' if frames != 1 else ''}, from the first of these edits):")
    folder = Path(tempfile.mkdtemp(prefix="lsp_bench_"))

    async def look(n: int) -> tuple[float, float]:
        snap = str(folder / f"{n}.snapshot") if n in snapshots else None
        got = await client.protocol.send_request_async(MEMORY, {"trace": frames, "snapshot": snap})
        rss, traced = _rss_mb(pid), got.current / 2**20
        print(f"  after {n:5d} edits: RSS {rss:6.1f} MB, traced {traced:6.2f} MB")
        return rss, traced

    seen = {0: await look(0)}
    for i in range(total):
        change(edits + i, ("end", "mid")[i % 2])
        if (i + 1) % burst == 0:
            await settle()
        if (i + 1) % every == 0 or (i + 1) in snapshots or i + 1 == flat_from:
            await settle()
            seen[i + 1] = await look(i + 1)
    await settle()
    seen[total] = seen.get(total) or await look(total)
    (rss0, traced0), (rss1, traced1) = seen[0], seen[total]
    print(f"  growth over all {total} edits: RSS {rss1 - rss0:+.1f} MB, traced {traced1 - traced0:+.2f} MB")
    if flat_from in seen and flat_from < total:
        (ra, ta), n = seen[flat_from], total - flat_from
        print(f"  growth from edit {flat_from} to {total}: RSS {rss1 - ra:+.2f} MB ({(rss1 - ra) / n * 100:+.3f} MB per 100 edits), "
              f"traced {traced1 - ta:+.3f} MB ({(traced1 - ta) / n * 100 * 1024:+.1f} KB per 100 edits)")
    a, b = (folder / f"{n}.snapshot" for n in snapshots)
    if a.is_file() and b.is_file():
        print(f"  allocations that grew most from edit {snapshots[0]} to {snapshots[1]} (tracemalloc, by traceback):")
        for stat in tracemalloc.Snapshot.load(str(b)).compare_to(tracemalloc.Snapshot.load(str(a)), "traceback")[:top]:
            where = stat.traceback[-1] if len(stat.traceback) else "?"
            print(f"    {stat.size_diff / 1024:+8.1f} KB in {stat.count_diff:+6d} blocks: {where}")
    shutil.rmtree(folder)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edits", type=int, default=30, help="single edits timed for latency")
    ap.add_argument("--total", type=int, default=3000, help="edits for the memory run")
    ap.add_argument("--burst", type=int, default=10, help="edits sent before waiting for diagnostics")
    ap.add_argument("--every", type=int, default=250, help="edits between two looks at the memory")
    ap.add_argument("--frames", type=int, default=1, help="frames tracemalloc keeps per allocation (more is slower)")
    ap.add_argument("--flat-from", type=int, default=1000, help="the edit from which the growth to the last is reported")
    ap.add_argument("--snapshots", default="500,1500", help="two edits whose tracemalloc snapshots are compared")
    ap.add_argument("--top", type=int, default=8, help="allocations listed from the snapshots' comparison")
    args = ap.parse_args()
    a, b = (int(x) for x in args.snapshots.split(","))
    asyncio.run(main(args.edits, args.total, args.burst, args.every, args.frames, args.flat_from, (a, b), args.top))
