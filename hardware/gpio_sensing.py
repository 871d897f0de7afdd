"""Sensors and control buttons read through the Pi's GPIO, with gpiozero.

Two sources, both emitting the typed events of :mod:`boardctl.sensing`:

- :class:`PinSource`: one GPIO pin per sensor (reed switches, hall sensors,
  light gates), gpiozero input devices with their edge callbacks;
- :class:`ShiftRegisterSource`: chained 74HC165 parallel-in shift registers,
  loaded and clocked through three GPIO pins, polled. The same chain can be
  clocked by the SPI peripheral instead, for less CPU:
  :class:`hardware.spi_sensing.SpiShiftRegisterSource`, on the same
  :class:`PolledSource` base.

Both take the café board's buttons (``new``, ``undo``, ``mode``) too. On start
a source emits ``LinkUp`` and a ``SensorSnapshot``, then a ``SensorChange`` for
every settled change and a ``ButtonPress`` for every press.

Debouncing is a settle time: a sensor's new reading is reported once the line
has kept it for ``debounce`` seconds, so a marble that rocks as it lands gives
one change, and the reading reported is always the final one. (gpiozero's
``bounce_time`` ignores edges after the first one, which can leave the last,
true, level unreported, and is not simulated by its MockFactory.) A light gate
(``pulse_channels``) is reported the moment it is interrupted, so a marble
rolling through is never missed; its release then settles like any reading. A
button counts as pressed when its line had been still for the settle time
before, so the bounces of a press and of a release are ignored.

The pin factory is gpiozero's: the default one on a Pi, ``MockFactory()`` in
tests and simulations (see :class:`Sim74HC165Chain` for the shift registers).
"""

from __future__ import annotations

import logging
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any

from boardctl.board import BoardProfile, Reports
from boardctl.sensing import ButtonPress, Emit, LinkDown, LinkUp, SensorChange, SensorSnapshot
from hardware.errors import HardwareError, HardwareUnavailable

log = logging.getLogger(__name__)

Clock = Callable[[], float]


def _pin_library_errors() -> tuple[type[BaseException], ...]:
    """The errors of the pin libraries under gpiozero that are none of its own, nor
    OSError or RuntimeError: lgpio's ``error`` ("GPIO busy" when another process
    has claimed the pin). Empty where the library is not installed."""
    try:
        import lgpio  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        return ()
    error = getattr(lgpio, "error", None)
    if isinstance(error, type) and issubclass(error, BaseException):
        return (error,)
    return ()


class Debouncer:
    """Settles raw levels into reported readings. Pure: the caller passes the time.

    ``update`` takes a raw level and returns what must be reported at once (a
    light gate's interruption); ``due`` returns the readings that have settled
    by ``now``; ``next_deadline`` says when to call ``due`` next.
    """

    def __init__(
        self, initial: Sequence[int], settle: float, pulse_channels: Iterable[int] = ()
    ) -> None:
        self.settle = settle
        self.reported = list(initial)
        self.pulse_channels = frozenset(pulse_channels)
        self._pending: dict[int, tuple[int, float]] = {}

    def update(self, channel: int, level: int, now: float) -> list[tuple[int, int]]:
        if level == self.reported[channel]:
            self._pending.pop(channel, None)
            return []
        if channel in self.pulse_channels and level:
            self._pending.pop(channel, None)
            self.reported[channel] = level
            return [(channel, level)]
        pending = self._pending.get(channel)
        if pending is None or pending[0] != level:
            # a new level starts its settle time; the same level seen again does not
            self._pending[channel] = (level, now)
        return []

    def due(self, now: float) -> list[tuple[int, int]]:
        settled = [
            (ch, level)
            for ch, (level, since) in self._pending.items()
            if now >= since + self.settle
        ]
        for ch, level in settled:
            del self._pending[ch]
            self.reported[ch] = level
        return sorted(settled)

    def next_deadline(self) -> float | None:
        if not self._pending:
            return None
        return min(since for _, since in self._pending.values()) + self.settle


