"""``boardctl``: the entry point. Each command module in :data:`COMMANDS` adds its
subcommands with ``register(subparsers)``; handlers import what they need only
when they run, so ``boardctl --help`` stays fast."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from types import ModuleType

from boardctl import __version__
from boardctl.cli import hardware_cmds
from boardctl.errors import BoardctlError

#: the modules whose ``register(subparsers)`` adds subcommands
COMMANDS: tuple[ModuleType, ...] = (hardware_cmds,)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="boardctl", description="Sensors, rules and LEDs for a physical line-game board."
    )
    parser.add_argument("--version", action="version", version=f"boardctl {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return int(handler(args))
    except BoardctlError as e:
        print(f"boardctl: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
