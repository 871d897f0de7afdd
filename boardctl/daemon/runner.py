"""The daemon: a profile's sensors and LEDs, the controller, the store, the
control socket and systemd, wired together and run until stopped.

The controller's loop runs on the thread that calls :meth:`Daemon.run` (the
main thread under ``boardctl run``). Sensor sources and the control socket only
queue events for it. systemd hears ``READY=1`` once the sensors answered and
the board was read, or once the board shows that they do not (the
microcontroller unplugged: the daemon is up, shows the fault and plays as soon
as they answer), its ``STATUS=`` whenever that changes, and a watchdog ping on
every turn of the loop. SIGTERM and
SIGINT stop the loop: the LEDs go dark and the store, which holds every action
already, is closed.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import date, datetime
from pathlib import Path
from types import FrameType
from typing import Any

from boardctl.board import BoardProfile, unfit
from boardctl.config import Config, options_text
from boardctl.controller.collecting import Collector
from boardctl.controller.control import DEFAULT_SOCKET, ControlError, ControlServer, SocketInUse
from boardctl.controller.hours import OpeningHours
from boardctl.controller.kept import KeptSettings
from boardctl.controller.lighting import Configured, Lighting
from boardctl.controller.loop import LedOutput, Loop
from boardctl.controller.machine import Controller, Timing
from boardctl.controller.phones import Phones
from boardctl.controller.scenes import Colours
from boardctl.controller.store import Store
from boardctl.controller.view import Phase
from boardctl.daemon.chance import RandomChance
from boardctl.daemon.sound import Sounder
from boardctl.daemon.statistics import Statistics
from boardctl.daemon.systemd_notify import Notifier
from boardctl.daemon.thinker import ProcessThinker
from boardctl.daemon.timesync import ClockWatch
from boardctl.engines import Engine, Match, create
from boardctl.errors import BadOptions, BoardctlError, ConfigError
from boardctl.sensing import SensorSource
from boardctl.sound.settings import SoundSettings

log = logging.getLogger(__name__)

#: the game database inside the state directory
DATABASE = "games.db"
#: where every finished game is also kept as a game record file
RECORDS = "records"


def configure_logging(level: str, environ: dict[str, str] | None = None) -> None:
    """Log to stderr; without timestamps when journald (which adds its own) reads it."""
    env = os.environ if environ is None else environ
    journal = bool(env.get("JOURNAL_STREAM"))
    fmt = "%(levelname)s %(name)s: %(message)s"
    if not journal:
        fmt = "%(asctime)s " + fmt
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter(fmt))
    root.addHandler(handler)
    root.setLevel(level.upper())
    # the state machine library reports every transition at INFO: the journal
    # (on an SD card) needs only its warnings, unless debugging was asked for
    quiet = logging.DEBUG if root.level <= logging.DEBUG else logging.WARNING
    logging.getLogger("transitions").setLevel(quiet)


#: the lock file in the state directory: held while a daemon uses the folder
LOCK = "boardctl.lock"


class StateInUse(BoardctlError, RuntimeError):
    """Another daemon or simulator already uses this state folder."""


@contextlib.contextmanager
def lock_state_dir(state_dir: Path, config: Config | None = None) -> Iterator[None]:
    """Hold an exclusive lock on ``state_dir`` (made if missing) while in the
    block; :class:`StateInUse` naming the folder and the holder's pid if
    another process or daemon holds it. The lock goes with the process."""
    where = "[storage] state_dir"
    if config is not None:
        where = config.where.get(("storage", "state_dir"), where)
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(state_dir / LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise ConfigError(
            f"{where}: cannot use the state folder {state_dir}: {exc.strerror or exc}; "
            "give a folder boardctl may create and write"
        ) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
            raise StateInUse(
                f"the state folder {state_dir} is in use by another boardctl (pid {holder}): "
                "stop that one first (`sudo systemctl stop boardctl` for the service), or "
                "give this one a folder of its own (--set storage.state_dir=DIR, "
                "`boardctl sim --state DIR`)"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)


def fitting(profile: BoardProfile) -> Callable[[str, Mapping[str, Any]], Engine[Any, Any]]:
    """The controller's engines for ``profile``: a game whose options make
    another board than this one (another grid size, other board data) is
    refused before it begins, with what does not fit."""

    def make(game: str, options: Mapping[str, Any]) -> Engine[Any, Any]:
        engine = create(game, options)
        why = unfit(profile, engine.board().site_kinds)
        if why is not None:
            shown = options_text(engine.options_json())
            raise BadOptions(f"{game} with the options {shown} cannot be played here: {why}")
        return engine

    return make


def plays(config: Config, profile: BoardProfile) -> str:
    """The game this board plays: the configuration's, else its profile's."""
    return config.board.game or profile.game


#: a stored game: its name, options and moves (``Store.current``)
StoredGame = tuple[str, dict[str, Any], list[str]]


def resumable(
    stored: StoredGame | None, config: Config, profile: BoardProfile
) -> StoredGame | None:
    """The stored unfinished game ``(game, options, moves)`` if the board still
    plays that game and its moves replay; None when it now plays another, its
    options do not fit this board or this version's rules refuse a move (the
    daemon then keeps the stored one as abandoned, says why, and begins a new
    one)."""
    if stored is None or stored[0] != plays(config, profile):
        return None
    try:
        Match.from_moves(fitting(profile)(stored[0], stored[1]), stored[2])
    except BoardctlError as exc:
        log.warning("the unfinished %s game cannot go on here: %s", stored[0], exc)
        return None
    return stored


@dataclass(slots=True)
class Hardware:
    """The daemon's sensing and LED output, opened together."""

    sensors: SensorSource
    leds: Any  # hardware.leds.LedStrip: open(), show(frame), close()
    #: the serial link to the microcontroller, when there is one (the sensors may
    #: be it, or it combined with the GPIO buttons)
    link: Any = None
    #: the audio output (hardware.audio: the speaker, the recording twin); None
    #: opens the one ``[sound] device`` names
    audio: Any = None


