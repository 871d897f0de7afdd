"""A simulated board running the real daemon: the virtual microcontroller on a
real pty as the sensor source, the simulated LED strip, and hands that play.

:class:`Simulation` starts :class:`~boardctl.daemon.runner.Daemon` on a thread of
its own with ``SerialSensorSource(vmcu.port)`` (the same serial link a real
board uses, pyserial included) and a :class:`~hardware.leds.SimStrip`, with its
state directory and control socket in a temporary directory (or a kept one).
The hands (:meth:`Simulation.hands`) change the virtual microcontroller's
sensors one channel at a time, as fingers would, and wait until the firmware
has reported each change; questions and commands go through the control socket,
exactly as ``boardctl status`` sends them.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardctl import config
from boardctl.board import BoardProfile
from boardctl.errors import BoardctlError
from boardctl.sensing import Emit, SensorChange, SensorEvent, SensorSnapshot
from boardctl.sim import board, hands
from boardctl.sim.hands import Change, HandCommand

if TYPE_CHECKING:
    from boardctl.controller.scenes import Palette

log = logging.getLogger(__name__)

RGB = tuple[int, int, int]

#: how long the simulated link may stay silent before either end calls it
#: down, in seconds. The microcontroller's twin runs in this process: a
#: silence means the machine is busy, not that a cable was pulled (a pulled
#: cable closes the port, which is seen at once), so it is longer than a real
#: board's 0.75 s
SILENCE = 5.0


class SimError(BoardctlError, RuntimeError):
    """The simulated board or its daemon did not do what was asked in time."""


#: the signals that end the simulator (a closed terminal, SIGTERM, Ctrl-C)
ENDING_SIGNALS = tuple(
    sig
    for sig in (getattr(signal, "SIGHUP", None), signal.SIGTERM, signal.SIGINT)
    if sig is not None
)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """While the simulation shuts down, a hang-up, SIGTERM or Ctrl-C is ignored
    rather than raised in the middle of it (a closed terminal sends SIGHUP just
    after the prompt's read has failed): the daemon stops, the socket goes and
    the temporary directories are removed all the same. Only the main thread
    can do this; elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, signal.SIG_IGN) for sig in ENDING_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def state_directory(path: str | Path) -> Path:
    """The directory of ``--state DIR``, created with its parents if it does not exist."""
    where = Path(path)
    if where.exists() and not where.is_dir():
        raise SimError(
            f"--state {path}: this is a file, not a directory; give a directory "
            "(one that does not exist yet is created)"
        )
    try:
        where.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SimError(
            f"--state {path}: cannot create the directory ({exc.strerror or exc}); "
            "give a directory you can write to"
        ) from exc
    return where


def default_profile(game: str) -> str:
    """The board ``game`` is simulated on when none is named: its reference
    board among the shipped profiles
    (:func:`hardware.profiles.reference_profile`)."""
    from boardctl.engines import GAMES
    from hardware.profiles import builtin_profiles, reference_profile

    found = reference_profile(game)
    if found is None:
        playable = [g for g in GAMES if reference_profile(g) is not None]
        raise SimError(
            f"no shipped board plays {game!r}; the games with one are {', '.join(playable)} "
            f"(the shipped boards are {', '.join(builtin_profiles())}); "
            "give a board of your own with --profile FILE"
        )
    return found


class Tap:
    """A sensor source passed through: every event goes on to the daemon, and
    the readings it was sent are kept, so the hands know when the daemon has
    seen what they did."""

    def __init__(self, source: Any) -> None:
        self.source = source
        self.values: list[int] = []
        self._cond = threading.Condition()
        self._emit: Emit | None = None

    def start(self, emit: Emit) -> None:
        self._emit = emit
        self.source.start(self._pass)

    def close(self) -> None:
        self.source.close()

    def _pass(self, event: SensorEvent) -> None:
        assert self._emit is not None
        with self._cond:
            if isinstance(event, SensorSnapshot):
                self.values = list(event.values)
            elif isinstance(event, SensorChange) and event.channel < len(self.values):
                self.values[event.channel] = event.value
            self._cond.notify_all()
        self._emit(event)

    def wait_values(self, predicate: Callable[[list[int]], bool], timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: predicate(self.values), timeout)


