"""``boardctl status|new|undo|another|choose|roll|play|games|export|accept|decline``:
talk to the running daemon."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from boardctl.message import M_

#: where `boardctl new --help` lists each game's options (built only when asked)
_GAME_OPTIONS = "(each game's options)"


class _NewHelp(argparse.RawDescriptionHelpFormatter):
    """Lists each game's options as the engines declare them, importing the
    engines only when the help is printed."""

    def add_text(self, text: str | None) -> None:
        super().add_text(_options_help() if text == _GAME_OPTIONS else text)


def _options_help() -> str:
    from boardctl import i18n
    from boardctl.engines import GAMES, engine_class

    # in the operator's language (the terminal's, else the board's)
    with i18n.language(i18n.from_environment() or _board_language()):
        lines = [i18n._("options of each game (KEY=VALUE):")]
        for game in sorted(GAMES):
            lines.append(f"  {game}:")
            lines += [
                f"    {i18n.translate(spec.usage())}" for spec in engine_class(game).option_specs()
            ]
    return "\n".join(lines)


def register(subparsers: Any) -> None:
    def add(name: str, help_text: str, **more: Any) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = subparsers.add_parser(name, help=help_text, **more)
        p.add_argument(
            "--socket",
            help=M_("control socket (default: [control] socket of /etc/boardctl/boardctl.toml)"),
        )
        p.add_argument("--json", action="store_true", help=M_("print the raw JSON answer"))
        return p

    add("status", M_("what the board and the game are doing")).set_defaults(handler=_status)
    p = add("new", M_("start a new game"), epilog=_GAME_OPTIONS, formatter_class=_NewHelp)
    p.add_argument("game", nargs="?", help=M_("the game (default: the board's own)"))
    p.add_argument(
        "options",
        nargs="*",
        metavar="KEY=VALUE",
        help=M_(
            "game options, e.g. players=4; seats=hands,computer:3 says who plays each seat "
            "(hands, the computer at a level from 1 to 5, or remote:BOARD: the player at another "
            "board on the broker)"
        ),
    )
    p.set_defaults(handler=_new)
    add(
        "undo",
        M_("take the last action back (with the computer in the game: back to your last turn)"),
    ).set_defaults(handler=_undo)
    add("another", M_("ask the computer for another move than the one it shows")).set_defaults(
        handler=_another
    )
    p = add("choose", M_("pick an option while the board is choosing (see `boardctl status`)"))
    p.add_argument("option", help=M_("the option's text as status lists it, or its number"))
    p.set_defaults(handler=_choose)
    p = add("roll", M_("give chance's outcome (a die thrown by hand), in the game's notation"))
    p.add_argument("action", help=M_("the outcome, e.g. d4"))
    p.set_defaults(handler=_roll)
    p = add(
        "play",
        M_(
            "tell a player's action the board cannot show (a pass, a route card shown), "
            "in the game's notation; any other legal action is played too and the board must follow"
        ),
    )
    p.add_argument("action", help=M_("the action, e.g. pass or start:t2a/B4"))
    p.set_defaults(handler=_play)
    p = add(
        "games",
        M_(
            "the games played on this board; `games backup FILE` copies the game database "
            "(while the board plays), `games restore FILE` puts a copy back (boardctl stopped)"
        ),
    )
    p.add_argument("action", nargs="?", choices=("backup", "restore"), help=M_("backup or restore"))
    p.add_argument("file", nargs="?", help=M_("the copy to write or to put back"))
    p.add_argument(
        "--state-dir",
        help=M_("the state folder (default: [storage] state_dir of the configuration)"),
    )
    p.set_defaults(handler=_games)
    p = add("export", M_("print a game record (the latest finished game by default)"))
    p.add_argument("id", nargs="?", type=int, help=M_("the game's number from `boardctl games`"))
    p.add_argument("-o", "--output", help=M_("write the record to this file"))
    p.set_defaults(handler=_export)
    p = add("accept", M_("play the game another board invites this one to (see `boardctl status`)"))
    p.add_argument(
        "board", nargs="?", help=M_("the inviting board's id (needed when several invite)")
    )
    p.set_defaults(handler=_accept)
    p = add("decline", M_("tell another board this one does not play the game it invites to"))
    p.add_argument("board", help=M_("the inviting board's id"))
    p.set_defaults(handler=_decline)


def _send(args: argparse.Namespace, body: dict[str, Any]) -> dict[str, Any]:
    from boardctl.controller.control import ControlError, request

    path = args.socket
    if path is None:
        from boardctl import config

        path = config.load().control.socket
    if "language" not in body and not getattr(args, "json", False):
        from boardctl import i18n

        # the answer's words (a refusal, a reason) in the operator's language; JSON stays
        # English, and English is what an answer says unasked
        code = i18n.from_environment() or _board_language()
        if code != i18n.DEFAULT:
            body = {**body, "language": code}
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
    from boardctl.i18n import _, translate
    from boardctl.message import then_list
    from boardctl.sim.screen import game_spec, player_label, player_name

    spec = game_spec(reply)
    print(
        _(
            "board {board}: {phase}",
            board=str(reply.get("board")),
            phase=phase_words(reply.get("phase")),
        )
    )
    if reply.get("fault"):
        print(_("fault: {fault}", fault=reply["fault"]))
        kind = reply.get("fault_kind")
        if kind in {f.value for f in Fault}:
            print(translate(fault_words(Fault(kind))))
    print(
        f"{_('game')} {reply.get('game')} {json.dumps(reply.get('options'))}: {reply.get('status')}"
    )
    if reply.get("to_move") is not None:
        print(
            _(
                "{player} to {task}",
                player=player_label(spec, reply["to_move"]),
                task=reply.get("task", "act"),
            )
        )
    if reply.get("winner") is not None:
        print(
            _(
                "winner: {player} ({reason})",
                player=player_label(spec, reply["winner"]),
                reason=str(reply.get("reason")),
            )
        )
    if reply.get("scores") is not None:
        scores = "  ".join(
            f"{translate(player_name(spec, n))} {s}" for n, s in enumerate(reply["scores"])
        )
        print(_("scores: {scores}", scores=scores))
    if reply.get("actor") == "chance":
        outcomes = " ".join(reply.get("outcomes", []))
        how = {
            "operator": "boardctl roll OUTCOME",
            "button": _("drawn at a press of the choose button"),
        }.get(reply.get("chance", ""), _("drawn"))
        print(_("chance acts ({how}): {outcomes}", how=how, outcomes=outcomes))
    if reply.get("told"):
        print(_("an action the board cannot show (a pass, a card): boardctl play ACTION"))
    print(_("moves: {moves}", moves=" ".join(reply.get("moves", [])) or _("none")))
    if reply.get("seats"):
        print(_("seats: {seats}", seats=", ".join(reply["seats"])))
    computer = reply.get("computer")
    if computer:
        who = _(
            "the computer ({player}, level {level})",
            player=player_name(spec, computer["seat"]),
            level=computer["level"],
        )
        if computer["doing"] == "ready":
            print(
                _(
                    "{who} plays {moves}: make it on the board (boardctl another: another move)",
                    who=who,
                    moves=then_list(computer["moves"]),
                )
            )
        elif computer["doing"] == "thinking":
            print(_("{who} is thinking", who=who))
        else:
            print(_("{who} failed: {error}", who=who, error=str(computer.get("error"))))
    for line in remote_lines(reply):
        print(line)
    choices = reply.get("choices") or []
    for n, text in enumerate(choices, start=1):
        if reply.get("cursor") == n - 1:
            print(_("choice {number}: {text} (picked)", number=n, text=text))
        else:
            print(_("choice {number}: {text}", number=n, text=text))
    if choices:
        print(_("choose with: boardctl choose OPTION (its text or number)"))
    if reply.get("undone_on_board"):
        print(translate(take_off(reply["undone_on_board"])))
    if reply.get("told_undone"):
        print(translate(tell_again(reply["told_undone"])))
    if reply.get("to_tell"):
        print(translate(tell_it(reply["to_tell"])).replace("play ACTION", "boardctl play ACTION"))
    if reply.get("why"):
        print(_("why: {why}", why=reply["why"]))
    confirm = reply.get("confirm")
    if isinstance(confirm, dict):
        print(_("asking: {words}", words=str(confirm.get("words"))))
    if reply.get("offending"):
        print(_("remove: {sites}", sites=" ".join(reply["offending"])))
    if reply.get("restore"):
        restore = " ".join(f"{k}={v}" for k, v in reply["restore"].items())
        print(_("restore: {pieces}", pieces=restore))
    broker = reply.get("broker")
    if isinstance(broker, dict):
        print(broker_text(broker))


def remote_lines(reply: dict[str, Any]) -> list[str]:
    """What ``status`` says of remote play: the other board's turn, the game
    with it, the invitations."""
    from boardctl.i18n import _
    from boardctl.sim.screen import remote_says

    lines = remote_says(reply)
    play = reply.get("remote_play")
    if not isinstance(play, dict):
        return lines
    game = play.get("game")
    if isinstance(game, dict):
        board = str(game.get("board"))
        if game.get("left"):
            state = _("{board} has left this game (declined, or began another)", board=board)
        elif game.get("joined"):
            state = _(
                "{board} plays it: {acknowledged} of {moves} moves acknowledged",
                board=board,
                acknowledged=game.get("acknowledged"),
                moves=game.get("seq"),
            )
        else:
            state = _("{board} has not joined yet (boardctl accept there)", board=board)
        lines.append(
            _(
                "game {number} with {board}: {state}",
                number=game.get("number"),
                board=board,
                state=state,
            )
        )
    for invitation in play.get("invitations", []):
        lines.append(
            _(
                "{board} invites this board to {game} (seats {seats}): boardctl accept {board}",
                board=invitation["board"],
                game=invitation["game"],
                seats=",".join(invitation["seats"]),
            )
        )
    return lines


def broker_text(broker: dict[str, Any]) -> str:
    """Whether the broker is reached, in a line: ``broker mqtt://hub:1883: reached as
    table-3 since ...`` or ``... not reached: WHY; trying again at ...``."""
    from boardctl.i18n import _

    where = {"broker": str(broker.get("broker")), "board": str(broker.get("board_id"))}
    if broker.get("reached"):
        since = str(broker.get("since"))
        if broker.get("commands"):
            return _("broker {broker}: reached as {board} since {since}", **where, since=since)
        return _(
            "broker {broker}: reached as {board} since {since} (anonymous: no commands taken)",
            **where,
            since=since,
        )
    text = _("broker {broker}: not reached", **where)
    if broker.get("error"):
        text += f": {broker['error']}"
    if broker.get("next_try"):
        text += _("; trying again at {time}", time=str(broker["next_try"]))
    return text


def labelled_lines(rows: list[tuple[str, str, list[str]]]) -> list[str]:
    """Rows of (label, value, notes) as lines: the values in one column after
    the longest label, each note on a line of its own under its value
    (`boardctl settings`, `boardctl sound`)."""
    width = max(len(label) for label, _value, _notes in rows) + 1
    lines = []
    for label, value, notes in rows:
        lines.append(f"{label:<{width}}{value}")
        lines += [" " * width + note for note in notes]
    return lines


def _status(args: argparse.Namespace) -> int:
    from boardctl import i18n

    if args.json:  # JSON stays English
        print(json.dumps(_send(args, {"cmd": "status"}), indent=2))
        return 0
    # the operator's language (LANGUAGE, LANG...), else the board's
    code = i18n.from_environment() or _board_language()
    reply = _send(args, {"cmd": "status", "language": code})
    with i18n.language(str(reply.get("language", code))):
        _print_status(reply)
        sound = reply.get("sound")
        if isinstance(sound, dict) and sound.get("fault"):
            # the board plays on; `boardctl sound` says more
            print(i18n._("sound: {fault}", fault=str(sound["fault"])))
        if reply.get("version"):
            # the daemon's: after an update not yet restarted, it differs from `boardctl --version`
            print(i18n._("running boardctl {version}", version=str(reply["version"])))
    return 0


def _board_language() -> str:
    """``[board] language`` of the configuration; English where it cannot be read
    (the status is still worth printing)."""
    from boardctl import config

    try:
        return config.load().board.language
    except config.ConfigError:
        return "en"


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
            raise BadOptions(
                M_("option {option} must be written KEY=VALUE, e.g. players=4", option=repr(item))
            )
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


def _say(args: argparse.Namespace, reply: dict[str, Any], text: str) -> None:
    """The JSON answer, or ``text`` (a :class:`~boardctl.message.Message`) in the
    operator's language (the terminal's, else the board's)."""
    if args.json:
        print(json.dumps(reply, indent=2))
        return
    from boardctl import i18n

    with i18n.language(i18n.from_environment() or _board_language()):
        print(i18n.translate(text))