class _GpioSource:
    """What both GPIO sources share: buttons, the debouncer, the worker thread."""

    description = "gpio"

    def __init__(
        self,
        *,
        debounce: float,
        pulse_channels: Iterable[int],
        buttons: Mapping[str, int],
        pin_factory: Any,
        clock: Clock,
    ) -> None:
        self.debounce = debounce
        self.pulse_channels = frozenset(pulse_channels)
        self.buttons = dict(buttons)
        self.pin_factory = pin_factory
        self.clock = clock
        self._devices: list[Any] = []
        self._lock = threading.Condition()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._emit: Emit | None = None
        self._debouncer: Debouncer | None = None
        self._button_edges: dict[str, float] = {}

    # -- lifecycle

    def start(self, emit: Emit) -> None:
        if self._thread is not None:
            raise HardwareError(f"{self.description}: already started")
        self._emit = emit
        try:
            initial = self._open()
            self._open_buttons()
        except BaseException:
            self._release()
            raise
        self._debouncer = Debouncer(initial, self.debounce, self.pulse_channels)
        emit(LinkUp(self.description))
        emit(SensorSnapshot(tuple(initial)))
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=self.description, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        with self._lock:
            self._lock.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
            if self._emit is not None:
                self._emit(LinkDown("closed"))
        self._release()

    def __enter__(self) -> _GpioSource:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _release(self) -> None:
        devices, self._devices = self._devices, []
        for device in reversed(devices):
            device.close()

    def _device(self, cls_name: str, *args: Any, **kwargs: Any) -> Any:
        try:
            import gpiozero
        except ImportError as e:  # pragma: no cover - gpiozero is a dependency
            raise HardwareUnavailable("gpiozero is not installed: pip install gpiozero") from e
        cls = getattr(gpiozero, cls_name)
        # gpiozero tries its pin libraries in turn and warns at each one that fails;
        # those warnings become one message here
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", gpiozero.PinFactoryFallback)
            try:
                device = cls(*args, pin_factory=self.pin_factory, **kwargs)
            except gpiozero.BadPinFactory:
                tried = "; ".join(
                    str(w.message)
                    for w in caught
                    if issubclass(w.category, gpiozero.PinFactoryFallback)
                )
                raise HardwareUnavailable(
                    f"{self.description}: cannot use GPIO {args[0]}: gpiozero found no pin "
                    "library that works here"
                    + (f" ({tried})" if tried else "")
                    + "; on a Raspberry Pi install lgpio into boardctl's environment "
                    "(`pip install lgpio`, or `sudo apt install python3-lgpio`) and run "
                    "boardctl from a directory it may write to (lgpio keeps files there)"
                ) from None
            except (gpiozero.GPIOZeroError, OSError, RuntimeError, *_pin_library_errors()) as e:
                raise HardwareUnavailable(
                    f"{self.description}: cannot use GPIO {args[0]}: {e}; if another program "
                    "holds the pin (is boardctl.service running? `sudo systemctl stop "
                    "boardctl`), stop it first, and check that the user is in the gpio group"
                ) from None
            finally:
                for w in caught:
                    if issubclass(w.category, gpiozero.PinFactoryFallback):
                        log.debug("%s", w.message)
                    else:
                        warnings.showwarning(w.message, w.category, w.filename, w.lineno)
        self._devices.append(device)
        return device

    def _open_buttons(self) -> None:
        for name, pin in self.buttons.items():
            button = self._device("Button", pin, pull_up=True, bounce_time=None)
            button.when_pressed = lambda name=name: self._button_edge(name, pressed=True)
            button.when_released = lambda name=name: self._button_edge(name, pressed=False)

    def _button_edge(self, name: str, *, pressed: bool) -> None:
        now = self.clock()
        with self._lock:
            last = self._button_edges.get(name, float("-inf"))
            self._button_edges[name] = now
        if pressed and now - last >= self.debounce and self._emit is not None:
            self._emit(ButtonPress(name))

    # -- readings

    def _edge(self, channel: int, level: int) -> None:
        """A raw level seen on a channel (from a callback or a poll)."""
        if self._debouncer is None or self._emit is None:
            return
        with self._lock:
            now_events = self._debouncer.update(channel, level, self.clock())
            self._lock.notify_all()
        for ch, value in now_events:
            self._emit(SensorChange(ch, value))

    def _settle(self) -> float | None:
        """Emit what has settled; return when to look again."""
        assert self._debouncer is not None and self._emit is not None
        with self._lock:
            settled = self._debouncer.due(self.clock())
            deadline = self._debouncer.next_deadline()
        for ch, value in settled:
            self._emit(SensorChange(ch, value))
        return deadline

    def _run(self) -> None:
        while not self._stop.is_set():
            deadline = self._settle()
            with self._lock:
                if self._stop.is_set():
                    break
                timeout = None if deadline is None else max(0.0, deadline - self.clock())
                if timeout is None or timeout > 0:
                    self._lock.wait(timeout)

    def _open(self) -> list[int]:
        raise NotImplementedError


