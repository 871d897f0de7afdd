"""``boardctl config``: the daemon's configuration."""

from __future__ import annotations

import argparse
from typing import Any


def add_config_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags every command that reads the configuration takes."""
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="configuration file (default /etc/boardctl/boardctl.toml, if present)",
    )
    parser.add_argument(
        "--set",
        metavar="SECTION.KEY=VALUE",
        action="append",
        default=[],
        help="override one key, e.g. --set controller.settle_ms=200 (repeatable)",
    )


def register(sub: Any) -> None:
    cfg = sub.add_parser("config", help="the daemon's configuration")
    csub = cfg.add_subparsers(title="config commands", metavar="ACTION", required=True)
    show = csub.add_parser("show", help="print the configuration in force, as TOML")
    add_config_arguments(show)
    show.set_defaults(handler=_show)


def _show(args: argparse.Namespace) -> int:
    from boardctl import config

    print(config.load(args.config, args.set, required=args.config is not None).to_toml())
    return 0
