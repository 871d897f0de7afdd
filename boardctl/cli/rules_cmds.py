"""``boardctl rules``: replay, draw and inspect game records."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(sub: Any) -> None:
    rules = sub.add_parser("rules", help="replay, draw and inspect game records")
    rsub = rules.add_subparsers(title="rules commands", metavar="ACTION", required=True)

    replay = rsub.add_parser("replay", help="apply every move of a record and report the result")
    replay.add_argument("file", help="a game record (JSON)")
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    replay.set_defaults(handler=_replay)

    show = rsub.add_parser("show", help="draw the board of a record in the terminal")
    show.add_argument("file", help="a game record (JSON)")
    show.add_argument("--at", type=int, metavar="N", help="after the first N moves (default: all)")
    show.set_defaults(handler=_show)

    moves = rsub.add_parser("moves", help="list the legal actions at the end of a record")
    moves.add_argument("file", help="a game record (JSON)")
    moves.set_defaults(handler=_moves)


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
    lines = [f"{summary['game']}: {summary['moves_applied']} moves applied"]
    if summary["status"] == "won":
        lines.append(f"won by player {summary['winner']} ({summary['reason']})")
    elif summary["status"] == "draw":
        lines.append(f"drawn ({summary['reason']})")
    else:
        lines.append(f"player {summary['to_move']} to act: {summary['expects']}")
    if summary.get("scores") is not None:
        lines.append("scores: " + ", ".join(str(s) for s in summary["scores"]))
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