def open_hardware(
    profile: BoardProfile, config: Config | None = None, *, pin_factory: Any = None
) -> Hardware:
    """The real backends the profile names (imported only now): the serial link
    to the microcontroller or GPIO sensing, and the LED chain (on the serial
    link when its backend is ``serial``). ``config``'s ``[serial]`` overrides
    the profile's port and speed. With serial sensing, the profile's buttons are
    read through GPIO (gpiozero's ``pin_factory``) alongside the link."""
    from hardware.leds import create_strip

    link = None
    sensors: SensorSource
    if profile.sensing == "serial":
        from firmware_bridge.host import SerialSensorSource
        from hardware.gpio_sensing import CombinedSource, open_button_source

        settings = profile.sensing_settings
        port = config.serial.port if config is not None else ""
        baudrate = config.serial.baudrate if config is not None else 0
        serial_source = SerialSensorSource(
            port or str(settings.get("port", "/dev/boardctl-mcu")),
            baudrate=baudrate or int(settings.get("baudrate", 115200)),
            expected_sensors=profile.channel_count,
        )
        sensors = serial_source
        link = serial_source
        buttons = open_button_source(profile, pin_factory=pin_factory)
        if buttons is not None:
            sensors = CombinedSource(serial_source, buttons)
    else:
        from hardware.gpio_sensing import open_sensor_source

        sensors = open_sensor_source(profile, pin_factory=pin_factory)
    return Hardware(sensors, create_strip(profile.leds, link=link, profile=profile), link)


def board_for(profile: BoardProfile, config: Config) -> BoardProfile:
    """The profile with the configuration's overrides (LED brightness)."""
    if config.leds.brightness < 0:
        return profile
    return replace(profile, leds=replace(profile.leds, brightness=config.leds.brightness))


