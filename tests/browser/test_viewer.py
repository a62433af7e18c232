"""The referee's viewer in a real browser (Debian's Chromium through Playwright), offline:
a finished game served by `ludex serve`, stepped through with rule citations and seats; a
running game shows only what the token may see; a tampered log file opened by `ludex view`
is flagged at the edited event. Screenshots go to the test's tmp folder (LUDEX_SCREENSHOTS
names another folder to keep them)."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

sys.path.append(str(Path(__file__).resolve().parents[1] / "service"))
from service_harness import play_service  # noqa: E402


def _shot(page, tmp_path, name: str) -> None:
    folder = Path(os.environ.get("LUDEX_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=False)


def _open(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready='true']", timeout=30000)


def _at(page) -> int:
    return int(page.get_attribute("body", "data-at"))


def _step_to(page, version: int) -> None:
    page.fill("#jump", str(version))
    page.dispatch_event("#jump", "change")
    page.wait_for_function(f"document.body.dataset.at === '{version}' && "
                           f"document.querySelector('#turn').textContent.startsWith('After event {version}:')")


def test_a_finished_game_steps_with_rule_citations_and_seats(page, live_service, tmp_path):
    service = live_service.service
    game = service.create_game("balloon_cup", seats=2, seed="viewer")
    play_service(service, game, random.Random(3))
    log = service.export(game["game_id"])

    _open(page, f"{live_service.url}/games/{game['game_id']}/viewer")
    assert "verified" in page.get_attribute("#audit", "class")
    assert page.inner_text("#verdict").startswith("Audit: verified")
    for check in ("hash_chain", "export_receipt", "seed_commitment", "moves_legal", "outcome"):
        assert page.get_attribute(f"#checks li[data-check='{check}']", "class") == "passed", check
    assert log[-1]["body"]["seed"] in page.inner_text("#seed")
    assert page.locator("#events li").count() == len(log)
    assert _at(page) == len(log)
    assert page.inner_text("#turn").startswith(f"After event {len(log)}: Game over")
    _shot(page, tmp_path, "viewer-finished")

    # Step back from the end, then jump into the game: a move cites its rule and source text.
    page.click("#back")
    page.wait_for_function(f"document.body.dataset.at === '{len(log) - 1}'")
    move = next(e for e in log if e["kind"] == "move")
    _step_to(page, move["version"])
    file, line = move["body"]["source"].rsplit(":", 1)
    assert page.inner_text("#event-rule") == f"{move['body']['rule']} — {move['body']['source']}"
    source_line = dict(log[0]["body"]["sources"])[file].splitlines()[int(line) - 1]
    assert f"{int(line):>4} │ {source_line}" in page.inner_text("#event-source")
    assert page.locator("#zones .chip").count() > 0  # cards as labelled chips
    _shot(page, tmp_path, "viewer-step")

    # Seats: every seat's view or everything after the end; a hand is hidden from the other seat.
    before = move["version"] - 1
    _step_to(page, before)
    everything = page.inner_text("#zones")
    page.select_option("#seat", "1")
    page.wait_for_function("document.querySelectorAll('#zones .zone.hidden').length > 0")
    assert page.locator("[data-zone='hand[0]']").get_attribute("class") == "zone hidden"
    assert page.locator("[data-zone='hand[1]'] .chip").count() > 0
    assert page.inner_text("#zones") != everything
    legal = page.inner_text("#legal")
    mover = move["body"]["seat"]
    page.select_option("#seat", str(mover))
    page.wait_for_function(f"!document.querySelector('[data-zone=\"hand[{mover}]\"]').classList.contains('hidden')")
    assert move["body"]["move"] in page.inner_text("#legal") or move["body"]["move"] in legal
    _shot(page, tmp_path, "viewer-seat")
    assert page.external_requests == []


def test_a_running_game_shows_only_what_the_token_may_see(page, live_service):
    service = live_service.service
    game = service.create_game("hanabi", seats=2, seed="running viewer")
    play_service(service, game, random.Random(2), moves=3)
    _open(page, f"{live_service.url}/games/{game['game_id']}/viewer#token={game['tokens'][0]}")
    seats = page.eval_on_selector_all("#seat option", "options => options.map(o => o.value)")
    assert seats == ["spectator", "0"]
    assert "unverified" in page.get_attribute("#audit", "class")
    assert "not revealed yet" in page.inner_text("#seed")
    # Hanabi: seat 0 cannot see its own hand, and the events it gets are redacted.
    assert page.locator("[data-zone='hand[0]']").get_attribute("class") == "zone hidden"
    status = page.evaluate(
        f"fetch('/games/{game['game_id']}/viewer/step?at=2&seat=1', "
        f"{{headers: {{Authorization: 'Bearer {game['tokens'][0]}'}}}}).then(r => r.status)")
    assert status == 403
    assert page.external_requests == []


def test_a_tampered_log_file_is_flagged_at_the_edited_event(page, tmp_path, live_service):
    from api.viewer import LogFileSource, create_file_viewer_app

    service = live_service.service
    game = service.create_game("balloon_cup", seats=2, seed="tampered")
    play_service(service, game, random.Random(4))
    export, log = service.export_header(game["game_id"]), service.export(game["game_id"])
    moves = [i for i, e in enumerate(log) if e["kind"] == "move"]
    edited = moves[len(moves) // 2]
    log[edited] = dict(log[edited], body=dict(log[edited]["body"], seat=1 - log[edited]["body"]["seat"]))
    # `ludex view`'s app, served the way the fixture serves the service's
    viewer = type(live_service)(None, create_file_viewer_app(LogFileSource(log, export))).start()
    try:
        _open(page, f"{viewer.url}/")
        version = log[edited]["version"]
        assert "failed" in page.get_attribute("#audit", "class")
        assert page.inner_text("#verdict").startswith(f"Audit FAILED at event {version} [hash_chain]")
        flagged = page.locator("#events li.failed")
        assert flagged.count() == 1 and flagged.get_attribute("data-version") == str(version)
        assert _at(page) == version
        assert flagged.is_visible() and "current" in flagged.get_attribute("class")
        box = page.locator("#events").bounding_box()
        item = flagged.bounding_box()
        assert box["y"] <= item["y"] <= box["y"] + box["height"]  # scrolled into view
        _shot(page, tmp_path, "viewer-tampered")
        assert page.external_requests == []
    finally:
        viewer.stop()


@pytest.mark.parametrize("bad", ["7x", "-1"])
def test_the_step_endpoint_refuses_a_bad_seat(page, live_service, bad):
    service = live_service.service
    game = service.create_game("hanabi", seats=2)
    page.goto(f"{live_service.url}/games/{game['game_id']}/viewer/step?at=1&seat={bad}")
    assert "bad_seat" in page.inner_text("body")
