"""What every sensor source read through the Pi's GPIO shares: the debouncer,
the worker thread and the buttons (:class:`GpioSource`), the polled base of a
74HC165 chain read bit by bit or over SPI (:class:`PolledSource`), and a
watched mock pin for the simulated chips.

:mod:`hardware.gpio_sensing` and :mod:`hardware.spi_sensing` both build on it;
neither imports the other's base.
"""

from __future__ import annotations

import logging
import threading
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any

from boardctl.message import M_
from boardctl.sensing import ButtonPress, Emit, LinkDown, LinkUp, SensorChange, SensorSnapshot
from hardware.errors import HardwareError, HardwareUnavailable

log = logging.getLogger(__name__)

Clock = Callable[[], float]


def pin_library_errors() -> tuple[type[BaseException], ...]:
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


class GpioSource:
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

    def __enter__(self) -> GpioSource:
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
            raise HardwareUnavailable(M_("gpiozero is not installed: pip install gpiozero")) from e
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
                    M_(
                        "{source}: cannot use GPIO {pin}: gpiozero found no pin library that"
                        " works here{tried}; on a Raspberry Pi install lgpio into boardctl's"
                        " environment (`pip install lgpio`, or `sudo apt install python3-lgpio`)"
                        " and run boardctl from a directory it may write to (lgpio keeps files"
                        " there)",
                        source=self.description,
                        pin=args[0],
                        tried=f" ({tried})" if tried else "",
                    )
                ) from None
            except (gpiozero.GPIOZeroError, OSError, RuntimeError, *pin_library_errors()) as e:
                raise HardwareUnavailable(
                    M_(
                        "{source}: cannot use GPIO {pin}: {why}; if another program holds the"
                        " pin (is boardctl.service running? `sudo systemctl stop boardctl`), stop"
                        " it first, and check that the user is in the gpio group",
                        source=self.description,
                        pin=args[0],
                        why=str(e),
                    )
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


class PolledSource(GpioSource):
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
