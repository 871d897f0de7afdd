"""Commands for board profiles and bring-up: ``profile check``, ``test leds``,
``test sensors`` and ``calibrate``. Heavy imports happen inside the handlers."""

from __future__ import annotations

import argparse
import contextlib
import functools
import sys
from collections.abc import Callable, Iterator
from typing import Any

from boardctl.cli.parser import operators_words
from boardctl.message import M_, Mn_, said

PROFILE_HELP = M_("a profile name from hardware/profiles (e.g. shiftago-colour) or a .toml path")


def register(subparsers: Any) -> None:
    profile = subparsers.add_parser("profile", help=M_("board profiles"))
    profile_sub = profile.add_subparsers(dest="profile_command", metavar="ACTION", required=True)
    check = profile_sub.add_parser(
        "check", help=M_("validate board profiles and list every problem")
    )
    check.add_argument("files", nargs="+", metavar="FILE", help=PROFILE_HELP)
    check.set_defaults(handler=profile_check)
    listing = profile_sub.add_parser("list", help=M_("the profiles shipped with boardctl"))
    listing.set_defaults(handler=profile_list)

    test = subparsers.add_parser("test", help=M_("bring-up tests of a board's LEDs and sensors"))
    test_sub = test.add_subparsers(dest="test_command", metavar="PART", required=True)
    leds = test_sub.add_parser(
        "leds", help=M_("light every site's LEDs, site by site, colour by colour")
    )
    leds.add_argument("profile", metavar="PROFILE", help=PROFILE_HELP)
    leds.add_argument(
        "--sim", action="store_true", help=M_("draw the LEDs in the terminal instead")
    )
    leds.add_argument("--delay", type=float, default=0.4, help=M_("seconds per step (default 0.4)"))
    leds.add_argument("--site", action="append", help=M_("only these sites (repeatable)"))
    leds.add_argument(
        "--png",
        metavar="FILE",
        help=M_("with --sim: also save a picture of the walked sites' LEDs, all white"),
    )
    leds.set_defaults(handler=test_leds)

    sensors = test_sub.add_parser("sensors", help=M_("live table of every site's reading"))
    sensors.add_argument("profile", metavar="PROFILE", help=PROFILE_HELP)
    sensors.add_argument(
        "--sim",
        action="store_true",
        help=M_("simulated sensors: type 'SITE [VALUE]' lines to set them"),
    )
    sensors.set_defaults(handler=test_sensors)

    calibrate = subparsers.add_parser(
        "calibrate", help=M_("learn which sensor channel reads each site; writes it to the profile")
    )
    calibrate.add_argument("profile", metavar="PROFILE", help=PROFILE_HELP)
    calibrate.add_argument(
        "--sim",
        action="store_true",
        help=M_("simulated LEDs, sensors and a hand that places pieces"),
    )
    calibrate.add_argument(
        "--shuffle",
        type=int,
        metavar="SEED",
        help=M_("with --sim: wire the sensors in a random order"),
    )
    calibrate.add_argument(
        "--dry-run", action="store_true", help=M_("print the mapping, write nothing")
    )
    calibrate.add_argument(
        "--output",
        metavar="FILE",
        help=M_(
            "write the calibrated profile here instead of into PROFILE "
            "(a shipped profile is never written: calibrate a copy)"
        ),
    )
    calibrate.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        help=M_("seconds to wait at each site (default 120)"),
    )
    calibrate.set_defaults(handler=calibrate_board)


