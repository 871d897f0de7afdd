"""``boardctl brightness`` and ``boardctl schedule``: the venue's settings,
changed while the board runs and kept across restarts (the control socket's
``settings`` request); ``boardctl games backup`` and ``restore`` live with
``games`` in :mod:`.control_cmds`."""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(subparsers: Any) -> None:
    def add(name: str, help_text: str) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = subparsers.add_parser(name, help=help_text)
        p.add_argument(
            "--socket",
            help="control socket (default: [control] socket of /etc/boardctl/boardctl.toml)",
        )
        p.add_argument("--json", action="store_true", help="print the raw JSON answer")
        return p

    p = add("brightness", "show or set the LEDs' brightness (kept across restarts)")
    p.add_argument(
        "value",
        nargs="?",
        help="0 to 1 (0.3 is 30 %%), or 'default' for the configuration's [leds] brightness",
    )
    p.set_defaults(handler=_brightness)
    p = add("schedule", "show or set the opening hours (kept across restarts)")
    p.add_argument(
        "hours",
        nargs="?",
        help="e.g. 'mon-fri 10:00-18:00; sat,sun 09:00-20:00'; 'always' for always open; "
        "'default' for the configuration's [schedule] hours",
    )
    p.set_defaults(handler=_schedule)


def _settings(args: argparse.Namespace, body: dict[str, Any]) -> int:
    from boardctl.cli.control_cmds import _send

    reply = _send(args, {"cmd": "settings", **body})
    settings = reply["settings"]
    if args.json:
        print(json.dumps(settings, indent=2))
        return 0
    hours = settings["hours"] or "always open"
    state = "open" if settings["open"] else "closed: idle boards are dark"
    print(f"brightness {settings['brightness']:g}")
    print(f"hours      {hours} ({state})")
    if not settings["clock_synchronised"]:
        print("           the clock is not synchronised yet: the board stays lit until it is")
    return 0


def _brightness(args: argparse.Namespace) -> int:
    if args.value is None:
        return _settings(args, {})
    if args.value == "default":
        return _settings(args, {"brightness": None})
    try:
        value = float(args.value)
    except ValueError:
        from boardctl.errors import ConfigError

        raise ConfigError(
            f"brightness {args.value!r}: give a number from 0 to 1, e.g. 0.3, or 'default'"
        ) from None
    return _settings(args, {"brightness": value})


def _schedule(args: argparse.Namespace) -> int:
    if args.hours is None:
        return _settings(args, {})
    if args.hours == "default":
        return _settings(args, {"hours": None})
    return _settings(args, {"hours": "" if args.hours == "always" else args.hours})