class PinSource(_GpioSource):
    """One sensor per GPIO pin: channel ``n`` is ``pins[n]``.

    With ``pull_up`` (the default) a piece closes the line to ground: it reads
    1 when the pin is low."""

    description = "gpio pins"

    def __init__(
        self,
        pins: Sequence[int],
        *,
        pull_up: bool = True,
        debounce: float = 0.02,
        pulse_channels: Iterable[int] = (),
        buttons: Mapping[str, int] | None = None,
        pin_factory: Any = None,
        clock: Clock = time.monotonic,
    ) -> None:
        super().__init__(
            debounce=debounce,
            pulse_channels=pulse_channels,
            buttons=buttons or {},
            pin_factory=pin_factory,
            clock=clock,
        )
        self.pins = tuple(pins)
        self.pull_up = pull_up

    def _open(self) -> list[int]:
        initial = []
        for channel, pin in enumerate(self.pins):
            device = self._device("DigitalInputDevice", pin, pull_up=self.pull_up, bounce_time=None)
            device.when_activated = lambda ch=channel: self._edge(ch, 1)
            device.when_deactivated = lambda ch=channel: self._edge(ch, 0)
            initial.append(int(device.is_active))
        return initial


class PolledSource(_GpioSource):
    """A source that reads every channel at once, ``poll_hz`` times a second: a
    74HC165 chain, bit by bit (:class:`ShiftRegisterSource`) or over the SPI bus
    (:class:`hardware.spi_sensing.SpiShiftRegisterSource`). A subclass opens its
    lines in ``_open`` and reads them in ``scan``; an error while polling ends the
    source with ``LinkDown``."""

    def __init__(
        self,
        chips: int,
        *,
        active_low: bool,
        poll_hz: float,
        debounce: float,
        pulse_channels: Iterable[int],
        buttons: Mapping[str, int] | None,
        pin_factory: Any,
        clock: Clock,
    ) -> None:
        super().__init__(
            debounce=debounce,
            pulse_channels=pulse_channels,
            buttons=buttons or {},
            pin_factory=pin_factory,
            clock=clock,
        )
        self.channels = 8 * chips
        self.active_low = active_low
        self.period = 1.0 / poll_hz
        self._last: list[int] | None = None

    def start(self, emit: Emit) -> None:
        self._last = None
        super().start(emit)

    def scan(self) -> list[int]:
        raise NotImplementedError

    def poll(self) -> None:
        """Scan once and take the readings (what the polling thread does)."""
        self._take(self.scan())

    def _take(self, values: list[int]) -> None:
        """Hand the debouncer the readings that changed since the scan before (one
        it has seen again would change nothing), and report what has settled."""
        last = self._last
        for ch, value in enumerate(values):
            if last is None or value != last[ch]:
                self._edge(ch, value)
        self._last = values
        self._settle()

    def _run(self) -> None:
        next_scan = self.clock()
        while not self._stop.is_set():
            try:
                self.poll()
            except Exception as e:  # a pin or bus error must end the source, not the program
                log.exception("reading the shift registers failed")
                if self._emit is not None:
                    self._emit(LinkDown(f"reading the shift registers failed: {e}"))
                return
            next_scan += self.period
            self._stop.wait(max(0.0, next_scan - self.clock()))


