"""``boardctl web password``: the hashed operator password for ``[web]``."""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any


def register(sub: Any) -> None:
    web = sub.add_parser(
        "web",
        help="the web pages' settings: `boardctl web password` hashes the operator password",
        description="Settings of the board's web pages (docs/web.md).",
    )
    inner = web.add_subparsers(dest="web_command", metavar="SUBCOMMAND")
    password = inner.add_parser(
        "password",
        help="ask for the operator password twice and print the [web] password_hash line",
    )
    password.add_argument(
        "--stdin", action="store_true", help="read the password from standard input (one line)"
    )
    password.set_defaults(handler=_password)
    web.set_defaults(handler=lambda args: web.print_help() or 2)


def _password(args: argparse.Namespace) -> int:
    from boardctl.errors import ConfigError
    from boardctl.web.auth import hash_password

    if args.stdin:
        first = sys.stdin.readline().rstrip("\n")
        second = first
    else:
        first = getpass.getpass("operator password: ")
        second = getpass.getpass("again: ")
    if first != second:
        raise ConfigError("the two passwords differ; run `boardctl web password` again")
    if len(first) < 8:
        raise ConfigError("use a password of 8 characters or more")
    print(f'password_hash = "{hash_password(first)}"')
    return 0
