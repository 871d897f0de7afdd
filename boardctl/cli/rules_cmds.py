"""``boardctl rules``: replay, draw and inspect game records."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from boardctl.cli.parser import operators_words
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
        _emit(args, summary, _in_file(args.file, exc))
        return 2
    except BoardctlError as exc:
        reason = _in_file(args.file, exc)
        _emit(args, {"error": {"file": args.file, "reason": reason}}, reason)
        return 2
    summary = match.summary()
    if args.json:
        print(json.dumps(summary))
    else:
        print(operators_words()(_describe(summary)))
    return 0


def _in_file(path: str, exc: Exception) -> str:
    """The error's message, starting with the file it is about."""
    from boardctl.message import said

    text = said(exc)
    return text if text.startswith(path) else M_("{file}: {fault}", file=path, fault=text)


def _emit(args: argparse.Namespace, data: dict[str, Any], message: str) -> None:
    if args.json:
        print(json.dumps(data))
    print(f"boardctl: {operators_words()(message)}", file=sys.stderr)


def _describe(summary: dict[str, Any]) -> str:
    from boardctl.message import Mn_, joined
    from boardctl.sim.screen import game_spec, player_label, player_name

    spec = game_spec(summary)
    lines = [
        Mn_(
            "{game}: {n} move applied",
            "{game}: {n} moves applied",
            summary["moves_applied"],
            game=summary["game"],
        )
    ]
    if summary["status"] == "won":
        lines.append(
            M_(
                "won by {player} ({reason})",
                player=player_label(spec, summary["winner"]),
                reason=summary["reason"],
            )
        )
    elif summary["status"] == "draw":
        lines.append(M_("drawn ({reason})", reason=summary["reason"]))
    else:
        lines.append(
            M_(
                "{player} to act: {task}",
                player=player_label(spec, summary["to_move"]),
                task=summary["expects"],
            )
        )
    if summary.get("scores") is not None:
        scores = [
            M_("{player} {score}", player=player_name(spec, n), score=s)
            for n, s in enumerate(summary["scores"])
        ]
        lines.append(M_("scores: {scores}", scores=joined(scores, ", ")))
    return joined(lines, "\n")


def _load_match(path: str, at: int | None = None) -> Any:
    from boardctl.engines import Match
    from boardctl.errors import BoardctlError, RecordError
    from boardctl.message import Mn_
    from boardctl.records import load

    record = load(path)
    moves = record.moves
    if at is not None:
        if not 0 <= at <= len(moves):
            raise RecordError(
                Mn_(
                    "{file}: --at {at} is out of range: the record has {n} move",
                    "{file}: --at {at} is out of range: the record has {n} moves",
                    len(moves),
                    file=path,
                    at=at,
                )
            )
        moves = moves[:at]
    try:
        return Match.from_moves(record.engine(), moves)
    except BoardctlError as exc:
        # the same "FILE: move N ..." as `rules replay`
        raise RecordError(_in_file(path, exc)) from None


def _show(args: argparse.Namespace) -> int:
    match = _load_match(args.file, args.at)
    words = operators_words()
    print(words(match.engine.render(match.state)))
    print(words(_describe(match.summary())))
    return 0


def _moves(args: argparse.Namespace) -> int:
    match = _load_match(args.file)
    engine = match.engine
    actions = [engine.format_action(a) for a in match.legal_actions()]
    for text in actions:
        print(text)
    if not actions:
        said = M_("no legal action: the game is over")
        print(operators_words()(said), file=sys.stderr)
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
        words = operators_words()
        for t in turns:
            if args.json:
                continue
            where = {"move": t.ply + 1, "player": t.seat + 1, "thought": " ".join(t.thought)}
            if t.same:
                line = M_("move {move} (player {player}): {thought} as played", **where)
            else:
                line = M_(
                    "move {move} (player {player}): {thought} played {played}",
                    **where,
                    played=" ".join(t.recorded),
                )
            print(words(line))
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
            said = M_("{file}: the computer played no turn in this record", file=args.file)
            print(words(said), file=sys.stderr)
        return 0 if all(t.same for t in turns) else 1
    if args.level is not None and args.level not in LEVELS:
        raise RecordError(
            M_(
                "--level {level}: the levels are {low} to {high}",
                level=args.level,
                low=LEVELS[0],
                high=LEVELS[-1],
            )
        )
    if args.seconds is not None and not 0 < args.seconds <= 3600:
        raise RecordError(
            M_("--seconds {seconds}: give a time from 0 to 3600 seconds", seconds=args.seconds)
        )
    match = _load_match(args.file, args.at)
    record = load(args.file)
    engine, state = match.engine, match.state
    seat = engine.actor(state)
    if not isinstance(seat, int):
        what = M_("the game is over") if match.outcome().over else M_("chance acts, not a player")
        raise RecordError(
            M_("{file}: the computer has no move here: {why}", file=args.file, why=what)
        )
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
