"""Entry point of the ``boardctl`` command.

Each command module in :data:`COMMANDS` has ``register(subparsers)``, which adds
its subcommands and sets ``handler`` on them. Modules import only argparse at
load time; the handlers import what they need, so ``boardctl --help`` stays fast.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from boardctl import __version__
from boardctl.cli import (
    care_cmds,
    control_cmds,
    daemon_cmds,
    hardware_cmds,
    rules_cmds,
    sim_cmds,
    sound_cmds,
    web_cmds,
)
from boardctl.cli.parser import Parser
from boardctl.errors import BoardctlError, shorten
from boardctl.message import M_

#: the modules whose ``register(subparsers)`` adds subcommands
COMMANDS: tuple[ModuleType, ...] = (
    rules_cmds,
    hardware_cmds,
    control_cmds,
    care_cmds,
    sound_cmds,
    daemon_cmds,
    sim_cmds,
    web_cmds,
)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="boardctl",
        description=M_("Sensors, rules and LEDs for a physical line-game board."),
    )
    parser.add_argument("--version", action="version", version=f"boardctl {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help=M_("log debug messages"))
    sub = parser.add_subparsers(dest="command", title=M_("commands"), metavar="COMMAND")
    for module in COMMANDS:
        module.register(sub)
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
        status = int(handler(args))
        sys.stdout.flush()  # here, where a closed pipe can still be caught
        return status
    except BrokenPipeError:
        # whoever read the output stopped early (`boardctl status | head`):
        # nothing went wrong here, and nothing more is said
        _drop_stdout()
        return 128 + 13  # as a process ended by SIGPIPE
    except BoardctlError as exc:
        print(f"boardctl: {shorten(_in_readers_language(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _in_readers_language(exc: BoardctlError) -> str:
    """What ``exc`` says, in the terminal's language (else the board's, where its
    configuration can be read): a refusal, a configuration's fault with its file,
    line and fix."""
    from boardctl import i18n
    from boardctl.message import said

    code = i18n.from_environment()
    if code is None:
        from boardctl.cli.control_cmds import _board_language

        code = _board_language()
    with i18n.language(code):
        return i18n.translate(said(exc))


def _drop_stdout() -> None:
    """Point standard output at /dev/null, so that Python's own flush at exit
    finds no closed pipe to complain about."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