class ShiftRegisterSource(PolledSource):
    """Chained 74HC165s: ``load`` to every SH/LD, ``clock`` to every CLK, ``data``
    from QH of the register nearest the Pi (each QH feeds the next one's SER).

    Channel ``n`` is the ``n``-th bit shifted out: 0..7 are inputs H..A of the
    register nearest the Pi, 8..15 those of the next. With ``active_low`` a piece
    pulls its input low."""

    description = "74HC165 chain"

    def __init__(
        self,
        load: int,
        clock: int,
        data: int,
        chips: int,
        *,
        active_low: bool = True,
        poll_hz: float = 200.0,
        debounce: float = 0.02,
        pulse_channels: Iterable[int] = (),
        buttons: Mapping[str, int] | None = None,
        pin_factory: Any = None,
        clock_fn: Clock = time.monotonic,
    ) -> None:
        super().__init__(
            chips,
            active_low=active_low,
            poll_hz=poll_hz,
            debounce=debounce,
            pulse_channels=pulse_channels,
            buttons=buttons,
            pin_factory=pin_factory,
            clock=clock_fn,
        )
        self.load_pin, self.clock_pin, self.data_pin = load, clock, data
        self._pins: tuple[Any, Any, Any] | None = None

    def _open(self) -> list[int]:
        load = self._device("DigitalOutputDevice", self.load_pin, initial_value=True)
        clock = self._device("DigitalOutputDevice", self.clock_pin, initial_value=False)
        data = self._device("InputDevice", self.data_pin, pull_up=False)
        # the pins themselves: 3 * channels operations per scan, gpiozero's devices
        # would add their own overhead to each
        self._pins = (load.pin, clock.pin, data.pin)
        return self.scan()

    def scan(self) -> list[int]:
        """Read every input once: pulse SH/LD low, then shift the bits out."""
        assert self._pins is not None
        load, clock, data = self._pins
        load.state = False
        load.state = True
        invert = self.active_low
        values = []
        for _ in range(self.channels):
            values.append(int(bool(data.state) != invert))
            clock.state = True
            clock.state = False
        return values


class ButtonSource(_GpioSource):
    """Only the café board's buttons on GPIO: one ``ButtonPress`` per push, nothing
    else (no ``LinkUp``, no readings). For a board whose sensors come through the
    serial link; :class:`CombinedSource` joins the two."""

    description = "gpio buttons"

    def __init__(
        self,
        buttons: Mapping[str, int],
        *,
        debounce: float = 0.02,
        pin_factory: Any = None,
        clock: Clock = time.monotonic,
    ) -> None:
        super().__init__(
            debounce=debounce,
            pulse_channels=(),
            buttons=buttons,
            pin_factory=pin_factory,
            clock=clock,
        )

    def start(self, emit: Emit) -> None:
        if self._emit is not None:
            raise HardwareError(f"{self.description}: already started")
        self._emit = emit
        try:
            self._open_buttons()
        except BaseException:
            self._emit = None
            self._release()
            raise

    def close(self) -> None:
        self._emit = None  # a press while the pins close is not reported
        self._release()


class CombinedSource:
    """Several sources read as one: each emits through the same ``emit``; started
    in order (the first one's ``LinkUp`` and snapshot lead), closed in reverse.
    If one cannot start, those already started are closed again."""

    def __init__(self, *sources: Any) -> None:
        self.sources = sources
        self._started: list[Any] = []

    @property
    def description(self) -> str:
        return " + ".join(str(getattr(s, "description", type(s).__name__)) for s in self.sources)

    def start(self, emit: Emit) -> None:
        try:
            for source in self.sources:
                source.start(emit)
                self._started.append(source)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        started, self._started = self._started, []
        for source in reversed(started):
            source.close()

    def __enter__(self) -> CombinedSource:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def open_button_source(profile: BoardProfile, *, pin_factory: Any = None) -> ButtonSource | None:
    """The profile's GPIO buttons alone (for serial sensing), or None without any."""
    if not profile.buttons:
        return None
    debounce = int(profile.sensing_settings.get("debounce_ms", 20)) / 1000
    return ButtonSource(profile.buttons, debounce=debounce, pin_factory=pin_factory)


