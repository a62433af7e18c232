"""Designer commands of the `ludex` CLI: check, graph, ir, simulate, play.

Thin faces over `dsl` (checking, the turn-structure graph) and `ludex.simulation`.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console

from dsl import Ruleset, RulesetError, UnknownRuleset, check, load_ruleset, parse_expr
from dsl.diagnostics import names_hint
from dsl.ir import to_data
from dsl.placeholders import count_by_kind, placeholders
from ludex import run_options
from ludex.cli import fail

RulesetArg = typer.Argument(..., help="bundled ruleset name, or your own folder (with game.ludex) or .ludex file")
VariantOpt = typer.Option([], "--variant", "-v", help="variant to apply (repeatable, applied in order)")
SeatsOpt = typer.Option(None, "--seats", help="number of seats (default: the fewest the rules allow)")
OptionOpt = typer.Option([], "--option", "-o", help="K=V rule option, V a literal: 2, true, none, \"text\" (repeatable)")


def parse_options(rs: Ruleset, pairs: list[str]) -> dict[str, Any]:
    """`K=V` pairs for the ruleset's options; V is a rule-language literal (`2`, `true`,
    `none`, `"text"`). Bad input stops the command (`fail`) naming the known options."""
    known = [o.name for o in rs.options]
    out: dict[str, Any] = {}
    for p in pairs:
        if "=" not in p:
            fail(f"--option takes K=V, got {p!r}", f"options: {', '.join(known) or 'none'}")
        k, v = (x.strip() for x in p.split("=", 1))
        if k not in known:
            fail(f"{rs.name} has no option {k!r}", names_hint(k, known, "options"))
        try:
            node = parse_expr(v, f"--option {k}")
        except RulesetError:
            node = None
        if node is None or node.op != "lit":
            out[k] = _fraction(v)
            if out[k] is None:
                fail(f"option {k}: {v!r} is not a literal", 'write a number, true, false, none or "text"')
        else:
            out[k] = node.args[0]
    _typed_options(rs, out)
    return out


def _fraction(text: str) -> float | None:
    """`text` as a number with a fraction part (`2.0`), which the typing rule then refuses by
    name, or None."""
    try:
        return float(text)
    except ValueError:
        return None


def _typed_options(rs: Ruleset, options: dict[str, Any]) -> None:
    """The service's typing rule (api/app/inputs.py) on `--option` values: `true` is not the
    number 1, `2.0` is not an integer, `none` only for an optional option."""
    from api.app.errors import InvalidRequest
    from api.app.inputs import check_options

    try:
        check_options(rs, options)
    except InvalidRequest as exc:
        fail(exc.message, exc.reason or "")


def seat_count(rs: Ruleset, seats: int | None) -> int:
    """`seats`, or the fewest the rules allow; stops the command when out of range."""
    low, high = rs.seats
    if seats is None:
        return low
    if not low <= seats <= high:
        allowed = f"{low}" if low == high else f"{low} to {high}"
        fail(f"{rs.name} is played by {allowed} seats, not {seats}", f"use --seats {low}" + ("" if low == high else f"..{high}"))
    return seats


def new_game(rs: Ruleset, seats: int, options: dict[str, Any], seed: Any) -> Any:
    """`Game.new`, with the rules' refusal of an option value as a command error."""
    from runtime import Game

    try:
        return Game.new(rs, seats, options, seed=seed)
    except (ValueError, TypeError) as exc:
        fail(f"the rules refuse these settings: {exc}")


