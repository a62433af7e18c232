"""`ludex play --plain` shows the other seats' moves as the service shows them to the player's
seat: a sealed choice as "chose (sealed)" until its round is revealed (docs/examples)."""

from __future__ import annotations

import re
from pathlib import Path

from cli_helpers import ludex

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "rock_paper_scissors.ludex"


def test_plain_play_never_names_a_sealed_choice_before_the_reveal():
    # seat 1 plays "rock" every round (answer 0); seat 0 is the random opponent
    done = ludex("play", str(EXAMPLE), "--seat", "1", "--seed", "4", "--plain", input="0\n" * 20)
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    sealed = [ln for ln in lines if ln.startswith("seat 0: chose (sealed)")]
    revealed = [ln for ln in lines if re.match(r"seat 0: play \{\"s\": \"(rock|paper|scissors)\"\}", ln)]
    assert sealed and revealed
    for i, ln in enumerate(lines):  # a sealed line of seat 0 never carries its shape
        if ln.startswith("seat 0: chose"):
            assert ln == "seat 0: chose (sealed) {}"
    assert "game over" in done.output