def timing_of(config: Config) -> Timing:
    c = config.controller
    return Timing(
        settle=c.settle_ms / 1000,
        amend=c.amend_ms / 1000,
        grace=c.grace_ms / 1000,
        attract_after=float(c.attract_after_s),
        abandon_after=float(c.abandon_after_s),
        finished_after=float(c.finished_after_s),
    )


class Daemon:
    """Runs one board. ``hardware`` replaces the profile's backends (the
    simulator passes its twins); ``notifier`` replaces systemd's."""

    def __init__(
        self,
        config: Config,
        profile: BoardProfile,
        *,
        hardware: Hardware | None = None,
        notifier: Notifier | None = None,
        on_frame: Callable[[Any], None] | None = None,
        hands: Callable[[str | None], Mapping[str, str]] | None = None,
    ) -> None:
        self.config = config
        config.check_board(profile)
        self.profile = board_for(profile, config)
        self.hardware = hardware
        self.notifier = notifier or Notifier()
        self.on_frame = on_frame
        #: the simulator's hands, for the web page's sim (``[web] listen``)
        self.hands = hands
        self.web: Any = None
        #: the board on its broker, when [mqtt] broker is set
        self.fleet: Any = None
        self.loop: Loop | None = None
        self.ready = threading.Event()
        self._stop_requested = threading.Event()
        self._last_ping = 0.0
        self._shown_status = ""
        self._loop_ready = threading.Event()

    # -- public ---------------------------------------------------------------
    def run(self) -> int:
        """Run until :meth:`stop` or a signal; returns the exit status."""
        with self._running() as loop:
            if self._stop_requested.is_set():
                loop.stop()
            loop.run()
        log.info("stopped; the LEDs are dark and the game is saved")
        return 0

    def stop(self) -> None:
        """Ask the loop to stop (thread- and signal-safe)."""
        self._stop_requested.set()
        if self.loop is not None:
            self.loop.stop()

    def install_signal_handlers(self) -> None:
        def handle(signum: int, frame: FrameType | None) -> None:
            log.info("%s received: stopping", signal.Signals(signum).name)
            self.notifier.stopping()
            self.stop()

        signal.signal(signal.SIGTERM, handle)
        signal.signal(signal.SIGINT, handle)

    # -- wiring ------------------------------------------------------------------
    @contextlib.contextmanager
    def _running(self) -> Iterator[Loop]:
        """Check and take everything before changing anything: the state
        folder's lock, the control socket, the LEDs and the sensors, the game
        database; only then may the stored game be abandoned or a new one begun."""
        cfg = self.config
        state_dir = Path(cfg.storage.state_dir)
        broker = None
        if cfg.mqtt.broker:
            from boardctl.fleet.start import connection_of

            broker = connection_of(cfg)  # the password file read before anything starts
        with contextlib.ExitStack() as stack:
            stack.enter_context(lock_state_dir(state_dir, cfg))
            try:
                control = ControlServer(
                    cfg.control.socket, self._submit, mode=int(cfg.control.mode, 8)
                )
            except SocketInUse:
                raise
            except ControlError as exc:
                where = cfg.where.get(("control", "socket"), "[control] socket")
                raise ConfigError(
                    f"{where}: {exc}; set control.socket to a path in a directory boardctl "
                    f"may create or write, e.g. {DEFAULT_SOCKET}"
                ) from None
            stack.callback(control.close)
            hardware = self.hardware or open_hardware(self.profile, cfg)
            hardware.leds.open()
            stack.callback(hardware.leds.close)
            relay = _Relay()  # the sensors start now; the loop takes their events later
            hardware.sensors.start(relay)
            stack.callback(hardware.sensors.close)
            clock_set = ClockWatch()
            store = stack.enter_context(
                Store(
                    state_dir / DATABASE,
                    records_dir=state_dir / RECORDS,
                    synchronised=clock_set,
                )
            )
            lighting = Lighting(
                Configured(self.profile.leds.brightness, OpeningHours.parse(cfg.schedule.hours)),
                local=lambda: datetime.now().astimezone(),
                synchronised=clock_set,
                dim=getattr(hardware.leds, "set_brightness", None),
                keeper=stack.enter_context(KeptSettings(state_dir / DATABASE)),
            )
            game = cfg.board.game or None
            stored = store.current()
            resume = resumable(stored, cfg, self.profile)
            if stored is not None and stored[0] != plays(cfg, self.profile):
                log.warning(
                    "the unfinished %s game is kept as abandoned: this board now plays %s",
                    stored[0],
                    plays(cfg, self.profile),
                )
            if resume is not None:
                log.info("resuming %s after %d moves", resume[0], len(resume[2]))
            # the computer's thinking: its process starts when a game first needs it
            thinker = stack.enter_context(ProcessThinker(max_seconds=cfg.computer.max_seconds))
            # the seats played on a phone's private page, when there are web pages
            phones = Phones() if cfg.web.listen else None
            # the seats played at other boards, through the broker
            remote = None
            if broker is not None:
                from boardctl.fleet.remote import RemoteLink

                remote = RemoteLink(broker.board_id)
            controller = Controller(
                self.profile,
                game=game,
                options=dict(cfg.game_options) if cfg.game_options or game else None,
                timing=timing_of(cfg),
                recorder=store,
                resume=resume,
                # an operator gives the outcomes a person may know; secret ones are drawn
                chance=RandomChance(),
                chance_on_button=cfg.controller.chance == "button",
                chance_by_operator=cfg.controller.chance == "operator",
                seed=store.seed() if resume is not None else None,
                seats=cfg.seats,
                resume_seats=store.seats() if resume is not None else None,
                resume_plans=store.resume_plans() if resume is not None else None,
                thinker=thinker,
                remote=remote,
                phone=phones,
                seeds=RandomChance().new_seed,
                engines=fitting(self.profile),
            )
            output: LedOutput = hardware.leds
            if self.on_frame is not None:
                output = _Tee(hardware.leds, self.on_frame)
            palette = Colours(cfg.leds.palette, self.profile.palette, self.profile.palette_note)
            interval = self.notifier.watchdog_interval
            loop = Loop(
                controller,
                output,
                palette=palette,
                frame_rate=cfg.controller.frame_rate_hz,
                store=store,
                watchdog=self._turned,
                watchdog_interval=min(1.0, interval / 4) if interval else 1.0,
                lighting=lighting,
                collector=Collector(),
            )
            # the sound beside the LEDs: heard on a thread of its own, which tells the
            # pages' publisher (below) when it keeps new sounds
            sounder = stack.enter_context(open_sound(cfg, hardware, clock_set, state_dir))
            loop.watchers.insert(0, sounder)
            loop.reports["sound"] = sounder.report
            loop.commands["sound"] = sounder.command
            statistics = Statistics(state_dir / DATABASE)
            if broker is not None:
                from boardctl.fleet.start import start_fleet

                self.fleet = start_fleet(
                    broker,
                    self.profile,
                    loop,
                    store,
                    remote,
                    stats=statistics.summary,
                )
                stack.callback(self.fleet.close)
            if cfg.web.listen:
                from boardctl.web.start import start_web

                self.web = start_web(
                    cfg,
                    self.profile,
                    loop,
                    hands=self.hands,
                    stats=statistics,
                    phones=phones,
                    venue=self.fleet.venue.snapshot if self.fleet is not None else None,
                    venue_stats=(
                        (lambda: self.fleet.venue.stats(date.today()))
                        if self.fleet is not None
                        else None
                    ),
                    voiced=sounder.voiced,
                )
                stack.callback(self.web.close)
                sounder.told.append(self.web.publisher.refresh)
            self.notifier.status(f"waiting for the sensors of {self.profile.name}")
            thinker.attach(loop.emit)
            relay.attach(loop.emit)
            log.info(
                "board %s (%s) playing %s; control socket %s",
                self.profile.name,
                self.profile.source or "built in",
                controller.engine.name,
                cfg.control.socket,
            )
            self.loop = loop
            self._loop_ready.set()
            yield loop

    def _submit(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """The control socket's requests, for the loop once it runs."""
        loop = self.loop
        if loop is None or not self._loop_ready.is_set():
            return {"ok": False, "error": "the controller is starting; ask again in a moment"}
        return loop.submit(body)

    def _status_text(self, loop: Loop) -> str:
        controller = loop.controller
        if controller.state is Phase.FAULT:
            reason = controller.fault or "the sensors do not answer"
            return f"fault: {reason}"
        if not controller.have_snapshot:
            return f"waiting for the sensors of {self.profile.name}"
        return f"playing {controller.engine.name}"

    def _turned(self) -> None:
        """Called by the loop on every turn: readiness and status, then watchdog pings."""
        loop = self.loop
        if loop is None:
            return
        status = self._status_text(loop)
        if not self.ready.is_set() and (
            loop.controller.have_snapshot or loop.controller.state is Phase.FAULT
        ):
            self.ready.set()
            self._shown_status = status
            self.notifier.ready(status)
            if loop.controller.have_snapshot:
                log.info("ready: the sensors answered and the board was read")
            else:
                log.info("ready, showing the fault until the sensors answer")
        elif self.ready.is_set() and status != self._shown_status:
            self._shown_status = status
            self.notifier.status(status)
        now = time.monotonic()
        interval = self.notifier.watchdog_interval
        if interval and now - self._last_ping >= interval / 4:
            self._last_ping = now
            self.notifier.watchdog()


@contextlib.contextmanager
def open_sound(
    cfg: Config, hardware: Hardware, synchronised: Callable[[], bool], state_dir: Path
) -> Iterator[Sounder]:
    """The sound of ``cfg``'s ``[sound]``: the hardware's audio output (the
    simulator's twin) or the speaker ``[sound] device`` names, the voice, the
    worker; stopped at the end of the block."""
    from hardware.audio import Speaker, open_speaker
    from hardware.audio.espeak import Espeak

    s = cfg.sound
    configured = SoundSettings(s.cues, s.voice, s.volume, OpeningHours.parse(s.quiet))
    output, note = (hardware.audio, None) if hardware.audio is not None else open_speaker(s.device)
    if note is not None:
        log.info("sound: %s", note)
    voice = Espeak()
    with contextlib.ExitStack() as stack:
        speaker = None
        if output is not None:
            speaker = stack.enter_context(Speaker(output, voice))
        keeper = stack.enter_context(KeptSettings(state_dir / DATABASE))
        sounder = Sounder(
            configured,
            speaker,
            local=lambda: datetime.now().astimezone(),
            synchronised=synchronised,
            keeper=keeper,
            note=note,
            device=s.device if hardware.audio is None else "simulated",
            voice=voice,
            # the voice speaks the board's language ([board] language)
            language=lambda: cfg.board.language,
        )
        yield stack.enter_context(sounder)


class _Relay:
    """The sensors' ``emit`` before the loop exists: events are held, in
    order, until :meth:`attach` hands them (and every later one) to the loop.
    So the sensors start before anything is changed, and a failure to start
    them changes nothing."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: list[Any] = []
        self._emit: Callable[[Any], None] | None = None

    def __call__(self, event: Any) -> None:
        with self._lock:
            if self._emit is None:
                self._held.append(event)
                return
            emit = self._emit
        emit(event)

    def attach(self, emit: Callable[[Any], None]) -> None:
        with self._lock:
            for event in self._held:
                emit(event)
            self._held.clear()
            self._emit = emit


class _Tee:
    """Shows each frame on the strip and hands it to a watcher too."""

    def __init__(self, strip: LedOutput, watcher: Callable[[Any], None]) -> None:
        self._strip = strip
        self._watcher = watcher

    def show(self, frame: Any) -> None:
        self._strip.show(frame)
        self._watcher(frame)