def register(app: typer.Typer) -> None:
    @app.command("check")
    def check_cmd(
        ruleset: str = RulesetArg,
        variant: list[str] = VariantOpt,
        as_json: bool = typer.Option(False, "--json", help="print diagnostics as JSON for editors"),
        all_variants: bool = typer.Option(False, "--all-variants", help="also check each variant of the ruleset alone"),
        list_placeholders: bool = typer.Option(False, "--placeholders", help="also list every placeholder with file:line"),
        fix: bool = typer.Option(False, "--fix", help="apply the hints a machine can apply, print what changed, check again"),
    ) -> None:
        """Check a ruleset (and variants): exit 0 when clean, 1 with diagnostics.

        A clean ruleset with placeholders (docs/language.md, "Placeholders") gets a note with
        their count; the note is not an error.
        """
        combos = [list(variant)]
        if all_variants:
            combos += [[v] for v in variant_names(ruleset)]
        if fix:
            from ludex.fixer import apply_fixes

            for line in apply_fixes([d for combo in combos for d in check(ruleset, combo)]):
                print(line)
        diags: list = []
        clean = []
        for combo in combos:
            found = check(ruleset, combo)
            if any(not d.line for d in found):  # an unknown ruleset or variant name
                fail(found[0].message, found[0].hint)
            # the base's findings come back with every variant: report each once
            diags += [d for d in found if d not in diags]
            clean.append(not any(d.severity == "error" for d in found))
        errors = any(d.severity == "error" for d in diags)
        marked = [] if errors else placeholders(load_ruleset(ruleset, variant))
        if as_json:
            out: dict[str, Any] = {"ok": not errors, "diagnostics": [d.to_dict() for d in diags]}
            if all_variants:
                out["checked"] = combos
            if marked:
                out["placeholders"] = {"count": len(marked), "by_kind": count_by_kind(marked)}
                if list_placeholders:
                    out["placeholders"]["items"] = [p.to_dict() for p in marked]
            print(json.dumps(out, indent=2))
        else:
            for d in diags:
                print(d, file=sys.stderr)
            for combo, ok in zip(combos, clean):
                if ok:
                    print(f"{ruleset}{''.join(' +' + v for v in combo)}: ok")
            if marked:
                print(_placeholder_note(ruleset, marked))
                if list_placeholders:
                    for p in marked:
                        print(p)
        raise typer.Exit(1 if any(d.severity == "error" for d in diags) else 0)

    @app.command("placeholders")
    def placeholders_cmd(
        ruleset: str = RulesetArg,
        variant: list[str] = VariantOpt,
        as_json: bool = typer.Option(False, "--json", help="print the placeholders as JSON"),
    ) -> None:
        """List every placeholder (a declaration whose doc string starts with PLACEHOLDER) with file:line."""
        marked = placeholders(_load(ruleset, variant))
        if as_json:
            print(json.dumps({"count": len(marked), "by_kind": count_by_kind(marked), "items": [p.to_dict() for p in marked]}, indent=2))
            return
        for p in marked:
            print(p)
        print(_placeholder_note(ruleset, marked))

    @app.command("graph")
    def graph_cmd(
        ruleset: str = RulesetArg,
        variant: list[str] = VariantOpt,
        dot: bool = typer.Option(False, "--dot", help="Graphviz DOT instead of Mermaid"),
    ) -> None:
        """Print the turn structure (steps and the moves between them) as Mermaid or DOT."""
        from dsl.graph import turn_graph

        rs = _load(ruleset, variant)
        print(turn_graph(rs, dot=dot))

    @app.command("ir")
    def ir_cmd(ruleset: str = RulesetArg, variant: list[str] = VariantOpt) -> None:
        """Print the compiled IR as JSON, with its content hash."""
        rs = _load(ruleset, variant)
        print(json.dumps({"content_hash": rs.content_hash, "ir": to_data(rs.to_data())}, indent=1))

    @app.command("simulate", cls=run_options.RayCommand)
    def simulate_cmd(
        ruleset: str = RulesetArg,
        variant: list[str] = VariantOpt,
        seats: int = SeatsOpt,
        option: list[str] = OptionOpt,
        games: int = run_options.GamesOpt,
        seed: int = run_options.SeedOpt,
        max_plies: int = run_options.MaxPliesOpt,
        as_json: bool = typer.Option(False, "--json", help="print the statistics as JSON"),
        save: Optional[Path] = typer.Option(
            None, "--save", help="write each game's log to DIR/game-NNNN.jsonl (the `ludex export` format; replay and audit read it)"
        ),
        bot: str = run_options.BotOpt,
        seconds: float = run_options.SecondsOpt,
        rollout: Optional[str] = run_options.RolloutOpt,
        iterations: Optional[int] = run_options.IterationsOpt,
        plot: Optional[Path] = typer.Option(
            None, "--plot", help="draw win rates (95% intervals), game lengths, scores and the evaluation metrics to FILE.png"
        ),
        workers: Optional[int] = run_options.WorkersOpt,
        ray: Optional[str] = run_options.RayOpt,
        out: Optional[Path] = typer.Option(
            None, "--out", help="keep the run in DIR: run.json and one JSON line per game (seed, outcome, scores, length, "
                                "metrics, moves); `ludex replay DIR --game N` replays a game"
        ),
        resume: bool = typer.Option(False, "--resume", help="with --out: bring the run in DIR to --games games, keeping those played"),
    ) -> None:
        """Playouts with statistics: win rates by seat, first-seat advantage, balance, draws,
        decisiveness, lead changes, game length, branching, stalls, each with a 95% interval;
        on every core, or on Ray."""
        from ludex.simulate_command import run_simulate

        rs = _load(ruleset, variant)
        opts = parse_options(rs, option)
        seats = seat_count(rs, seats)
        new_game(rs, seats, opts, seed="check")  # the rules' own refusal, before any progress bar
        run_simulate(rs, seats, opts, games=games, seed=seed, max_plies=max_plies, as_json=as_json, save=save, bot=bot,
                     seconds=seconds, iterations=iterations, rollout=rollout, plot=plot, workers=workers, ray=ray,
                     out=out, resume=resume)

    @app.command("play")
    def play_cmd(
        ruleset: str = RulesetArg,
        variant: list[str] = VariantOpt,
        seat: int = typer.Option(0, "--seat", help="the seat you play (0 is the first)"),
        seats: int = SeatsOpt,
        option: list[str] = OptionOpt,
        seed: int = typer.Option(None, "--seed", help="fix the shuffle and the other seats' choices"),
        save: Optional[Path] = typer.Option(
            None, "--save", help="write the game's log to FILE when it ends (the `ludex export` format; replay and audit read it)"
        ),
        plain: bool = typer.Option(False, "--plain", help="the board as text and numbered moves instead of the full-screen UI "
                                                            "(also when not a terminal); type a number or the move as text"),
    ) -> None:
        """Play in the terminal against random seats, seeing only your seat's view: a full-screen
        UI (board, your moves as sentences grouped by name, a line to type a move, event log; q
        quits), or with --plain the board as text and numbered moves, each with the shortest text
        that types it. A move is typed as `name arg=value ...` (`place card=red-12 t=tile3 s=0`),
        every part shortened to a unique prefix (`pl c=red-12 t=tile3 s=0`); an ambiguous text
        names its candidates, an illegal one the rule's reason."""
        rs = _load(ruleset, variant)
        opts = parse_options(rs, option)
        seats = seat_count(rs, seats)
        if not 0 <= seat < seats:
            fail(f"there is no seat {seat} in a {seats}-seat game", f"seats are 0 to {seats - 1}")
        game_seed = str(seed if seed is not None else random.randrange(1 << 30))
        g = new_game(rs, seats, opts, seed=game_seed)
        from ludex.board import board_text
        from ludex.typed_moves import TypedMoveError, resolve
        from runtime import IllegalMove, Move  # lazily, as `new_game` imports the runtime
        from runtime.display import display_hints
        from runtime.replay import named_so_far

        readers = named_so_far(g, seat)  # the arguments this seat saw as slots, named once public
        named = readers.named[seat]

        rng = random.Random(seed)
        played: list[tuple[int, dict[str, Any]]] = []
        console = Console()
        if not plain and sys.stdin.isatty() and sys.stdout.isatty():
            from ludex.play_ui import PlayApp

            PlayApp(g, seat, lambda game, actor, moves: game.pick_at_random(actor, rng.choice(moves), rng),
                    lambda s, m: played.append((s, m))).run()
        while plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
            if g.terminal:
                break
            d = g.decision()
            if d.stuck:
                console.print("[red]no seat can move: the rules are stuck[/red]")
                break
            actor = d.seats[0]
            moves = g.legal_moves(actor)
            if actor != seat:
                m = g.pick_at_random(actor, rng.choice(moves), rng)
                played.append((actor, m.to_dict()))
                _show_moves(console, g, _applied(g, actor, m, readers), seat, named)
                continue
            _plain_turn(console, g, seat, moves)
            while True:  # until a move is played: a refused text is asked again, the board not redrawn
                text = typer.prompt("your move (its number, or name arg=value: prefixes do)", default="", show_default=False)
                try:
                    chosen = resolve(text, moves, lambda m: plain_move_text(g, seat, m))
                    if isinstance(chosen, Move):
                        chosen = _plain_pick(chosen)
                    _show_moves(console, g, _applied(g, seat, chosen, readers), seat, named)
                except TypedMoveError as exc:
                    console.print(f"not played: {exc.message}", style="red", markup=False, highlight=False, soft_wrap=True)
                    continue
                except IllegalMove as exc:
                    where = f" ({exc.rule}, {exc.source})" if exc.rule else ""
                    console.print(f"refused: {exc.reason}{where}", style="red", markup=False, highlight=False, soft_wrap=True)
                    continue
                played.append((seat, chosen.to_dict() if isinstance(chosen, Move) else chosen))
                break
        if g.terminal:
            from runtime.sentences import ending_sentence

            console.print(board_text(g.view(seat), width=console.width, hints=display_hints(rs)), end="",
                          markup=False, highlight=False)
            console.print(f"game over: {ending_sentence(rs, g.ending())}", markup=False, highlight=False, soft_wrap=True)
        if not g.terminal:
            console.print(f"left the game unfinished after {len(g.events)} events")
        if save is not None:
            from ludex.saved_games import game_log, write_log

            write_log(save, game_log(rs, seats, opts, game_seed, played))
            typer.echo(f"saved the game's log to {save} (ludex replay {save} --final; ludex audit {save})")