def open_sensor_source(
    profile: BoardProfile, *, pin_factory: Any = None, spi_factory: Any = None
) -> _GpioSource:
    """The GPIO source a profile describes (``gpio`` or ``shift-register``, read bit
    by bit or over SPI as its ``reader`` says), with its buttons. ``spi_factory``
    makes the SPI device (default ``spidev.SpiDev``). Serial sensing comes from the
    firmware link, not from here."""
    s = profile.sensing_settings
    pulses = [
        x.channel for x in profile.sites if x.reports is Reports.PULSE and x.channel is not None
    ]
    debounce = int(s.get("debounce_ms", 20)) / 1000
    if profile.sensing == "gpio":
        return PinSource(
            s["pins"],
            pull_up=bool(s.get("pull_up", True)),
            debounce=debounce,
            pulse_channels=pulses,
            buttons=profile.buttons,
            pin_factory=pin_factory,
        )
    if profile.sensing == "shift-register":
        polled: dict[str, Any] = {
            "active_low": bool(s.get("active_low", True)),
            "poll_hz": float(s.get("poll_hz", 200)),
            "debounce": debounce,
            "pulse_channels": pulses,
            "buttons": profile.buttons,
            "pin_factory": pin_factory,
        }
        if s.get("reader") == "spi":
            from hardware.spi_sensing import SpiShiftRegisterSource

            return SpiShiftRegisterSource(
                s["load"],
                s["bus"],
                s["chips"],
                device=int(s.get("device", 0)),
                speed_hz=int(s.get("speed_hz", 1_000_000)),
                spi_factory=spi_factory,
                **polled,
            )
        return ShiftRegisterSource(s["load"], s["clock"], s["data"], s["chips"], **polled)
    raise HardwareUnavailable(
        f"{profile.source}: the sensors are read by the microcontroller "
        f"(sensing kind = {profile.sensing!r}); they come through the firmware link"
    )


def watch_pin(factory: Any, number: int, on_change: Callable[[bool], None]) -> Any:
    """A pin of gpiozero's ``MockFactory`` that calls ``on_change(level)`` each time
    the program driving it changes its level, as a chip wired to it would see it.
    Create it before the program opens the pin."""
    from gpiozero.pins.mock import MockPin

    class WatchedPin(MockPin):
        def __init__(self, factory: Any, info: Any, on_change: Callable[[bool], None]):
            super().__init__(factory, info)
            self._on_change = on_change

        def _change_state(self, value: bool) -> bool:
            changed = bool(super()._change_state(value))
            if changed:
                self._on_change(value)
            return changed

    return factory.pin(number, pin_class=WatchedPin, on_change=on_change)


class Sim74HC165Chain:
    """A simulated 74HC165 chain on gpiozero's MockFactory: it watches the load
    and clock pins the source drives and puts each bit on the data pin, as the
    chips would. A hand changes inputs with :meth:`set_input` (levels as wired:
    with active-low sensors a piece makes its input low).

    Create it before the source opens its pins."""

    def __init__(self, factory: Any, load: int, clock: int, data: int, chips: int) -> None:
        self.inputs = [True] * (8 * chips)
        self._register = list(self.inputs)
        self._load_low = False
        self._lock = threading.Lock()
        watch_pin(factory, load, self._load_changed)
        watch_pin(factory, clock, self._clock_changed)
        self.data = factory.pin(data)
        self.scans = 0

    def set_input(self, channel: int, high: bool) -> None:
        with self._lock:
            self.inputs[channel] = high

    def _put(self) -> None:
        if self._register[0]:
            self.data.drive_high()
        else:
            self.data.drive_low()

    def _load_changed(self, high: bool) -> None:
        self._load_low = not high
        if not high:
            with self._lock:
                self._register = list(self.inputs)
            self.scans += 1
            self._put()

    def _clock_changed(self, high: bool) -> None:
        if high and not self._load_low:
            # shift towards QH; SER of the last chip is tied low
            self._register = [*self._register[1:], False]
            self._put()
