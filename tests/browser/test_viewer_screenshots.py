"""What a referee sees, kept as pictures: every bundled game in the viewer at its start, middle
and end, compared with the screenshots in tests/browser/screenshots/ within a tolerance (fonts
are antialiased differently from run to run). The parts that differ between two runs of the
same seeded game (its id, the creation time, hashes) are masked.

`LUDEX_UPDATE_SCREENSHOTS=1` writes the pictures anew instead of comparing (look at them
before committing them); a mismatch writes `NAME.actual.png` beside the expected picture.
"""

from __future__ import annotations

import io
import os
import random
import sys
from pathlib import Path

import pytest

sys.path.append(str(Path(__file__).resolve().parents[1] / "service"))
from service_harness import play_service  # noqa: E402

SHOTS = Path(__file__).resolve().parent / "screenshots"
GAMES = ["balloon_cup", "battle_line", "hanabi", "weather_machine"]
# a pixel counts as changed when a channel moves by more than this (antialiasing moves a few)
CHANNEL_TOLERANCE = 48
# the share of changed pixels a picture may have and still be the same
PIXEL_SHARE = 0.01
MASKED = ["#game-title", "#seed", "#event-body", "#checks"]


def _changed_share(expected: bytes, actual: bytes) -> float:
    from PIL import Image, ImageChops

    a = Image.open(io.BytesIO(expected)).convert("RGB")
    b = Image.open(io.BytesIO(actual)).convert("RGB")
    if a.size != b.size:
        return 1.0
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > CHANNEL_TOLERANCE else 0)
    return diff.histogram()[255] / (a.size[0] * a.size[1])


def _compare(page, name: str) -> None:
    png = page.screenshot(full_page=False, mask=[page.locator(s) for s in MASKED], animations="disabled")
    path = SHOTS / f"{name}.png"
    if os.environ.get("LUDEX_UPDATE_SCREENSHOTS") or not path.exists():
        if not os.environ.get("LUDEX_UPDATE_SCREENSHOTS"):
            pytest.fail(f"{path} is missing: run with LUDEX_UPDATE_SCREENSHOTS=1, look at it, and commit it")
        SHOTS.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        return
    share = _changed_share(path.read_bytes(), png)
    if share > PIXEL_SHARE:
        path.with_suffix(".actual.png").write_bytes(png)
        pytest.fail(f"{name}: {share:.1%} of the picture changed (over {PIXEL_SHARE:.0%}); see {path.with_suffix('.actual.png')}")


def _go(page, version: int) -> None:
    page.fill("#jump", str(version))
    page.dispatch_event("#jump", "change")
    page.wait_for_function(f"document.body.dataset.at === '{version}' && "
                           f"document.querySelector('#turn').textContent.startsWith('After event {version}:')")


@pytest.mark.parametrize("ruleset", GAMES)
def test_each_game_reads_the_same_at_its_start_middle_and_end(page, live_service, ruleset):
    service = live_service.service
    game = service.create_game(ruleset, seats=2, seed=f"screenshots {ruleset}")
    play_service(service, game, random.Random(11))
    log = service.export(game["game_id"])
    page.goto(f"{live_service.url}/games/{game['game_id']}/viewer")
    page.wait_for_selector("body[data-ready='true']", timeout=30000)
    page.select_option("#seat", "all")
    for name, version in (("start", 2), ("middle", len(log) // 2), ("end", len(log))):
        _go(page, version)
        _compare(page, f"{ruleset}-{name}")