def _compact_view(v: dict) -> dict:
    """The view without empty zones, for the terminal."""
    zones = {k: z for k, z in v["zones"].items() if z.get("count")}
    return {**v, "zones": zones}


def _placeholder_note(ruleset: str, marked: list) -> str:
    kinds = ", ".join(f"{n} {k or 'unkinded'}" for k, n in count_by_kind(marked).items())
    return f"note: {ruleset} has {len(marked)} placeholder{'s' if len(marked) != 1 else ''} ({kinds}); `ludex placeholders {ruleset}` lists them"


def variant_names(ruleset: str) -> list[str]:
    """The variant names of a ruleset (bundled name, folder or file); [] when it has none."""
    from dsl.loader import resolve

    try:
        vdir = resolve(ruleset).parent / "variants"
    except UnknownRuleset as exc:
        fail(exc.diagnostics[0].message, exc.diagnostics[0].hint)
    return sorted(p.stem for p in vdir.glob("*.ludex")) if vdir.is_dir() else []


def _load(ruleset: str, variants: list[str]) -> Ruleset:
    """The compiled ruleset; an unknown name stops the command (exit 2) with the names that
    exist, diagnostics in the rule text are printed and exit 1."""
    try:
        return load_ruleset(ruleset, variants)
    except UnknownRuleset as exc:
        d = exc.diagnostics[0]
        fail(d.message, d.hint)
    except RulesetError as exc:
        for d in exc.diagnostics:
            print(d, file=sys.stderr)
        raise typer.Exit(1) from None