class Simulation:
    """One simulated board with the daemon running it. A context manager.

    ``game`` and ``profile`` (a name or a file; the game's reference board by
    default) choose the board; ``overrides`` are ``section.key=value`` settings;
    ``state_dir`` keeps the games (a temporary directory by default);
    ``play`` plays the board's sound on this machine's speaker too (it is
    always recorded: :attr:`audio`).
    """

    def __init__(
        self,
        game: str | None = None,
        profile: str | None = None,
        *,
        overrides: Sequence[str] = (),
        state_dir: str | Path | None = None,
        options: Mapping[str, Any] | None = None,
        config_path: str | Path | None = None,
        play: bool = False,
    ) -> None:
        self.play = play
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if state_dir is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="boardctl-sim-")
            state_dir = self._tmp.name
        try:
            self.state_dir = state_directory(state_dir)
            self.profile, self.config = _configure(
                game, profile, overrides, self.state_dir, options, config_path
            )
        except BaseException:
            self._remove_temporary()
            raise
        self.layout: dict[str, str] = {}
        self.frame: tuple[RGB, ...] | None = None
        #: counts frames (and failures): what waiters watch for news
        self.news = 0
        self._news = threading.Condition()
        self._stack = contextlib.ExitStack()
        self._thread: threading.Thread | None = None
        self._failure: BaseException | None = None
        self.daemon: Any = None
        self.vmcu: Any = None
        self.tap: Tap | None = None
        self.strip: Any = None
        #: the recording twin of the speaker: what was played and said, with times
        self.audio: Any = None

    # -- life cycle ---------------------------------------------------------------
    def __enter__(self) -> Simulation:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self, timeout: float = 10.0) -> None:
        """Put the resumed game's pieces on the board, start the daemon, wait until ready."""
        from boardctl.daemon.runner import Daemon, Hardware
        from boardctl.daemon.systemd_notify import Notifier
        from firmware_bridge.host import SerialSensorSource
        from firmware_bridge.virtual import VirtualMicrocontroller, kinds_for
        from hardware.audio import AplayOutput, RecordingAudio
        from hardware.leds import SimStrip, simulated

        profile = self.profile
        self.layout = self._resumed_layout()
        self.vmcu = self._stack.enter_context(
            VirtualMicrocontroller(
                channels=profile.channel_count,
                leds=profile.leds.count,
                kinds=kinds_for(profile),
                board_id="sim",
                host_silence_ms=int(SILENCE * 1000),
            )
        )
        for channel, value in enumerate(board.values_of(profile, self.layout)):
            if value:
                self.vmcu.place(channel, value)
        self.vmcu.reset()
        source = SerialSensorSource(
            self.vmcu.port, expected_sensors=profile.channel_count, silence=SILENCE
        )
        self.tap = Tap(source)
        self.strip = SimStrip(simulated(profile.leds), profile)
        self.audio = RecordingAudio(AplayOutput() if self.play else None)
        self.daemon = Daemon(
            self.config,
            profile,
            hardware=Hardware(self.tap, self.strip, audio=self.audio),
            notifier=Notifier(environ={}),
            on_frame=self._on_frame,
            hands=self.hands_by_page,
        )
        self._thread = threading.Thread(target=self._run, name="boardctl-daemon", daemon=True)
        self._thread.start()
        ready = self.daemon.ready.wait(timeout)  # also set when the daemon fails
        if self._failure is not None:
            if isinstance(self._failure, BoardctlError):
                raise self._failure  # its own words: a folder in use, a damaged database
            raise SimError(f"the daemon did not start: {self._failure}")
        if not ready:
            raise SimError(f"the daemon did not become ready within {timeout} s")

    def close(self) -> None:
        """Stop the daemon and remove what it made; closing again does nothing more."""
        with signals_held():
            if self.daemon is not None:
                self.daemon.stop()
            if self._thread is not None:
                self._thread.join(timeout=10)
                self._thread = None
            self._stack.close()
            self._remove_temporary()

    def _remove_temporary(self) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def _run(self) -> None:
        try:
            self.daemon.run()
        except BaseException as exc:  # shown to the person, not lost in a thread
            if isinstance(exc, BoardctlError):
                log.error("the daemon stopped: %s", exc)
            else:
                log.exception("the daemon stopped")
            self._failure = exc
            self.daemon.ready.set()  # wakes start(), which reports the failure
            with self._news:
                self.news += 1
                self._news.notify_all()

    def _resumed_layout(self) -> dict[str, str]:
        """The board as it was left: the pieces of the game the store resumes
        (none when that game is not the one this board plays)."""
        from boardctl.controller.store import Store
        from boardctl.daemon.runner import DATABASE, plays, resumable
        from boardctl.engines import Match, create

        db = self.state_dir / DATABASE
        if not db.exists():
            return {}
        with Store(db) as store:
            stored = store.current()
        current = resumable(stored, self.config, self.profile)
        if current is None:
            if stored is not None:
                # the daemon keeps that game as abandoned and begins one of this
                # board's game: the hands start from an empty board
                log.info(
                    "the unfinished %s game stays in the store: this board plays %s",
                    stored[0],
                    plays(self.config, self.profile),
                )
            return {}
        game, options, moves = current
        match = Match.from_moves(create(game, options), moves)
        return dict(match.engine.layout(match.state))

    def _on_frame(self, frame: Any) -> None:
        with self._news:
            self.frame = tuple(frame)
            self.news += 1
            self._news.notify_all()

    def wait_news(self, seen: int, timeout: float) -> int:
        """Wait until a frame newer than number ``seen`` was shown (or ``timeout``)."""
        with self._news:
            self._news.wait_for(lambda: self.news != seen, timeout)
            return self.news

    @property
    def palette(self) -> Palette:
        """The palette the game played now is lit in, as the daemon chooses
        it: the configured colours, else the board's, else the pieces'."""
        from boardctl.controller.scenes import Colours

        loop = self.daemon.loop if self.daemon is not None else None
        if loop is not None:
            return loop.palette
        spec = board.spec_of(self.profile.game, self.profile.game_options)
        colours = Colours(self.config.leds.palette, self.profile.palette, self.profile.palette_note)
        return colours.palette(spec.players)

    @property
    def lights(self) -> tuple[RGB, ...]:
        """The players' LED colours (the palette's)."""
        return self.palette.players

    @property
    def temporary(self) -> bool:
        """True when the state directory is a temporary one of this simulation's own."""
        return self._tmp is not None

    @property
    def failure(self) -> BaseException | None:
        return self._failure

    # -- talking to the daemon -------------------------------------------------
    def request(self, body: Mapping[str, Any]) -> dict[str, Any]:
        from boardctl.controller.control import request

        return request(self.config.control.socket, body)

    def status(self, language: str | None = None) -> dict[str, Any]:
        """The controller's status; its texts for people in ``language`` when given
        (the screen's), else English as JSON is."""
        body: dict[str, Any] = {"cmd": "status"}
        if language is not None:
            body["language"] = language
        reply = self.request(body)
        if not reply.get("ok"):
            raise SimError(str(reply.get("error")))
        return reply

    def wait_status(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float
    ) -> dict[str, Any]:
        """The first status that meets ``predicate``; :class:`SimError` after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            seen = self.news
            status = self.status()
            if predicate(status):
                return status
            left = deadline - time.monotonic()
            if left <= 0:
                raise SimError(
                    f"the controller still says {status.get('phase')} "
                    f"({len(status.get('moves', []))} moves) after {timeout} s"
                )
            # a new frame usually means news; look again at least every 50 ms
            self.wait_news(seen, min(left, 0.05))

    # -- the hands ---------------------------------------------------------------
    def plan(self, text: str, mover: int | None, status: Mapping[str, Any]) -> list[Change]:
        """The changes ``text`` makes, in the game ``status`` says is played."""
        spec = board.spec_of(str(status.get("game")), status.get("options") or {})
        return board.plan(self.profile, spec, HandCommand.parse(text), self.layout, mover)

    def apply(self, changes: Sequence[Change], timeout: float = 5.0) -> None:
        """Make ``changes`` on the board one by one, each reported by the
        firmware before the next; then wait until the daemon has the readings."""
        vmcu = self.vmcu
        for change in changes:
            for write in board.writes_for(self.profile, change):
                if write.value:
                    vmcu.place(write.channel, write.value)
                else:
                    vmcu.lift(write.channel)
                if not vmcu.wait_scanned(timeout):
                    raise SimError(f"the virtual microcontroller did not read {change.site}")
            self.layout = hands.apply_changes(self.layout, [change])
        assert self.tap is not None
        wanted = list(vmcu.board)
        if not self.tap.wait_values(lambda values: values == wanted, timeout):
            raise SimError("the daemon did not receive the board's readings in time")

    def hands(self, text: str, mover: int | None = None) -> list[Change]:
        """Do what a hand command says (``insert W3``, ``lift d4``, ...)."""
        status = self.status()
        if mover is None:
            mover = status.get("to_move")
        changes = self.plan(text, mover, status)
        self.apply(changes)
        return changes

    def hands_by_page(self, text: str | None) -> dict[str, str]:
        """The sim page's hands: do ``text`` (None: nothing); what lies on the board then."""
        if text is not None:
            self.hands(text)
        return dict(self.layout)

    def clear_board(self) -> None:
        """Take every piece off the board."""
        self.apply([Change(site, None) for site in sorted(self.layout)])

    @property
    def final_after(self) -> float:
        """Seconds from the board's last change until the action it shows is
        final: read once still for the settle time, amended if the hand goes
        on within the amend window (``boardctl.controller.amending``)."""
        c = self.config.controller
        return max(c.settle_ms, c.amend_ms) / 1000

    @property
    def amend_window(self) -> float:
        """Seconds after its last reading within which a hand going on amends
        the action the board shows (0: no window)."""
        c = self.config.controller
        return c.amend_ms / 1000 if c.amend_ms > c.settle_ms else 0.0

    def settle(self) -> None:
        """Wait until the action the board shows is final, and a little more."""
        threading.Event().wait(self.final_after + 0.05)


