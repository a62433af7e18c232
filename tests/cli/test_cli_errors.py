"""Bad input to the command line is one line of error with a hint and exit status 2, never
a traceback; every option documents itself; diagnostics point at the real mistake."""

from __future__ import annotations

import socket

import pytest
import typer
from cli_helpers import TOY, ludex, ludex_process

from api.app.inputs import TYPE_RULE
from dsl import check, check_text
from dsl.loader import bundled_rulesets
from ludex import cli as ludex_cli

# The hint lists whatever is bundled, so the expected text follows the rulesets folder.
BUNDLED = ", ".join(r.name for r in bundled_rulesets())

BAD_INPUT = [
    (["simulate", "balloon_cup", "-o", "colour_limt=none"],
     "error: balloon_cup has no option 'colour_limt' (did you mean 'colour_limit'? options: colour_limit, three_for_one)"),
    (["simulate", "balloon_cup", "--seats", "3"], "error: balloon_cup is played by 2 seats, not 3 (use --seats 2)"),
    (["simulate", "hanabi", "--seats", "7"], "error: hanabi is played by 2 to 5 seats, not 7 (use --seats 2..5)"),
    (["play", "balloon_cup", "--seat", "5"], "error: there is no seat 5 in a 2-seat game (seats are 0 to 1)"),
    (["simulate", "balloon_cup", "-o", "colour_limit=abc"],
     'error: option colour_limit: \'abc\' is not a literal (write a number, true, false, none or "text")'),
    (["simulate", "balloon_cup", "-o", "colour_limit"], "error: --option takes K=V, got 'colour_limit' (options: colour_limit, three_for_one)"),
    (["simulate", "balloon_cup", "-o", 'colour_limit="x"'],
     f"error: option 'colour_limit' must be an integer or null, not \"x\" (a string) ({TYPE_RULE})"),
    # issue 23: the service's typing rule, on --option too
    (["simulate", "balloon_cup", "-o", "colour_limit=true"],
     f"error: option 'colour_limit' must be an integer or null, not true (a boolean) ({TYPE_RULE})"),
    (["simulate", "balloon_cup", "-o", "colour_limit=2.0"],
     f"error: option 'colour_limit' must be an integer or null, not 2.0 (a number with a fraction part) ({TYPE_RULE})"),
    (["simulate", "balloon_cup", "-o", "three_for_one=1"],
     f"error: option 'three_for_one' must be a boolean, not 1 (an integer) ({TYPE_RULE})"),
    (["simulate", "balloon_cup", "-o", "three_for_one=none"],
     f"error: option 'three_for_one' must be a boolean, not null ({TYPE_RULE})"),
    (["simulate", "hanabbi"], f"error: no ruleset named 'hanabbi' (did you mean 'hanabi'? bundled rulesets: {BUNDLED})"),
    (["check", "balloon_cup", "-v", "wnd"],
     "error: no variant named 'wnd' (did you mean 'wind'? variants: no_three_for_one, opponent_side_a, "
     "opponent_side_b, opponent_side_c, prevention, wind)"),
    (["graph", str(TOY), "-v", "x"], "error: no variant named 'x' (there are no variants)"),
    (["replay", "/no/such/log.jsonl"],
     "error: cannot read /no/such/log.jsonl: No such file or directory (give the path of a log written by `ludex export` or `--save`)"),
]


@pytest.mark.parametrize(("args", "line"), BAD_INPUT, ids=[" ".join(a) for a, _ in BAD_INPUT])
def test_bad_input_is_one_line_with_a_hint_and_exit_2(args, line):
    r = ludex(*args)
    assert r.exit_code == 2, r.output
    assert r.stderr == line + "\n"
    assert r.exception is None or isinstance(r.exception, SystemExit)


def _held_port() -> socket.socket:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    return s