def _applied(g: Any, actor: int, move: Any, readers: Any) -> list[Any]:
    """Play `move` for `actor`; the events it made, with the slots the seat may now name noted
    in `readers` (`runtime.sentences.Readers`)."""
    events = g.apply(actor, move)
    readers.note(g, events)
    return events


def _plain_turn(console: Console, g: Any, seat: int, moves: list[Any]) -> None:
    """The board as text (`ludex.board`, drawn from the rules' display hints) and the seat's
    moves, numbered, as sentences, each followed by what to type for it
    (`ludex.typed_moves.typed_form`) in brackets: on the sentence's line when both fit the
    console's width, else on the next line under the sentence."""
    from ludex.board import board_text
    from ludex.typed_moves import typed_form
    from runtime.display import display_hints

    view = g.view(seat)
    console.print(board_text(view, width=console.width, hints=display_hints(g.ruleset)), end="", markup=False, highlight=False)
    for i, m in enumerate(moves):
        head, typed = f"  {i}: {plain_move_text(g, seat, m)}", f"[{typed_form(m, moves)}]"
        line = f"{head}  {typed}" if len(head) + 2 + len(typed) <= console.width else f"{head}\n{' ' * (len(str(i)) + 4)}{typed}"
        console.print(line, markup=False, highlight=False, soft_wrap=True)