def _undo(args: argparse.Namespace) -> int:
    from boardctl.message import M_

    reply = _send(args, {"cmd": "undo"})
    _say(args, reply, M_("took back {action}", action=str(reply["undone"])))
    return 0


def _another(args: argparse.Namespace) -> int:
    from boardctl.message import M_

    reply = _send(args, {"cmd": "another"})
    _say(
        args,
        reply,
        M_("the computer thinks again, instead of {moves}", moves=str(reply["instead_of"])),
    )
    return 0


def _choose(args: argparse.Namespace) -> int:
    from boardctl.message import M_

    reply = _send(args, {"cmd": "choose", "option": args.option})
    _say(args, reply, M_("chose {option}", option=str(reply["chosen"])))
    return 0


def _roll(args: argparse.Namespace) -> int:
    from boardctl.message import M_

    reply = _send(args, {"cmd": "chance", "action": args.action})
    _say(args, reply, M_("played {action}", action=str(reply["played"])))
    return 0


def _play(args: argparse.Namespace) -> int:
    from boardctl.message import M_

    reply = _send(args, {"cmd": "play", "action": args.action})
    _say(args, reply, M_("played {action}", action=str(reply["played"])))
    return 0


def _games(args: argparse.Namespace) -> int:
    if args.action is not None:
        from boardctl.cli.care_cmds import backup_or_restore

        return backup_or_restore(args)
    reply = _send(args, {"cmd": "games"})
    if args.json:
        print(json.dumps(reply["games"], indent=2))
        return 0
    from boardctl import i18n
    from boardctl.sim.screen import game_spec, player_name

    with i18n.language(i18n.from_environment() or _board_language()):
        for line in games_lines(reply["games"], game_spec, player_name):
            print(line)
    return 0


