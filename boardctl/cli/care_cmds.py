"""``boardctl brightness`` and ``boardctl schedule``: the venue's settings,
changed while the board runs and kept across restarts (the control socket's
``settings`` request); ``boardctl games backup`` and ``restore`` live with
``games`` in :mod:`.control_cmds`."""

from __future__ import annotations

import argparse
import json
from typing import Any

from boardctl.message import M_


def register(subparsers: Any) -> None:
    def add(name: str, help_text: str) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = subparsers.add_parser(name, help=help_text)
        p.add_argument(
            "--socket",
            help=M_("control socket (default: [control] socket of /etc/boardctl/boardctl.toml)"),
        )
        p.add_argument("--json", action="store_true", help=M_("print the raw JSON answer"))
        return p

    p = add("brightness", M_("show or set the LEDs' brightness (kept across restarts)"))
    p.add_argument(
        "value",
        nargs="?",
        help=M_("0 to 1 (0.3 is 30 %%), or 'default' for the configuration's [leds] brightness"),
    )
    p.set_defaults(handler=_brightness)
    p = add("schedule", M_("show or set the opening hours (kept across restarts)"))
    p.add_argument(
        "hours",
        nargs="?",
        help=M_(
            "e.g. 'mon-fri 10:00-18:00; sat,sun 09:00-20:00'; 'always' for always open; "
            "'default' for the configuration's [schedule] hours"
        ),
    )
    p.set_defaults(handler=_schedule)


def _settings(args: argparse.Namespace, body: dict[str, Any]) -> int:
    from boardctl import i18n
    from boardctl.cli.control_cmds import _board_language, _send

    reply = _send(args, {"cmd": "settings", **body})
    settings = reply["settings"]
    if args.json:
        print(json.dumps(settings, indent=2))
        return 0
    # in the operator's language (the terminal's, else the board's), as `boardctl status`
    with i18n.language(i18n.from_environment() or _board_language()):
        for line in table(settings):
            print(line)
    return 0


def table(settings: dict[str, Any]) -> list[str]:
    """The venue's settings as the operator reads them, in the current language: a
    label, its value, and a note under the setting it is about."""
    from boardctl.cli.control_cmds import labelled_lines
    from boardctl.i18n import _

    hours = settings["hours"] or _("always open")
    state = _("open") if settings["open"] else _("closed: idle boards are dark")
    rows: list[tuple[str, str, list[str]]] = [
        (_("brightness"), f"{settings['brightness']:g}", []),
        (_("hours"), _("{hours} ({state})", hours=hours, state=state), []),
    ]
    if not settings["clock_synchronised"]:
        rows[1][2].append(_("the clock is not synchronised yet: the board stays lit until it is"))
    return labelled_lines(rows)


def _brightness(args: argparse.Namespace) -> int:
    if args.value is None:
        return _settings(args, {})
    if args.value == "default":
        return _settings(args, {"brightness": None})
    try:
        value = float(args.value)
    except ValueError:
        from boardctl.errors import ConfigError
        from boardctl.message import M_

        raise ConfigError(
            M_(
                "brightness {value}: give a number from 0 to 1, e.g. 0.3, or 'default'",
                value=repr(args.value),
            )
        ) from None
    return _settings(args, {"brightness": value})


def _schedule(args: argparse.Namespace) -> int:
    if args.hours is None:
        return _settings(args, {})
    if args.hours == "default":
        return _settings(args, {"hours": None})
    return _settings(args, {"hours": "" if args.hours == "always" else args.hours})


def backup_or_restore(args: argparse.Namespace) -> int:
    """``boardctl games backup FILE`` / ``boardctl games restore FILE``."""
    from pathlib import Path

    from boardctl import i18n
    from boardctl.cli.control_cmds import _board_language
    from boardctl.errors import ConfigError
    from boardctl.message import M_, Mn_

    if not args.file:
        raise ConfigError(
            M_(
                "boardctl games {action} FILE: name the file, e.g. games-copy.db",
                action=args.action,
            )
        )
    state_dir = args.state_dir
    if state_dir is None:
        from boardctl import config

        state_dir = config.load().storage.state_dir
    from boardctl.controller.backup import backup, restore
    from boardctl.daemon.runner import DATABASE, lock_state_dir

    database = Path(state_dir) / DATABASE
    target = Path(args.file)
    if args.action == "backup":
        games = backup(database, target)
        said = Mn_(
            "{n} game copied to {file}", "{n} games copied to {file}", games, file=str(target)
        )
    else:
        with lock_state_dir(Path(state_dir)):  # refused while boardctl runs on this folder
            games = restore(target, database)
        said = Mn_(
            "{n} game restored from {file}; the database it replaces is kept as {kept}",
            "{n} games restored from {file}; the database they replace is kept as {kept}",
            games,
            file=str(target),
            kept=f"{database}.before-restore",
        )
    with i18n.language(i18n.from_environment() or _board_language()):
        print(i18n.translate(said))
    return 0
