"""``boardctl sim``: the whole product on a simulated board in the terminal."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

from boardctl.message import M_


def register(sub: Any) -> None:
    sim = sub.add_parser(
        "sim",
        help=M_(
            "play on a simulated board: the real daemon, a virtual microcontroller, LEDs drawn"
        ),
        description=(
            M_(
                "Run the daemon with a virtual microcontroller (over a real pty) and simulated "
                "LEDs, and play by typing what your hands do: insert W3, place d4 white-disc, "
                "lift d4, move d4 e4, remove a1 b1 c1; new, undo, play, roll, choose, press, "
                "status, help, quit. See docs/sim.md."
            )
        ),
    )
    from boardctl.engines import GAMES

    sim.add_argument(
        "game",
        nargs="?",
        help=M_(
            "one of {games} (default: the game of the configured board)", games=", ".join(GAMES)
        ),
    )
    sim.add_argument(
        "--profile",
        metavar="NAME|FILE",
        help=M_("the board (default: the game's reference board among the shipped profiles)"),
    )
    sim.add_argument(
        "--set",
        metavar="SECTION.KEY=VALUE",
        action="append",
        default=[],
        help=M_("override one configuration key, e.g. --set game.variant=expert (repeatable)"),
    )
    sim.add_argument("--config", metavar="FILE", help=M_("a configuration file to read"))
    sim.add_argument(
        "--seats",
        metavar="SEATS",
        help=M_(
            "who plays each seat: hands, or the computer at a level from 1 to 5, e.g. "
            "--seats hands,computer:2 to play against the computer (docs/computer.md)"
        ),
    )
    sim.add_argument(
        "--state",
        metavar="DIR",
        help=M_("keep the games (and the control socket) in DIR (default: a temporary directory)"),
    )
    sim.add_argument(
        "--demo",
        action="store_true",
        help=M_(
            "play a whole scripted game with mistakes in it, then show the result "
            "(the games whose engine has a demo)"
        ),
    )
    sim.add_argument(
        "--delay",
        type=float,
        default=0.3,
        metavar="SECONDS",
        help=M_("pause after each step of the demo (default 0.3; 0 runs it as fast as it goes)"),
    )
    sim.add_argument(
        "--web",
        nargs="?",
        const="127.0.0.1:8080",
        metavar="HOST:PORT",
        help=M_(
            "play in the browser instead: serve the web pages with the sim page "
            "(default 127.0.0.1:8080; docs/web.md)"
        ),
    )
    sim.set_defaults(handler=_sim)


def _sim(args: argparse.Namespace) -> int:
    with _ending_like_ctrl_c():
        return _play(args)


def _play(args: argparse.Namespace) -> int:
    import logging

    from boardctl.sim.console import Console, run_demo
    from boardctl.sim.session import SimError, Simulation, choose_board, state_directory

    if args.delay < 0:
        raise SimError(f"--delay {args.delay}: give 0 or more seconds")
    game = args.game.lower() if args.game else None
    state = args.state
    if args.seats is not None:
        from boardctl.message import said
        from boardctl.seats import SeatError, Seats

        try:
            Seats.from_str(args.seats)
        except SeatError as exc:
            raise SimError(
                M_("{command}: {error}", command=f"--seats {args.seats}", error=said(exc))
            ) from None
        args.set = [*args.set, _seats_setting(args.seats)]
    # the board's sound plays here where this machine can, and is recorded either way
    from hardware.audio import can_play

    why = can_play()
    play = why is None
    untold = [why] if why is not None else []

    def tell_sound(code: str) -> None:
        """Say once, when the board runs, that its sound is not heard here (in
        the board's language ``code``, as the simulated board speaks)."""
        from boardctl import i18n

        while untold:
            with i18n.language(code):
                said = i18n.translate(
                    M_(
                        "boardctl sim: {why}: the board's sound is recorded, not played",
                        why=untold.pop(),
                    )
                )
            print(said, file=sys.stderr)

    # the daemon logs to a file: the terminal belongs to the board
    log_dir = state_directory(state) if state else None
    _quiet_logging(log_dir / "sim.log" if log_dir else None)
    logging.getLogger(__name__).debug("boardctl sim %s", game)

    if args.demo:
        from boardctl.sim.demo import script as demo_script

        if game is None:
            from hardware.profiles import load_profile

            where = state_directory(state) if state else None
            game = load_profile(choose_board(None, args.profile, args.set, where, args.config)).game
        script = demo_script(game)
        with Simulation(
            script.game,
            args.profile,
            overrides=[*script.settings, *(args.set or ())],
            state_dir=state,
            options=script.options,
            config_path=args.config,
            play=play,
        ) as sim:
            tell_sound(sim.config.board.language)
            return run_demo(sim, script, delay=args.delay)

    if args.web:
        return _web(args, game, state, play, tell_sound)

    def make(new_game: str | None, options: dict[str, Any]) -> Simulation:
        chosen = new_game or game
        profile = args.profile if new_game is None else None
        seats = options.pop("seats", None)
        sim = Simulation(
            chosen,
            profile,
            overrides=[*args.set, *([_seats_setting(seats)] if seats is not None else [])],
            state_dir=state,
            options=options or None,
            config_path=args.config,
            play=play,
        )
        try:
            sim.start()
        except BaseException:
            sim.close()
            raise
        return sim

    console = Console(make)
    if untold:  # the terminal belongs to the board: said under it, once
        console.note = M_(
            "sound: {why}: it is recorded, not played. {note}",
            why=untold.pop(),
            note=console.note,
        )
    try:
        return console.run()
    finally:
        # a signal that came as the console began to shut down (a closed
        # terminal: the read fails, then SIGHUP) may have cut its clean-up short
        console.sim.close()


def _web(
    args: argparse.Namespace,
    game: str | None,
    state: str | None,
    play: bool,
    tell_sound: Callable[[str], None],
) -> int:
    """The simulated board with its web pages, until Ctrl-C."""
    import threading

    from boardctl import i18n
    from boardctl.i18n import _
    from boardctl.sim.session import Simulation

    overrides = [*args.set, f'web.listen="{args.web}"']
    with Simulation(
        game,
        args.profile,
        overrides=overrides,
        state_dir=state,
        config_path=args.config,
        play=play,
    ) as sim:
        url = sim.daemon.web.url
        code = sim.config.board.language
        with i18n.language(code):
            said = _(
                "boardctl sim: the board is on {sim} (live board {live}, operator {operator}); "
                "Ctrl-C ends",
                sim=f"{url}/sim",
                live=f"{url}/",
                operator=f"{url}/operator",
            )
        print(said, flush=True)
        tell_sound(code)
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()
    return 0


def _seats_setting(seats: str) -> str:
    """The ``--set`` of ``[game] seats`` (TOML text: every character kept)."""
    import json

    return f"game.seats={json.dumps(seats)}"


@contextlib.contextmanager
def _ending_like_ctrl_c() -> Iterator[None]:
    """A closed terminal (SIGHUP) or SIGTERM ends the simulator as Ctrl-C does:
    the daemon stops and the temporary directory is removed."""
    from boardctl.sim.session import ENDING_SIGNALS

    signals = [s for s in ENDING_SIGNALS if s != signal.SIGINT]

    def interrupt(signum: int, frame: FrameType | None) -> None:
        # once is enough: the clean-up that follows is not interrupted again
        # (Simulation.close also ignores these signals while it runs)
        for sig in ENDING_SIGNALS:
            signal.signal(sig, signal.SIG_IGN)
        raise KeyboardInterrupt

    previous: dict[int, Any] = {sig: signal.signal(sig, interrupt) for sig in signals}
    previous[signal.SIGINT] = signal.getsignal(signal.SIGINT)  # ignored once one came
    try:
        yield
    finally:
        for sig, handler in previous.items():
            if handler is not None:
                signal.signal(sig, handler)


def _quiet_logging(path: Any) -> None:
    import logging

    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    sink: logging.Handler
    if path is not None:
        try:
            sink = logging.FileHandler(path)
        except OSError as exc:
            from boardctl.sim.session import SimError

            raise SimError(
                f"{path}: cannot write the log ({exc.strerror or exc}); "
                "give --state a directory you can write to"
            ) from exc
        sink.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root.setLevel(logging.INFO)
    else:
        sink = logging.NullHandler()
        root.setLevel(logging.WARNING)
    root.addHandler(sink)
