"""``boardctl rules``: replay, draw and inspect game records."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from boardctl.message import M_


def register(sub: Any) -> None:
    rules = sub.add_parser("rules", help=M_("replay, draw and inspect game records"))
    rsub = rules.add_subparsers(title=M_("rules commands"), metavar="ACTION", required=True)

    replay = rsub.add_parser(
        "replay", help=M_("apply every move of a record and report the result")
    )
    replay.add_argument("file", help=M_("a game record (JSON)"))
    replay.add_argument("--json", action="store_true", help=M_("print one JSON object"))
    replay.set_defaults(handler=_replay)

    show = rsub.add_parser("show", help=M_("draw the board of a record in the terminal"))
    show.add_argument("file", help=M_("a game record (JSON)"))
    show.add_argument(
        "--at", type=int, metavar="N", help=M_("after the first N moves (default: all)")
    )
    show.set_defaults(handler=_show)

    moves = rsub.add_parser("moves", help=M_("list the legal actions at the end of a record"))
    moves.add_argument("file", help=M_("a game record (JSON)"))
    moves.set_defaults(handler=_moves)

    think = rsub.add_parser(
        "think",
        help=M_("the move the computer would play at the end of a record"),
        description=M_(
            "Print the turn the computer would play in the last position of a record "
            "(or after --at N moves), as the daemon would: the same record, level and seed always "
            "give the same move. With --check, think again every turn the computer played in the "
            "record (its plans) and say whether each is what it played."
        ),
    )
    think.add_argument("file", help=M_("a game record (JSON)"))
    think.add_argument(
        "--level", type=int, metavar="N", help=M_("1 to 5 (default: the record's, else 3)")
    )
    think.add_argument("--seed", type=int, metavar="K", help=M_("default: the record's, else 0"))
    think.add_argument(
        "--seconds",
        type=float,
        metavar="S",
        help=M_("think at most this long: the best move found by then (then not repeatable)"),
    )
    think.add_argument("--at", type=int, metavar="N", help=M_("after the first N moves"))
    think.add_argument(
        "--check", action="store_true", help=M_("think again each turn the computer played")
    )
    think.add_argument("--json", action="store_true", help=M_("print one JSON object"))
    think.set_defaults(handler=_think)


def _replay(args: argparse.Namespace) -> int:
    from boardctl.engines import ReplayError
    from boardctl.errors import BoardctlError
    from boardctl.records import load

    try:
        record = load(args.file)
        match = record.replay()
    except ReplayError as exc:
        summary = exc.match.summary()
        summary["error"] = {"move_number": exc.number, "move": exc.move, "reason": exc.reason}
        _emit(args, summary, f"{args.file}: {exc}")
        return 2
    except BoardctlError as exc:
        reason = _in_file(args.file, exc)
        _emit(args, {"error": {"file": args.file, "reason": reason}}, reason)
        return 2
    summary = match.summary()
    if args.json:
        print(json.dumps(summary))
    else:
        print(_describe(summary))
    return 0


def _in_file(path: str, exc: Exception) -> str:
    """The error's message, starting with the file it is about."""
    text = str(exc)
    return text if text.startswith(path) else f"{path}: {text}"


def _emit(args: argparse.Namespace, data: dict[str, Any], message: str) -> None:
    if args.json:
        print(json.dumps(data))
    print(f"boardctl: {message}", file=sys.stderr)


def _describe(summary: dict[str, Any]) -> str:
    from boardctl.sim.screen import game_spec, player_label, player_name

    spec = game_spec(summary)
    lines = [f"{summary['game']}: {summary['moves_applied']} moves applied"]
    if summary["status"] == "won":
        lines.append(f"won by {player_label(spec, summary['winner'])} ({summary['reason']})")
    elif summary["status"] == "draw":
        lines.append(f"drawn ({summary['reason']})")
    else:
        lines.append(f"{player_label(spec, summary['to_move'])} to act: {summary['expects']}")
    if summary.get("scores") is not None:
        lines.append(
            "scores: "
            + ", ".join(f"{player_name(spec, n)} {s}" for n, s in enumerate(summary["scores"]))
        )
    return "\n".join(lines)