def plain_move_text(g: Any, seat: int, move: Any) -> str:
    """A listed move as `--plain` numbers it: its sentence (`runtime.sentences`), a pick's offer as
    `pick N of a, b, c`."""
    from ludex.board import without_mover
    from runtime.picks import is_offer
    from runtime.sentences import move_sentence, value_text

    args = {k: (f"pick {v['pick']} of {value_text(v['of'])}" if is_offer(v) else v) for k, v in move.args.items()}
    return without_mover(move_sentence(g.ruleset, seat, move.name, args), seat)


def _show_moves(console: Console, g: Any, events: list[Any], seat: int,
                named: dict[int, dict[str, Any]] | None = None) -> None:
    """The moves among `events` as `seat` sees them, exactly as the service shows them to it
    (`Game.event_view`: hidden arguments as slot references, sealed choices as who chose), as
    sentences; an argument the move put face up is named (`named`)."""
    from runtime.sentences import name_public

    for e in events:
        shown = g.event_view(e, seat)
        if named and e.ply in named:
            shown = name_public(shown, named[e.ply], set(named[e.ply].values()))
        line = move_line(shown, g.ruleset)
        if line is not None:
            console.print(line, markup=False, highlight=False, soft_wrap=True)


def move_line(shown: dict[str, Any], rules: Any = None) -> str | None:
    """The `--plain` line of an event as a seat is shown it (`Game.event_view`, or the body the
    service renders for that seat): the move's sentence (`runtime.sentences`, `rules` the
    compiled ruleset), `Seat S chose (sealed)` for a choice sealed from this seat; None for
    other events."""
    from runtime.sentences import event_sentence, seat_text

    if shown.get("kind") not in ("move", "sealed"):
        return None
    if not shown.get("move"):
        return f"{seat_text(shown.get('seat')).capitalize()} chose (sealed)"
    return event_sentence(rules, {**shown, "kind": "move"})


def _plain_pick(move: Any) -> Any:
    """A listed move whose argument is a pick offer (runtime.picks) completed from the terminal:
    the candidates' numbers, separated by commas; other moves as they are."""
    from runtime import Move
    from runtime.picks import is_offer

    args = dict(move.args)
    for name, v in args.items():
        if is_offer(v):
            for i, c in enumerate(v["of"]):
                typer.echo(f"    {i}: {c}")
            text = typer.prompt(f"{name}: pick {v['pick']} (numbers, separated by commas)")
            numbers = [int(x) for x in text.replace(" ", "").split(",") if x.isdigit()]
            args[name] = [v["of"][i] for i in numbers if 0 <= i < len(v["of"])]
    return Move(move.name, args)