def _offer_sim(handler: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """A bring-up command that, when the board's hardware cannot start, says
    how to try the same without it: ``--sim``."""

    @functools.wraps(handler)
    def run(args: argparse.Namespace) -> int:
        from hardware.errors import HardwareUnavailable

        try:
            return handler(args)
        except HardwareUnavailable as exc:
            if args.sim:
                raise
            raise HardwareUnavailable(
                M_("{fault}; to try it without the board, add --sim", fault=said(exc))
            ) from None

    return run


def profile_check(args: argparse.Namespace) -> int:
    from hardware.errors import ProfileError
    from hardware.profiles import load_profile

    words = operators_words()
    failed = 0
    for name in args.files:
        try:
            board = load_profile(name)
        except ProfileError as e:
            failed += 1
            print(words(said(e)), file=sys.stderr)
            continue
        sensed = sum(1 for s in board.sites if s.channel is not None)
        said_ok = M_(
            "{source}: ok: {board} ({game}), {sites} sites, {sensed} sensed over {sensing},"
            " {leds} LEDs on {backend}",
            source=board.source,
            board=board.name,
            game=board.game,
            sites=len(board.sites),
            sensed=sensed,
            sensing=board.sensing,
            leds=board.leds.count,
            backend=board.leds.backend,
        )
        print(words(said_ok))
    return 2 if failed else 0


def profile_list(args: argparse.Namespace) -> int:
    from hardware.profiles import PROFILE_DIR, builtin_profiles, load_profile

    words = operators_words()
    for name in builtin_profiles():
        board = load_profile(name)
        said_it = M_(
            "{sites} sites over {sensing}, {leds} LEDs on {backend}",
            sites=len(board.sites),
            sensing=board.sensing,
            leds=board.leds.count,
            backend=board.leds.backend,
        )
        print(f"{name:<20} {board.game:<10} {words(said_it)}")
    print(words(M_("(in {folder}; copy one to change it, see docs/boards.md)", folder=PROFILE_DIR)))
    return 0


def _start_link(board: Any, link: Any, timeout: float = 5.0) -> None:
    """Start the serial link and wait until the microcontroller answers."""
    from hardware.errors import HardwareUnavailable

    link.start(lambda event: None)
    if not link.wait_up(timeout):
        link.close()
        raise HardwareUnavailable(
            M_(
                "{source}: no answer from the microcontroller on {port} within {seconds} s;"
                " check the cable and the [sensing] port",
                source=board.source,
                port=link.port,
                seconds=f"{timeout:g}",
            )
        )


def _hardware(board: Any) -> Any:
    """The board's real sensing and LEDs, as the daemon opens them."""
    from boardctl.daemon.runner import open_hardware

    return open_hardware(board)


@contextlib.contextmanager
def _strip(board: Any, sim: bool) -> Iterator[Any]:
    """The LED strip; on a real board whose LEDs hang off the microcontroller,
    the serial link is started for it (and stopped after)."""
    from hardware.leds import create_strip, simulated

    if sim:
        with create_strip(simulated(board.leds), profile=board, stream=sys.stdout) as strip:
            yield strip
        return
    hardware = _hardware(board)
    if board.leds.backend == "serial":
        _start_link(board, hardware.link)
    try:
        with hardware.leds as strip:
            yield strip
    finally:
        if board.leds.backend == "serial":
            hardware.link.close()


@_offer_sim
def test_leds(args: argparse.Namespace) -> int:
    import threading

    from hardware.bringup import led_walk
    from hardware.leds.render import render_png
    from hardware.profiles import load_profile

    words = operators_words()
    board = load_profile(args.profile)
    pause = threading.Event()
    steps = [s for s in led_walk(board) if not args.site or s.site in args.site]
    walked = {s.site for s in steps}
    with _strip(board, args.sim) as strip:
        for step in steps:
            print(f"{step.site}: {words(step.colour)}", flush=True)
            strip.show(step.frame)
            pause.wait(args.delay)
        if args.png:
            # the colour asked for, as a picture shows it best: before the
            # brightness, gamma and current limit that the LEDs themselves get
            lit = {i for s in board.sites if s.name in walked for i in s.leds}
            white = [(255, 255, 255) if i in lit else (0, 0, 0) for i in range(board.leds.count)]
            render_png(board, white, args.png)
            picture = M_(
                "wrote {file}: {leds} of {sites} in white at full scale (the board dims them to"
                " brightness {brightness})",
                file=args.png,
                leds=Mn_("{n} LED", "{n} LEDs", len(lit)),
                sites=Mn_("{n} site", "{n} sites", len(walked)),
                brightness=f"{board.leds.brightness:g}",
            )
            print(words(picture))
    walk = M_(
        "{steps} over {sites}",
        steps=Mn_("{n} step", "{n} steps", len(steps)),
        sites=Mn_("{n} site", "{n} sites", len({s.site for s in steps})),
    )
    print(words(walk))
    return 0


@_offer_sim
def test_sensors(args: argparse.Namespace) -> int:
    import queue
    import threading

    from boardctl.sensing import SensorEvent
    from hardware.bringup import BadSensorInput, SensorTable, typed_reading
    from hardware.profiles import load_profile
    from hardware.sim_sensing import ScriptedSource

    tr = operators_words()
    board = load_profile(args.profile)
    table = SensorTable(board)
    events: queue.Queue[SensorEvent | None] = queue.Queue()
    source: Any = ScriptedSource(board.channel_count) if args.sim else _hardware(board).sensors

    def keyboard() -> None:
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            if words[0] in ("q", "quit"):
                break
            try:
                source.set(*typed_reading(board, words, source.values))
            except BadSensorInput as e:
                print(f"? {tr(said(e))}", file=sys.stderr)
        events.put(None)

    with source:
        source.start(events.put)
        if args.sim:
            print(
                tr(M_("simulated sensors: type 'SITE VALUE' (a1 2), 'SITE' to toggle, q to quit"))
            )
            threading.Thread(target=keyboard, daemon=True).start()
        while (event := events.get()) is not None:
            table.apply(event)
            if events.empty() or not sys.stdout.isatty():
                print("\x1b[2J\x1b[H" if sys.stdout.isatty() else "", end="")
                print(table.render(tr), flush=True)
    return 0


@_offer_sim
def calibrate_board(args: argparse.Namespace) -> int:
    import random

    from boardctl.board import Reports
    from hardware.bringup import (
        Calibration,
        SimHand,
        calibration_target,
        run_calibration,
        write_channels,
    )
    from hardware.profiles import load_profile
    from hardware.sim_sensing import ScriptedSource

    words = operators_words()
    board = load_profile(args.profile, require_channels=False)
    # refused before the session, not after an hour of placing pieces
    target = None if args.dry_run else calibration_target(board.source, args.output)
    calibration = Calibration(board)
    targets = calibration.targets
    source: Any
    hardware: Any = None if args.sim else _hardware(board)
    with _sim_quiet(board) if hardware is None else hardware.leds as strip:
        if args.sim:
            channels = list(range(max(len(targets), board.channel_count)))
            if args.shuffle is not None:
                random.Random(args.shuffle).shuffle(channels)
            wiring = {s.name: channels[n] for n, s in enumerate(targets)}
            source = ScriptedSource(len(channels))
            code = min(board.codes, default=1)

            reads_code = {wiring[s.name] for s in targets if s.reports is Reports.CODE}

            def act(channel: int, on: bool) -> None:
                value = code if channel in reads_code else 1
                source.set(channel, value if on else 0)

            SimHand(board, strip, wiring, act)
        else:
            source = hardware.sensors
        mapping = run_calibration(
            calibration, strip, source, timeout=args.timeout, say=lambda t: print(words(t))
        )
    # printed first: if the file cannot be written, the session is not lost
    for name, channel in mapping.items():
        print(f"{name} = channel {channel}")
    if target is None:
        return 0
    sys.stdout.flush()
    backup = write_channels(board.source, mapping, output=target)
    if backup is None:
        wrote = Mn_(
            "wrote {n} channel to {file}", "wrote {n} channels to {file}", len(mapping), file=target
        )
    else:
        wrote = Mn_(
            "wrote {n} channel to {file} (the old one is {backup})",
            "wrote {n} channels to {file} (the old one is {backup})",
            len(mapping),
            file=target,
            backup=backup,
        )
    print(words(wrote))
    return 0


def _sim_quiet(board: Any) -> Any:
    from hardware.leds import create_strip, simulated

    return create_strip(simulated(board.leds), profile=board)