def _load_match(path: str, at: int | None = None) -> Any:
    from boardctl.engines import Match
    from boardctl.errors import BoardctlError, RecordError
    from boardctl.records import load

    record = load(path)
    moves = record.moves
    if at is not None:
        if not 0 <= at <= len(moves):
            raise RecordError(
                f"{path}: --at {at} is out of range: the record has {len(moves)} moves"
            )
        moves = moves[:at]
    try:
        return Match.from_moves(record.engine(), moves)
    except BoardctlError as exc:
        # the same "FILE: move N ..." as `rules replay`
        raise RecordError(_in_file(path, exc)) from None


def _show(args: argparse.Namespace) -> int:
    match = _load_match(args.file, args.at)
    print(match.engine.render(match.state))
    summary = match.summary()
    print(_describe(summary))
    return 0


def _moves(args: argparse.Namespace) -> int:
    match = _load_match(args.file)
    engine = match.engine
    actions = [engine.format_action(a) for a in match.legal_actions()]
    for text in actions:
        print(text)
    if not actions:
        print(f"no legal action: the game is {match.outcome().status.value}", file=sys.stderr)
    return 0


def _think(args: argparse.Namespace) -> int:
    import time

    from boardctl.daemon.thinking import rethink, turn_at
    from boardctl.errors import BoardctlError, RecordError
    from boardctl.records import load
    from boardctl.seats import DEFAULT_LEVEL, LEVELS

    if args.check:
        try:
            turns = rethink(load(args.file))
        except BoardctlError as exc:
            raise RecordError(_in_file(args.file, exc)) from None
        for t in turns:
            said = "as played" if t.same else f"played {' '.join(t.recorded)}"
            if not args.json:
                print(f"move {t.ply + 1} (player {t.seat + 1}): {' '.join(t.thought)} {said}")
        if args.json:
            print(
                json.dumps(
                    [
                        {
                            "move": t.ply + 1,
                            "seat": t.seat,
                            "played": list(t.recorded),
                            "thought": list(t.thought),
                        }
                        for t in turns
                    ]
                )
            )
        if not turns:
            print(f"{args.file}: the computer played no turn in this record", file=sys.stderr)
        return 0 if all(t.same for t in turns) else 1
    if args.level is not None and args.level not in LEVELS:
        raise RecordError(f"--level {args.level}: the levels are {LEVELS[0]} to {LEVELS[-1]}")
    if args.seconds is not None and not 0 < args.seconds <= 3600:
        raise RecordError(f"--seconds {args.seconds}: give a time from 0 to 3600 seconds")
    match = _load_match(args.file, args.at)
    record = load(args.file)
    engine, state = match.engine, match.state
    seat = engine.actor(state)
    if not isinstance(seat, int):
        what = "the game is over" if match.outcome().over else "chance acts, not a player"
        raise RecordError(f"{args.file}: the computer has no move here: {what}")
    chosen = record.seats.computer(seat)
    level = args.level or (chosen.level if chosen is not None else DEFAULT_LEVEL)
    seed = args.seed if args.seed is not None else (chosen.seed if chosen and chosen.seed else 0)
    start = time.monotonic()
    deadline = None if args.seconds is None else start + args.seconds
    turn = turn_at(
        engine,
        state,
        level=level,
        seed=seed,
        ply=len(match.actions),
        stop=None if deadline is None else lambda: time.monotonic() >= deadline,
    )
    seconds = time.monotonic() - start
    if args.json:
        print(
            json.dumps(
                {
                    "seat": seat,
                    "level": level,
                    "seed": seed,
                    "ply": len(match.actions),
                    "actions": list(turn),
                    "seconds": round(seconds, 3),
                }
            )
        )
    else:
        print(" ".join(turn))
    return 0
