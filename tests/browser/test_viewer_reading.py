"""A game a person can read in the viewer (Debian's Chromium through Playwright): why it
ended (the ending rule, its place in the pinned source and its citation), every event and
legal move as a sentence with no JSON anywhere, what a move touched marked on the board, a
timeline walked with the keyboard, and no serious or critical accessibility violation under
axe-core (npm, installed by `make test` into tests/browser/axe)."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

sys.path.append(str(Path(__file__).resolve().parents[1] / "service"))
from service_harness import play_service  # noqa: E402

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
JSONISH = re.compile(r'[{}]|"\w+":')


def _open(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready='true']", timeout=30000)


def _finished(live_service, ruleset: str, seed: str, rng: int) -> tuple[dict, list[dict]]:
    service = live_service.service
    game = service.create_game(ruleset, seats=2, seed=seed)
    play_service(service, game, random.Random(rng))
    return game, service.export(game["game_id"])


def test_the_header_says_why_the_game_ended_with_its_rule_and_citation(page, live_service):
    game, log = _finished(live_service, "hanabi", "lost game", 5)
    _open(page, f"{live_service.url}/games/{game['game_id']}/viewer")
    ending = page.inner_text("#ending")
    assert ending.startswith("Game over: ")
    # Random play loses Hanabi on the third fuse: the header names that trigger and its reason.
    assert "trigger burnt_out at hanabi/game.ludex:" in ending
    assert "the third fuse burnt" in ending.lower()
    assert "team 0" in ending
    # The citation shown is the trigger's own doc string in the pinned source.
    line = int(re.search(r"trigger burnt_out at hanabi/game\.ludex:(\d+)", ending).group(1))
    source = dict(log[0]["body"]["sources"])["hanabi/game.ludex"].splitlines()[line - 1]
    assert source.lstrip().startswith("trigger burnt_out")
    doc = re.search(r'"([^"]+)"', source).group(1)
    assert doc in ending
    # The reveal event's rule box cites the ending rule instead of staying empty.
    page.keyboard.press("End")
    page.wait_for_function(f"document.body.dataset.at === '{len(log)}'")
    assert page.inner_text("#event-rule").startswith("Ended by trigger burnt_out")
    assert "trigger burnt_out" in page.inner_text("#event-source")


def test_events_moves_and_details_read_as_sentences_never_json(page, live_service):
    game, log = _finished(live_service, "balloon_cup", "sentences", 3)
    _open(page, f"{live_service.url}/games/{game['game_id']}/viewer")
    rows = page.locator("#events li")
    assert rows.count() == len(log)
    for text in rows.all_inner_texts():
        assert not JSONISH.search(text), text
    move = next(e for e in log if e["kind"] == "move" and e["body"]["move"] == "place")
    args = move["body"]["args"]
    row = page.inner_text(f"#ev-{move['version']}")
    # the rules' `say` template: the seat and every argument's value, in a sentence
    assert f"Seat {move['body']['seat']} places {args['card']} on seat {args['s']}'s side of {args['t']}" in row
    page.fill("#jump", str(move["version"] - 1))
    page.dispatch_event("#jump", "change")
    page.wait_for_function(f"document.body.dataset.at === '{move['version'] - 1}'")
    page.select_option("#seat", str(move["body"]["seat"]))
    page.wait_for_function("document.querySelectorAll('#legal li').length > 1")
    for text in page.locator("#legal li").all_inner_texts():
        assert not JSONISH.search(text), text
        assert text.startswith(f"Seat {move['body']['seat']} ")
    details = page.inner_text("#event-body")
    assert not JSONISH.search(details), details


def test_what_a_move_touched_is_marked_on_the_next_board(page, live_service):
    game, log = _finished(live_service, "balloon_cup", "touched", 4)
    _open(page, f"{live_service.url}/games/{game['game_id']}/viewer")
    page.select_option("#seat", "all")
    page.wait_for_function("document.querySelectorAll('#zones .zone.hidden').length === 0")
    move = next(e for e in log if e["kind"] == "move" and e["version"] > 10)
    card = move["body"]["args"]["card"]
    page.fill("#jump", str(move["version"]))
    page.dispatch_event("#jump", "change")
    page.wait_for_function(f"document.body.dataset.at === '{move['version']}' && "
                           f"document.querySelector('#turn').textContent.startsWith('After event {move['version']}:')")
    touched = page.eval_on_selector_all(".chip.touched", "chips => chips.map(c => c.dataset.name)")
    assert card in touched
    # a card the move did not move is not marked
    still = page.eval_on_selector_all(".chip:not(.touched)", "chips => chips.map(c => c.dataset.name)")
    assert still and card not in still


def test_a_move_that_marks_components_shows_what_it_told_about_each(page, live_service):
    # Hanabi's hint marks every card of the hinted hand [kind, value, touched]: the board shows each
    # card's new mark under its label, so a referee reads which cards the hint touched.
    game, log = _finished(live_service, "hanabi", "hinted", 7)
    hint = next(e for e in log if e["kind"] == "move" and e["body"]["move"] == "hint_rank")
    target, rank = hint["body"]["args"]["target"], hint["body"]["args"]["rank"]
    _open(page, f"{live_service.url}/games/{game['game_id']}/viewer")
    page.select_option("#seat", "all")
    page.wait_for_function("document.querySelectorAll('#zones .zone.hidden').length === 0")
    page.fill("#jump", str(hint["version"]))
    page.dispatch_event("#jump", "change")
    page.wait_for_function(f"document.body.dataset.at === '{hint['version']}' && "
                           f"document.querySelector('#turn').textContent.startsWith('After event {hint['version']}:')")
    chips = page.eval_on_selector_all(
        f"[data-zone='hand[{target}]'] .chip",
        "chips => chips.map(c => [c.title, [...c.querySelectorAll('.mark.new')].map(m => m.textContent)])")
    assert len(chips) == 5
    for title, new in chips:
        card_rank = int(re.search(r"rank (\d)", title).group(1))
        assert new == [f"rank {rank} {'yes' if card_rank == rank else 'no'}"], (title, new)
    # the other hand was not hinted: no mark of this event on it
    other = page.eval_on_selector_all(f"[data-zone='hand[{1 - target}]'] .mark.new", "m => m.length")
    assert other == 0


def test_the_timeline_is_walked_with_the_keyboard(page, live_service):
    game, log = _finished(live_service, "balloon_cup", "keyboard", 6)
    _open(page, f"{live_service.url}/games/{game['game_id']}/viewer")
    page.focus("#events")
    page.keyboard.press("Home")
    page.wait_for_function("document.body.dataset.at === '1'")
    page.keyboard.press("ArrowDown")
    page.wait_for_function("document.body.dataset.at === '2'")
    assert page.get_attribute("#ev-2", "aria-selected") == "true"
    assert page.get_attribute("#ev-1", "aria-selected") == "false"
    page.keyboard.press("End")
    page.wait_for_function(f"document.body.dataset.at === '{len(log)}'")


@pytest.mark.parametrize("ruleset", ["balloon_cup", "hanabi"])
def test_the_viewer_has_no_serious_or_critical_accessibility_violation(page, live_service, ruleset):
    assert AXE.is_file(), f"{AXE} is missing: `make test` installs it (npm ci --prefix tests/browser/axe)"
    game, _log = _finished(live_service, ruleset, "axe", 7)
    _open(page, f"{live_service.url}/games/{game['game_id']}/viewer")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    bad = [(v["id"], v["impact"], v["help"], [n["target"] for n in v["nodes"]][:5]) for v in result["violations"]
           if v["impact"] in ("serious", "critical")]
    assert bad == []


def test_a_running_game_names_a_card_once_public_and_never_one_still_hidden(page, live_service):
    service = live_service.service
    game = service.create_game("balloon_cup", seats=2, seed="named in the viewer")
    play_service(service, game, random.Random(6), moves=8)
    gid, full = game["game_id"], service.export(game["game_id"])
    _open(page, f"{live_service.url}/games/{gid}/viewer#token={game['tokens'][0]}")
    face_up = {c["name"] for z in service.view(gid, game["tokens"][0])["view"]["zones"].values() for c in z.get("components") or ()}
    theirs = [e for e in full if e["kind"] == "move" and e["body"]["move"] == "place" and e["body"]["seat"] == 1]
    laid = [e for e in theirs if e["body"]["args"]["card"] in face_up]
    assert laid
    for e in laid:  # seat 1's card, chosen from the hand seat 0 cannot see, lies face up: named
        assert f"Seat 1 places {e['body']['args']['card']} on " in page.inner_text(f"#ev-{e['version']}")
    e = laid[-1]
    page.fill("#jump", str(e["version"]))
    page.dispatch_event("#jump", "change")
    page.wait_for_function(f"document.body.dataset.at === '{e['version']}'")
    assert f"{e['body']['args']['card']} (shown as hand[1]@" in page.inner_text("#event-body")  # and the slot it was
    assert page.inner_text("#event-text").startswith(f"Seat 1 places {e['body']['args']['card']} on ")
    # the cards in seat 1's hand now, which seat 0 has never seen: in no sentence and no detail
    hidden = [c["name"] for c in service.view(gid, game["tokens"][1])["view"]["zones"]["hand[1]"]["components"]]
    assert not any(e["kind"] == "show" for e in full)  # (no hand was shown in this game)
    page_text = " ".join(page.locator("#events li").all_inner_texts()) + page.inner_text("#event-body")
    assert hidden and not any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", page_text) for n in hidden)
    _shot(page, "balloon_cup-running-seat0")


def _shot(page, name: str) -> None:
    """The picture a referee reads, compared as `test_viewer_screenshots` compares its own."""
    from test_viewer_screenshots import _compare

    _compare(page, name)
