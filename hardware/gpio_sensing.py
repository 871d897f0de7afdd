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
from collections.abc import Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any

from boardctl.board import BoardProfile, Reports
from boardctl.message import M_
from boardctl.sensing import Emit
from hardware.errors import HardwareError, HardwareUnavailable
from hardware.gpio_source import Clock, Debouncer, GpioSource, PolledSource, watch_pin
from hardware.spi_sensing import SpiShiftRegisterSource

log = logging.getLogger(__name__)

__all__ = [
    "ButtonSource",
    "Clock",
    "CombinedSource",
    "Debouncer",
    "GpioSource",
    "PinSource",
    "PolledSource",
    "ShiftRegisterSource",
    "Sim74HC165Chain",
    "open_button_source",
    "open_sensor_source",
    "watch_pin",
]


class PinSource(GpioSource):
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


class ButtonSource(GpioSource):
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
) -> GpioSource:
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
        M_(
            "{source}: the sensors are read by the microcontroller (sensing kind = {kind});"
            " they come through the firmware link",
            source=profile.source,
            kind=repr(profile.sensing),
        )
    )


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
