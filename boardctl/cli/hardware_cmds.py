"""Commands for board profiles and bring-up: ``profile check``, ``test leds``,
``test sensors`` and ``calibrate``. Heavy imports happen inside the handlers."""

from __future__ import annotations

import argparse
import sys
from typing import Any

PROFILE_HELP = "a profile name from hardware/profiles (e.g. shiftago-colour) or a .toml path"


def register(subparsers: Any) -> None:
    profile = subparsers.add_parser("profile", help="board profiles")
    profile_sub = profile.add_subparsers(dest="profile_command", metavar="ACTION", required=True)
    check = profile_sub.add_parser("check", help="validate board profiles and list every problem")
    check.add_argument("files", nargs="+", metavar="FILE", help=PROFILE_HELP)
    check.set_defaults(handler=profile_check)


def profile_check(args: argparse.Namespace) -> int:
    from hardware.errors import ProfileError
    from hardware.profiles import load_profile

    failed = 0
    for name in args.files:
        try:
            board = load_profile(name)
        except ProfileError as e:
            failed += 1
            print(e, file=sys.stderr)
            continue
        sensed = sum(1 for s in board.sites if s.channel is not None)
        print(
            f"{board.source}: ok: {board.name} ({board.game}), {len(board.sites)} sites, "
            f"{sensed} sensed over {board.sensing}, {board.leds.count} LEDs on {board.leds.backend}"
        )
    return 1 if failed else 0