def _configure(
    game: str | None,
    profile: str | None,
    overrides: Sequence[str],
    state_dir: Path,
    options: Mapping[str, Any] | None,
    config_path: str | Path | None,
) -> tuple[BoardProfile, config.Config]:
    """The board's profile and the configuration the simulated daemon runs with."""
    from hardware.profiles import load_profile

    name = choose_board(game, profile, overrides, state_dir, config_path)
    loaded = load_profile(name)
    if game is not None and loaded.game != game:
        raise SimError(f"the board {loaded.name} plays {loaded.game}, not {game}")
    settings = [
        f"storage.state_dir={_toml_text(str(state_dir))}",
        f"control.socket={_toml_text(str(state_dir / 'control.sock'))}",
        f"board.profile={_toml_text(name)}",
        *overrides,
    ]
    settings += [f"game.{k}={_toml_value(v)}" for k, v in (options or {}).items()]
    cfg = _load_config(config_path, state_dir, settings)
    cfg.check_board(loaded)  # the game is the board's, as for boardctl run and new
    return loaded, cfg


def choose_board(
    game: str | None,
    profile: str | None,
    overrides: Sequence[str] = (),
    state_dir: Path | None = None,
    config_path: str | Path | None = None,
) -> str:
    """The board to simulate: ``profile`` if given, else the reference board
    of ``game``, else the board the configuration names (the packaged
    default's unless the configuration or ``overrides`` set another)."""
    if profile is not None:
        return profile
    if game is not None:
        return default_profile(game)
    return _load_config(config_path, state_dir, overrides).board.profile


def _load_config(
    config_path: str | Path | None, state_dir: Path | None, settings: Sequence[str]
) -> config.Config:
    # the simulator reads no system configuration unless it is given one; a
    # file it is given must exist, as for boardctl run and config show
    if config_path is not None:
        return config.load(config_path, settings, required=True)
    own = state_dir / "boardctl.toml" if state_dir is not None else Path(os.devnull)
    return config.load(own, settings)


def _toml_text(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _toml_text(value)
    return repr(value)
