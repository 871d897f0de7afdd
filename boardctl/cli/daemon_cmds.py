"""``boardctl config`` and ``boardctl service``: the daemon's configuration and unit."""

from __future__ import annotations

import argparse
from typing import Any

from boardctl.message import M_


def add_config_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags every command that reads the configuration takes."""
    parser.add_argument(
        "--config",
        metavar="FILE",
        help=M_("configuration file (default /etc/boardctl/boardctl.toml, if present)"),
    )
    parser.add_argument(
        "--set",
        metavar="SECTION.KEY=VALUE",
        action="append",
        default=[],
        help=M_("override one key, e.g. --set controller.settle_ms=200 (repeatable)"),
    )


def register(sub: Any) -> None:
    cfg = sub.add_parser("config", help=M_("the daemon's configuration"))
    csub = cfg.add_subparsers(title=M_("config commands"), metavar="ACTION", required=True)
    show = csub.add_parser("show", help=M_("print the configuration in force, as TOML"))
    add_config_arguments(show)
    show.set_defaults(handler=_show)
    register_service(sub)

    run = sub.add_parser("run", help=M_("run the board controller daemon (what systemd starts)"))
    run.add_argument(
        "--profile",
        metavar="NAME|FILE",
        help=M_("the board's profile (default: [board] profile of the configuration)"),
    )
    add_config_arguments(run)
    run.set_defaults(handler=_run)


def _show(args: argparse.Namespace) -> int:
    from boardctl import config

    cfg = config.load(args.config, args.set, required=args.config is not None)
    profile = board_profile(cfg)
    cfg.check_board(profile)
    print(cfg.to_toml())
    return 0


def board_profile(cfg: Any) -> Any:
    """The profile that ``[board] profile`` names; one that is not there is an
    error about that key, with its file and line."""
    from boardctl.errors import ConfigError
    from boardctl.message import M_
    from hardware.errors import ProfileError
    from hardware.profiles import find_profile, load_profile

    try:
        path = find_profile(cfg.board.profile)
    except ProfileError as exc:
        place = cfg.where.get(("board", "profile"), "[board] profile")
        raise ConfigError(
            M_(
                "{where}: {profile}: {fault}",
                where=place,
                profile=repr(cfg.board.profile),
                fault=exc.problems[0],
            )
        ) from None
    return load_profile(path)


def register_service(sub: Any) -> None:
    service = sub.add_parser("service", help=M_("install boardctl as a systemd service"))
    ssub = service.add_subparsers(title=M_("service commands"), metavar="ACTION", required=True)
    install = ssub.add_parser(
        "install", help=M_("write the unit, sysusers and udev files for this installation")
    )
    install.add_argument(
        "--root",
        default="/",
        metavar="DIR",
        help=M_("write below DIR instead of / (for images and packaging)"),
    )
    install.add_argument(
        "--boardctl",
        metavar="PATH",
        help=M_("the boardctl executable the unit runs (default: this installation's)"),
    )
    install.add_argument(
        "--config",
        metavar="FILE",
        help=M_(
            "the configuration whose [web] listen and [mqtt] broker open the network "
            "(default /etc/boardctl/boardctl.toml)"
        ),
    )
    install.set_defaults(handler=_install)


def _install(args: argparse.Namespace) -> int:
    import shutil
    import sys
    from pathlib import Path

    from boardctl.config import load
    from boardctl.daemon.units import (
        DEFAULT_BOARDCTL,
        MQTT_DROPIN,
        PACKAGED,
        WEB_DROPIN,
        unit_files,
    )
    from boardctl.errors import ConfigError

    exe = args.boardctl or shutil.which("boardctl") or str(Path(sys.prefix) / "bin" / "boardctl")
    exe = str(Path(exe).absolute())
    if not args.boardctl and Path(exe).resolve() == Path(DEFAULT_BOARDCTL).resolve():
        exe = DEFAULT_BOARDCTL  # reached through a link (/usr/bin/boardctl): the link's target
    from boardctl.cli.parser import operators_words
    from boardctl.message import M_

    words = operators_words()
    root = Path(args.root)
    config = load(args.config)
    listen = config.web.listen
    broker = config.mqtt.broker
    written = []
    dropin = root / WEB_DROPIN.lstrip("/")
    if not listen and dropin.exists():
        dropin.unlink()  # the web pages are off: the network closes again
        print(words(M_("removed {file}: [web] listen is not set", file=dropin)))
    dropin = root / MQTT_DROPIN.lstrip("/")
    if not broker and dropin.exists():
        dropin.unlink()  # no broker: the network closes again
        print(words(M_("removed {file}: [mqtt] broker is not set", file=dropin)))
    for unit in unit_files(exe, listen, broker):
        target = root / unit.path.lstrip("/")
        packaged = root / PACKAGED.get(unit.path, "/nonexistent").lstrip("/")
        # installed by the Debian package: a copy in /etc would hide its upgrades
        in_package = packaged.is_file() and packaged.read_text() == unit.text
        try:
            if in_package:
                if target.exists():
                    target.unlink()
                    print(
                        words(
                            M_(
                                "removed {file}: the package's {packaged} is the same",
                                file=target,
                                packaged=packaged,
                            )
                        )
                    )
                print(words(M_("kept {file} (the package's)", file=packaged)))
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(unit.text)
        except OSError as exc:
            raise ConfigError(
                M_(
                    "{file}: cannot write: {why}; run as root (sudo) or pass --root DIR",
                    file=target,
                    why=exc.strerror or str(exc),
                )
            ) from exc
        written.append(target)
    for path in written:
        print(words(M_("wrote {file}", file=path)))
    print(words(M_("the service runs {program}", program=exe)))
    print(words(M_("next, as root:")))
    users = words(M_("create the boardctl user and its groups"))
    print(f"  systemd-sysusers                # {users}")
    print("  udevadm control --reload && udevadm trigger")
    print("  systemctl daemon-reload")
    print("  systemctl enable --now boardctl")
    print(words(M_("then follow it with: journalctl -u boardctl -f")))
    return 0


def _run(args: argparse.Namespace) -> int:
    from boardctl import config
    from boardctl.daemon.runner import Daemon, configure_logging
    from hardware.errors import HardwareUnavailable

    overrides = list(args.set)
    if args.profile:
        overrides.append(f"board.profile={_toml_text(args.profile)}")
    cfg = config.load(args.config, overrides, required=args.config is not None)
    configure_logging(cfg.logging.level)
    profile = board_profile(cfg)
    daemon = Daemon(cfg, profile)
    daemon.install_signal_handlers()
    try:
        return daemon.run()
    except HardwareUnavailable as exc:
        from boardctl.message import M_, said

        raise HardwareUnavailable(
            M_("{fault}; to try boardctl without a board, run `boardctl sim`", fault=said(exc))
        ) from None


def _toml_text(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