@pytest.mark.parametrize("face", ["--http-port", "--grpc-port"])
def test_a_busy_port_is_one_line_not_a_traceback(tmp_path, face):
    with _held_port() as held:
        port = held.getsockname()[1]
        other = "--grpc-port" if face == "--http-port" else "--http-port"
        r = ludex_process("serve", face, str(port), other, "0", "--db", f"sqlite:///{tmp_path}/x.db")
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert f"cannot serve {'HTTP' if face == '--http-port' else 'gRPC'} on 127.0.0.1:{port}: Address already in use" in r.stderr
    assert f"choose another with {face}" in r.stderr


def test_version_and_completion():
    r = ludex("--version")
    assert r.exit_code == 0 and r.stdout.startswith("ludex 0.")
    assert "--install-completion" in ludex("--help").stdout


def _all_params():
    group = typer.main.get_command(ludex_cli.app)
    for name, cmd in group.commands.items():  # type: ignore[attr-defined]
        for p in cmd.params:
            yield name, p


def test_every_option_and_argument_has_help_text():
    missing = [f"{name} {p.name}" for name, p in _all_params() if not getattr(p, "help", None)]
    assert missing == []


@pytest.mark.parametrize("command", ["simulate", "check", "serve", "audit", "play"])
def test_help_does_not_show_flags_as_bool(command):
    r = ludex(command, "--help")
    assert r.exit_code == 0
    assert "<bool>" not in r.stdout


# ---- diagnostics ----

GAME = TOY / "game.ludex"


def test_a_missing_brace_is_one_error_where_the_block_opened():
    text = GAME.read_text(encoding="utf-8")
    broken = text.replace("      end game win 1 \"no ace\"\n    }\n", "      end game win 1 \"no ace\"\n")
    assert broken != text
    diags = check_text(broken, "toy.ludex")
    assert [(d.line, d.column, d.message) for d in diags] == [(24, 12, "syntax error: this '{' is never closed")]
    assert diags[0].snippet.splitlines()[0].strip() == "} else {"
    # braces inside strings and comments do not count
    assert check_text(text.replace('"the drawn card"', '"the { drawn card" # }}}')) == []


def test_errors_are_sorted_by_position():
    text = GAME.read_text(encoding="utf-8")
    text = text.replace("draw 1 from deck to shown", "draw 1 from decks to shown")
    text = text.replace('option aces: int = 1', 'option aces: int = "one"')
    diags = check_text(text, "toy.ludex")
    assert len(diags) >= 2
    assert [(d.line, d.column) for d in diags] == sorted((d.line, d.column) for d in diags)


def test_an_unknown_ruleset_or_variant_has_no_position_and_lists_the_names():
    d = check("baloon_cup")[0]
    assert (d.line, d.column) == (0, 0)
    assert str(d) == f"error: no ruleset named 'baloon_cup'\n  hint: did you mean 'balloon_cup'? bundled rulesets: {BUNDLED}"


@pytest.mark.parametrize(("url", "line"), [
    ("notaurl", "error: --db is not a database URL: Could not parse SQLAlchemy URL from given URL string "
                "(e.g. sqlite:///ludex.db or postgresql+psycopg://USER@HOST:5432/DATABASE)"),
    ("postgresql+psycopg://u:secret@127.0.0.1:1/x", "error: cannot open the store at "
     "postgresql+psycopg://u:***@127.0.0.1:1/x: connection failed: connection to server at \"127.0.0.1\", port 1 failed: "
     "Connection refused (is the database server running, and do the user and the database exist?)"),
    ("foo://x", "error: --db foo://x: there is no database driver 'foo' (Ludex stores games in SQLite "
                "(sqlite:///FILE) or PostgreSQL (postgresql+psycopg://...))"),
])
def test_a_bad_store_url_is_the_users_input_not_an_internal_error(url, line):
    """Issue 23: `serve --db` with a malformed or unreachable URL says what is wrong, exit 2,
    the password hidden."""
    r = ludex_process("serve", "--db", url, "--http-port", "0", "--grpc-port", "0")
    assert r.returncode == 2, r.stderr
    assert r.stderr == line + "\n"