def games_lines(games: list[dict[str, Any]], spec_of: Any, name_of: Any) -> list[str]:
    """The games played, a line each, in the current language: number, game, how it
    stands, when it began, its moves and who won."""
    from boardctl.i18n import _, ngettext, translate

    statuses = {"finished": _("finished"), "abandoned": _("abandoned"), "playing": _("playing")}
    width = max(len(s) for s in statuses.values())
    lines = []
    for g in games:
        started = g["started"] or _("date unsure")  # before the clock was set
        moves = ngettext("{n} move", "{n} moves", g["moves"])
        status = statuses.get(g["status"], g["status"])
        line = f"{g['id']:>4}  {g['game']:<10} {status:<{width}} {started:<20}  {moves}"
        if g["status"] == "finished":
            winner = g.get("winner")
            if winner is None:
                line += _(", a draw")
            else:
                line += _(", {player} won", player=translate(name_of(spec_of(g), winner)))
        lines.append(line)
    return lines


def _export(args: argparse.Namespace) -> int:
    reply = _send(args, {"cmd": "export", "id": args.id})
    text = json.dumps(reply["record"], indent=2) + "\n"
    if args.output:
        from boardctl.errors import RecordError

        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as exc:
            from boardctl.message import M_

            raise RecordError(
                M_(
                    "{file}: cannot write the record: {why}",
                    file=args.output,
                    why=str(exc.strerror),
                )
            ) from exc
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
    from boardctl.message import M_

    reply = _send(args, {"cmd": "decline", "board": args.board})
    _say(args, reply, M_("declined the game of {board}", board=str(reply["declined"])))
    return 0
