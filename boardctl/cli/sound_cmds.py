"""``boardctl sound``: the board's cues, voice, volume and quiet hours, shown or
changed while it runs (the control socket's ``sound`` request, kept across
restarts), and a check of its speaker."""

from __future__ import annotations

import argparse
import json
from typing import Any

from boardctl.message import M_

_SWITCH = {"on": True, "off": False, "default": None}


def register(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "sound",
        help=M_("show or set the board's cues, voice, volume and quiet hours; check its speaker"),
    )
    p.add_argument(
        "--socket",
        help=M_("control socket (default: [control] socket of /etc/boardctl/boardctl.toml)"),
    )
    p.add_argument("--json", action="store_true", help=M_("print the raw JSON answer"))
    p.add_argument("--cues", choices=list(_SWITCH), help=M_("the short sounds on or off"))
    p.add_argument("--voice", choices=list(_SWITCH), help=M_("the voice on or off"))
    p.add_argument("--volume", metavar="PERCENT", help=M_("0 to 100, or 'default'"))
    p.add_argument(
        "--quiet",
        metavar="HOURS",
        help=M_(
            "quiet hours, e.g. '22:00-08:00'; 'never' for none; 'default' for "
            "the configuration's [sound] quiet"
        ),
    )
    p.add_argument(
        "--check", action="store_true", help=M_("play a cue and say a sentence on the board now")
    )
    p.set_defaults(handler=_sound)


def _sound(args: argparse.Namespace) -> int:
    from boardctl.cli.control_cmds import _send
    from boardctl.errors import ConfigError

    body: dict[str, Any] = {"cmd": "sound"}
    if args.cues is not None:
        body["cues"] = _SWITCH[args.cues]
    if args.voice is not None:
        body["voice"] = _SWITCH[args.voice]
    if args.volume is not None:
        if args.volume == "default":
            body["volume"] = None
        elif args.volume.isdigit():
            body["volume"] = int(args.volume)
        else:
            raise ConfigError(
                M_(
                    "--volume {volume}: give a whole number from 0 to 100, or 'default'",
                    volume=repr(args.volume),
                )
            )
    if args.quiet is not None:
        body["quiet"] = {"default": None, "never": ""}.get(args.quiet, args.quiet)
    if args.check:
        body["check"] = True
    sound = _send(args, body)["sound"]
    if args.json:
        print(json.dumps(sound, indent=2))
        return 0
    from boardctl import i18n
    from boardctl.cli.control_cmds import _board_language

    # in the operator's language (the terminal's, else the board's), as `boardctl status`
    with i18n.language(i18n.from_environment() or _board_language()):
        for line in _table(sound, args.check):
            print(line)
    return 0


def _table(sound: dict[str, Any], check: bool) -> list[str]:
    """The settings as the operator reads them, in the current language: a label,
    its value, and the notes under the setting they are about."""
    from boardctl.cli.control_cmds import labelled_lines
    from boardctl.i18n import _, translate

    def switch(on: bool) -> str:
        return _("on") if on else _("off")

    quiet = sound["quiet"] or _("never")
    if sound.get("quiet_now"):
        quiet = _("{hours} (quiet now)", hours=quiet)
    rows: list[tuple[str, str, list[str]]] = [
        (_("cues"), switch(sound["cues"]), []),
        (_("voice"), switch(sound["voice"]), []),
        (_("volume"), _("{percent} %", percent=sound["volume"]), []),
        (_("quiet"), quiet, []),
        (
            _("speaker"),
            (sound.get("device") or _("none")) if sound.get("speaker") else _("none"),
            [translate(sound[key]) for key in ("fault", "note") if sound.get(key)],
        ),
    ]
    if sound["quiet"] and not sound.get("clock_synchronised", True):
        rows[3][2].append(_("the clock is not synchronised yet: the board sounds until it is"))
    lines = labelled_lines(rows)
    if check:
        lines.append(
            _("a cue and a sentence are on their way to the speaker (and to open web pages)")
        )
    return lines
