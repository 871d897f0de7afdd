"""``boardctl web password``: the hashed operator password for ``[web]``;
``boardctl web address``: where phones find the pages, with a QR code."""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from boardctl.message import M_


def register(sub: Any) -> None:
    web = sub.add_parser(
        "web",
        help=M_("the web pages' settings: `boardctl web password` hashes the operator password"),
        description=M_("Settings of the board's web pages (docs/web.md)."),
    )
    inner = web.add_subparsers(dest="web_command", metavar="SUBCOMMAND")
    password = inner.add_parser(
        "password",
        help=M_("ask for the operator password twice and print the [web] password_hash line"),
    )
    password.add_argument(
        "--stdin", action="store_true", help=M_("read the password from standard input (one line)")
    )
    password.set_defaults(handler=_password)
    address = inner.add_parser(
        "address",
        help=M_("print the pages' addresses and the live board's as a QR code for phones"),
    )
    address.add_argument(
        "--svg", metavar="FILE", help=M_("also write the QR code as an SVG picture")
    )
    address.add_argument(
        "--listen", help=M_("the address the pages listen on (default: [web] listen)")
    )
    address.set_defaults(handler=_address)
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


def _address(args: argparse.Namespace) -> int:
    from pathlib import Path

    from boardctl import config
    from boardctl.errors import ConfigError
    from boardctl.web.address import lan_address, page_address, qr_svg, qr_text

    listen = args.listen if args.listen is not None else config.load().web.listen
    if not listen:
        raise ConfigError(
            '[web] listen is "": the web pages are off; set it (e.g. "0.0.0.0:8080" with a '
            "password, docs/web.md) and restart boardctl"
        )
    url = page_address(listen, lan=lan_address())
    print(f"live board  {url}")
    print(f"scoreboard  {url}score")
    print(f"operator    {url}operator")
    if "127.0.0.1" in url or "localhost" in url or "[::1]" in url:
        print("(this machine only: phones cannot reach it; see [web] listen in docs/web.md)")
    sys.stdout.write(qr_text(url))
    if args.svg:
        try:
            Path(args.svg).write_text(qr_svg(url), encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"{args.svg}: cannot write the picture: {exc.strerror}") from None
        print(f"the QR code is in {args.svg}")
    return 0
