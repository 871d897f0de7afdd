"""``boardctl web password``: the hashed operator password for ``[web]``;
``boardctl web address``: where phones find the pages, with a QR code."""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from boardctl.cli.parser import operators_words
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

    words = operators_words()
    if args.stdin:
        first = sys.stdin.readline().rstrip("\n")
        second = first
    else:
        first = getpass.getpass(words(M_("operator password: ")))
        second = getpass.getpass(words(M_("again: ")))
    if first != second:
        raise ConfigError(M_("the two passwords differ; run `boardctl web password` again"))
    if len(first) < 8:
        raise ConfigError(M_("use a password of 8 characters or more"))
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
            M_(
                '[web] listen is "": the web pages are off; set it (e.g. "0.0.0.0:8080" with a'
                " password, docs/web.md) and restart boardctl"
            )
        )
    url = page_address(listen, lan=lan_address())
    words = operators_words()
    pages = [
        (words(M_("live board")), url),
        (words(M_("scoreboard")), f"{url}score"),
        (words(M_("operator")), f"{url}operator"),
    ]
    width = max(len(label) for label, _ in pages) + 2
    for label, address in pages:
        print(f"{label:<{width}}{address}")
    if "127.0.0.1" in url or "localhost" in url or "[::1]" in url:
        print(
            words(
                M_("(this machine only: phones cannot reach it; see [web] listen in docs/web.md)")
            )
        )
    sys.stdout.write(qr_text(url))
    if args.svg:
        try:
            Path(args.svg).write_text(qr_svg(url), encoding="utf-8")
        except OSError as exc:
            raise ConfigError(
                M_("{file}: cannot write the picture: {why}", file=args.svg, why=str(exc.strerror))
            ) from None
        print(words(M_("the QR code is in {file}", file=args.svg)))
    return 0
