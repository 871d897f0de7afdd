"""``boardctl status|new|undo|another|choose|roll|play|games|export|accept|decline``:
talk to the running daemon."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

#: where `boardctl new --help` lists each game's options (built only when asked)
_GAME_OPTIONS = "(each game's options)"


class _NewHelp(argparse.RawDescriptionHelpFormatter):
    """Lists each game's options as the engines declare them, importing the
    engines only when the help is printed."""

    def add_text(self, text: str | None) -> None:
        super().add_text(_options_help() if text == _GAME_OPTIONS else text)


def _options_help() -> str:
    from boardctl.engines import GAMES, engine_class

    lines = ["options of each game (KEY=VALUE):"]
    for game in sorted(GAMES):
        lines.append(f"  {game}:")
        lines += [f"    {spec.usage()}" for spec in engine_class(game).option_specs()]
    return "\n".join(lines)


def register(subparsers: Any) -> None:
    def add(name: str, help_text: str, **more: Any) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = subparsers.add_parser(name, help=help_text, **more)
        p.add_argument(
            "--socket",
            help="control socket (default: [control] socket of /etc/boardctl/boardctl.toml)",
        )
        p.add_argument("--json", action="store_true", help="print the raw JSON answer")
        return p

    add("status", "what the board and the game are doing").set_defaults(handler=_status)
    p = add("new", "start a new game", epilog=_GAME_OPTIONS, formatter_class=_NewHelp)
    p.add_argument("game", nargs="?", help="the game (default: the board's own)")
    p.add_argument(
        "options",
        nargs="*",
        metavar="KEY=VALUE",
        help="game options, e.g. players=4; seats=hands,computer:3 says who plays each seat "
        "(hands, the computer at a level from 1 to 5, or remote:BOARD: the player at another "
        "board on the broker)",
    )
    p.set_defaults(handler=_new)
    add(
        "undo",
        "take the last action back (with the computer in the game: back to your last turn)",
    ).set_defaults(handler=_undo)
    add("another", "ask the computer for another move than the one it shows").set_defaults(
        handler=_another
    )
    p = add("choose", "pick an option while the board is choosing (see `boardctl status`)")
    p.add_argument("option", help="the option's text as status lists it, or its number")
    p.set_defaults(handler=_choose)
    p = add("roll", "give chance's outcome (a die thrown by hand), in the game's notation")
    p.add_argument("action", help="the outcome, e.g. d4")
    p.set_defaults(handler=_roll)
    p = add(
        "play",
        "tell a player's action the board cannot show (a pass, a route card shown), "
        "in the game's notation; any other legal action is played too and the board must follow",
    )
    p.add_argument("action", help="the action, e.g. pass or start:t2a/B4")
    p.set_defaults(handler=_play)
    p = add(
        "games",
        "the games played on this board; `games backup FILE` copies the game database "
        "(while the board plays), `games restore FILE` puts a copy back (boardctl stopped)",
    )
    p.add_argument("action", nargs="?", choices=("backup", "restore"), help="backup or restore")
    p.add_argument("file", nargs="?", help="the copy to write or to put back")
    p.add_argument(
        "--state-dir", help="the state folder (default: [storage] state_dir of the configuration)"
    )
    p.set_defaults(handler=_games)
    p = add("export", "print a game record (the latest finished game by default)")
    p.add_argument("id", nargs="?", type=int, help="the game's number from `boardctl games`")
    p.add_argument("-o", "--output", help="write the record to this file")
    p.set_defaults(handler=_export)
    p = add("accept", "play the game another board invites this one to (see `boardctl status`)")
    p.add_argument("board", nargs="?", help="the inviting board's id (needed when several invite)")
    p.set_defaults(handler=_accept)
    p = add("decline", "tell another board this one does not play the game it invites to")
    p.add_argument("board", help="the inviting board's id")
    p.set_defaults(handler=_decline)


def _send(args: argparse.Namespace, body: dict[str, Any]) -> dict[str, Any]:
    from boardctl.controller.control import ControlError, request

    path = args.socket
    if path is None:
        from boardctl import config

        path = config.load().control.socket
    reply = request(path, body)
    if not reply.get("ok"):
        raise ControlError(str(reply.get("error", "the controller refused")))
    return reply


def _print_status(reply: dict[str, Any]) -> None:
    from boardctl.controller.view import (
        Fault,
        fault_words,
        phase_words,
        take_off,
        tell_again,
        tell_it,
    )
    from boardctl.sim.screen import game_spec, player_label, player_name

    spec = game_spec(reply)
    print(f"board {reply.get('board')}: {phase_words(reply.get('phase'))}")
    if reply.get("fault"):
        print(f"fault: {reply['fault']}")
        kind = reply.get("fault_kind")
        if kind in {f.value for f in Fault}:
            print(fault_words(Fault(kind)))
    print(f"game {reply.get('game')} {json.dumps(reply.get('options'))}: {reply.get('status')}")
    if reply.get("to_move") is not None:
        print(f"{player_label(spec, reply['to_move'])} to {reply.get('task', 'act')}")
    if reply.get("winner") is not None:
        print(f"winner: {player_label(spec, reply['winner'])} ({reply.get('reason')})")
    if reply.get("scores") is not None:
        print(
            "scores: "
            + "  ".join(f"{player_name(spec, n)} {s}" for n, s in enumerate(reply["scores"]))
        )
    if reply.get("actor") == "chance":
        outcomes = " ".join(reply.get("outcomes", []))
        how = {
            "operator": "boardctl roll OUTCOME",
            "button": "drawn at a press of the choose button",
        }.get(reply.get("chance", ""), "drawn")
        print(f"chance acts ({how}): {outcomes}")
    if reply.get("told"):
        print("an action the board cannot show (a pass, a card): boardctl play ACTION")
    print("moves: " + (" ".join(reply.get("moves", [])) or "none"))
    if reply.get("seats"):
        print("seats: " + ", ".join(reply["seats"]))
    computer = reply.get("computer")
    if computer:
        who = f"the computer ({player_name(spec, computer['seat'])}, level {computer['level']})"
        if computer["doing"] == "ready":
            print(
                f"{who} plays {' then '.join(computer['moves'])}: make it on the board "
                "(boardctl another: another move)"
            )
        elif computer["doing"] == "thinking":
            print(f"{who} is thinking")
        else:
            print(f"{who} failed: {computer.get('error')}")
    for line in remote_lines(reply):
        print(line)
    choices = reply.get("choices") or []
    for n, text in enumerate(choices, start=1):
        picked = " (picked)" if reply.get("cursor") == n - 1 else ""
        print(f"choice {n}: {text}{picked}")
    if choices:
        print("choose with: boardctl choose OPTION (its text or number)")
    if reply.get("undone_on_board"):
        print(take_off(reply["undone_on_board"]))
    if reply.get("told_undone"):
        print(tell_again(reply["told_undone"]))
    if reply.get("to_tell"):
        print(tell_it(reply["to_tell"]).replace("play ACTION", "boardctl play ACTION"))
    if reply.get("why"):
        print(f"why: {reply['why']}")
    confirm = reply.get("confirm")
    if isinstance(confirm, dict):
        print(f"asking: {confirm.get('words')}")
    if reply.get("offending"):
        print(f"remove: {' '.join(reply['offending'])}")
    if reply.get("restore"):
        print(f"restore: {' '.join(f'{k}={v}' for k, v in reply['restore'].items())}")
    broker = reply.get("broker")
    if isinstance(broker, dict):
        print(broker_text(broker))


def remote_lines(reply: dict[str, Any]) -> list[str]:
    """What ``status`` says of remote play: the other board's turn, the game
    with it, the invitations."""
    from boardctl.sim.screen import remote_says

    lines = remote_says(reply)
    play = reply.get("remote_play")
    if not isinstance(play, dict):
        return lines
    game = play.get("game")
    if isinstance(game, dict):
        if game.get("left"):
            state = "has left this game (declined, or began another)"
        elif game.get("joined"):
            state = f"plays it: {game.get('acknowledged')} of {game.get('seq')} moves acknowledged"
        else:
            state = "has not joined yet (boardctl accept there)"
        lines.append(
            f"game {game.get('number')} with {game.get('board')}: {game.get('board')} {state}"
        )
    for invitation in play.get("invitations", []):
        lines.append(
            f"{invitation['board']} invites this board to {invitation['game']} "
            f"(seats {','.join(invitation['seats'])}): boardctl accept {invitation['board']}"
        )
    return lines


def broker_text(broker: dict[str, Any]) -> str:
    """Whether the broker is reached, in a line: ``broker mqtt://hub:1883: reached as
    table-3 since ...`` or ``... not reached: WHY; trying again at ...``."""
    where = f"broker {broker.get('broker')}"
    if broker.get("reached"):
        anonymous = "" if broker.get("commands") else " (anonymous: no commands taken)"
        return (
            f"{where}: reached as {broker.get('board_id')} since {broker.get('since')}{anonymous}"
        )
    text = f"{where}: not reached"
    if broker.get("error"):
        text += f": {broker['error']}"
    if broker.get("next_try"):
        text += f"; trying again at {broker['next_try']}"
    return text


def _status(args: argparse.Namespace) -> int:
    reply = _send(args, {"cmd": "status"})
    print(json.dumps(reply, indent=2)) if args.json else _print_status(reply)
    sound = reply.get("sound")
    if not args.json and isinstance(sound, dict) and sound.get("fault"):
        print(f"sound: {sound['fault']}")  # the board plays on; `boardctl sound` says more
    if not args.json and reply.get("version"):
        # the daemon's: after an update not yet restarted, it differs from `boardctl --version`
        print(f"running boardctl {reply['version']}")
    return 0


def _option_value(text: str) -> Any:
    from boardctl.textfiles import parse_json

    try:
        return parse_json(text)  # bounded: thousands of [ are text, not a crash
    except ValueError:
        return text


def _new(args: argparse.Namespace) -> int:
    from boardctl.errors import BadOptions

    options: dict[str, Any] = {}
    seats: str | None = None
    game, items = args.game, list(args.options)
    if game is not None and "=" in game:  # `boardctl new players=3`: the board's own game
        game, items = None, [game, *items]
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise BadOptions(f"option {item!r} must be written KEY=VALUE, e.g. players=4")
        if key == "seats":
            seats = value
        else:
            options[key] = _option_value(value)
    body: dict[str, Any] = {"cmd": "new", "game": game}
    if options:
        body["options"] = options
    if seats is not None:
        body["seats"] = seats
    reply = _send(args, body)
    print(json.dumps(reply, indent=2)) if args.json else _print_status(reply)
    return 0


def _undo(args: argparse.Namespace) -> int:
    reply = _send(args, {"cmd": "undo"})
    print(json.dumps(reply, indent=2) if args.json else f"took back {reply['undone']}")
    return 0


def _another(args: argparse.Namespace) -> int:
    reply = _send(args, {"cmd": "another"})
    print(
        json.dumps(reply, indent=2)
        if args.json
        else f"the computer thinks again, instead of {reply['instead_of']}"
    )
    return 0


def _choose(args: argparse.Namespace) -> int:
    reply = _send(args, {"cmd": "choose", "option": args.option})
    print(json.dumps(reply, indent=2) if args.json else f"chose {reply['chosen']}")
    return 0


def _roll(args: argparse.Namespace) -> int:
    reply = _send(args, {"cmd": "chance", "action": args.action})
    print(json.dumps(reply, indent=2) if args.json else f"played {reply['played']}")
    return 0


def _play(args: argparse.Namespace) -> int:
    reply = _send(args, {"cmd": "play", "action": args.action})
    print(json.dumps(reply, indent=2) if args.json else f"played {reply['played']}")
    return 0


def _games(args: argparse.Namespace) -> int:
    if args.action is not None:
        from boardctl.cli.care_cmds import backup_or_restore

        return backup_or_restore(args)
    reply = _send(args, {"cmd": "games"})
    if args.json:
        print(json.dumps(reply["games"], indent=2))
        return 0
    from boardctl.sim.screen import game_spec, player_name

    for g in reply["games"]:
        started = g["started"] or "date unsure"  # before the clock was set
        moves = f"{g['moves']} move{'' if g['moves'] == 1 else 's'}"
        line = f"{g['id']:>4}  {g['game']:<10} {g['status']:<9} {started:<20}  {moves}"
        if g["status"] == "finished":
            winner = g.get("winner")
            won = "a draw" if winner is None else f"{player_name(game_spec(g), winner)} won"
            line += f", {won}"
        print(line)
    return 0


def _export(args: argparse.Namespace) -> int:
    reply = _send(args, {"cmd": "export", "id": args.id})
    text = json.dumps(reply["record"], indent=2) + "\n"
    if args.output:
        from boardctl.errors import RecordError

        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as exc:
            raise RecordError(f"{args.output}: cannot write the record: {exc.strerror}") from exc
    else:
        sys.stdout.write(text)
    return 0


def _accept(args: argparse.Namespace) -> int:
    body: dict[str, Any] = {"cmd": "accept"}
    if args.board:
        body["board"] = args.board
    reply = _send(args, body)
    print(json.dumps(reply, indent=2)) if args.json else _print_status(reply)
    return 0


def _decline(args: argparse.Namespace) -> int:
    reply = _send(args, {"cmd": "decline", "board": args.board})
    print(json.dumps(reply, indent=2) if args.json else f"declined {reply['declined']}'s game")
    return 0
