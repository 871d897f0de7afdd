"""A 74HC165 chain read by the Pi's SPI peripheral, through spidev.

The bit-banged reader (:class:`hardware.gpio_sensing.ShiftRegisterSource`)
drives three GPIO lines from Python, three operations per input. Here only the
load line stays a GPIO: :class:`SpiShiftRegisterSource` pulses SH/LD low and
high to latch the inputs, then one ``readbytes(chips)`` lets the SPI peripheral
clock every bit in, which costs one system call per scan instead.

Wiring: SCLK to every CLK, MISO to QH of the register nearest the Pi (each QH
feeds the next one's SER, the last SER to GND), a GPIO to every SH/LD, and CLK
INH to GND. The 74HC165 has no chip select: CE0/CE1 stays unconnected, the
reader asks spidev for no chip select at all (``no_cs``) and, where spidev or
the driver cannot, the unconnected CE line toggles harmlessly. MOSI is not
used. Bus 0 is MISO GPIO 9, SCLK 11 (``dtparam=spi=on``); bus 1, the auxiliary
SPI, is MISO GPIO 19, SCLK 21 (``dtoverlay=spi1-1cs``).

Bit order and clock edges, from the datasheet's behaviour. While SH/LD is low
the register copies inputs A..H; once SH/LD is high again QH already shows input
H, before any clock. Each rising CLK edge shifts the register one place towards
QH: QH shows G, then F, ... A, then the next register's H.

The reader uses SPI mode 2: the clock idles high (CPOL 1) and the Pi samples
MISO on each leading edge (CPHA 0), which is a falling one. The register shifts
on the trailing, rising edge, half a clock period later, so QH has been still
for half a period when it is sampled and then changes half a period before the
next sample: 500 ns either side at 1 MHz, against the 74HC165's propagation
delay of tens of nanoseconds and the wires'. So the first bit sampled is H, the
eighth A, the ninth the next register's H: the order in which the bit-banged
reader reads the data line before each clock pulse. Mode 0 (clock idling low,
sampling on the rising edge) gives the same bits only through a race: the
register shifts on the very edge the Pi samples on, and the read is right only
while the register's clock-to-QH delay outlasts the controller's hold time, with
no margin at all (readers of 74HC165s in mode 0 are known to lose or repeat bits
on other controllers). Modes 1 and 3 sample on the rising edge after a shift
and would lose H; the auxiliary SPI (bus 1) offers CPHA 0 modes only, mode 2
among them (it drives its first bit before the first edge, so it cannot do CPHA
1, but it does set the clock's idle level from CPOL).

The first change of SCLK to idle high is a rising edge, and the chain shifts
once on it. That does no harm as long as it comes before a scan's SH/LD pulse,
which reloads the registers from the inputs: setting the mode at open does it
(spidev applies the mode to the device at once). A driver that only moves the
clock to its idle level when its next transfer starts would put that edge after
the first scan's load pulse and lose H from that scan, so on open the reader
clocks one throwaway byte after setting the mode: SCLK idles high from then on,
and every scan's load pulse comes after it. (Linux kernels before 4.6 reset the
auxiliary SPI's lines at every transfer, an extra clock edge each time; no
current Raspberry Pi OS has that.)

SPI words are MSB first: the first bit sampled is bit 7 of byte 0, so channel
``n`` is bit ``7 - n % 8`` of byte ``n // 8``, and 0..7 are inputs H..A of the
register nearest the Pi, as with the bit-banged reader. The clock period must
cover the register's delay and the wires' to the far end and back within half
a period, which 1 MHz does with room on a board's wires.

The kernel keeps a device's settings from one program to the next, so the reader
sets every one it depends on when it opens: mode 2, 8-bit words, MSB first, no
3-wire (MISO, not MOSI, carries the data), no loopback, the speed; and, where the
driver and spidev allow, no chip select and CE active low (CE is not wired, so
these two only keep the bus tidy).

spidev is imported when the source opens: ``pip install spidev`` (or ``apt
install python3-spidev``). In tests and simulations :class:`Sim74HC165SpiChain`
stands in for the chips and the bus; pass its ``spidev`` as ``spi_factory``.
"""

from __future__ import annotations

import errno
import logging
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boardctl.message import M_, said
from hardware.errors import HardwareError, HardwareUnavailable
from hardware.gpio_source import Clock, PolledSource, watch_pin
from hardware.spi_bus import SpiFactory, close_quietly, open_device, spidev_class

log = logging.getLogger(__name__)


def _bit_table(active_low: bool) -> tuple[tuple[int, ...], ...]:
    """Byte -> its eight readings, MSB (the first bit sampled) first."""
    flip = 1 if active_low else 0
    return tuple(tuple((byte >> k & 1) ^ flip for k in range(7, -1, -1)) for byte in range(256))


class SpiShiftRegisterSource(PolledSource):
    """Chained 74HC165s on SPI bus ``bus`` (``/dev/spidev<bus>.<device>``), loaded
    through GPIO ``load``; read ``poll_hz`` times a second at ``speed_hz``.

    Channel ``n`` is the ``n``-th bit shifted out: 0..7 are inputs H..A of the
    register nearest the Pi, 8..15 those of the next (see the module's notes).
    With ``active_low`` a piece pulls its input low. ``spi_factory`` makes the
    SPI device (default: ``spidev.SpiDev``, imported on open)."""

    description = "74HC165 chain on SPI"

    def __init__(
        self,
        load: int,
        bus: int,
        chips: int,
        *,
        device: int = 0,
        speed_hz: int = 1_000_000,
        active_low: bool = True,
        poll_hz: float = 200.0,
        debounce: float = 0.02,
        pulse_channels: Iterable[int] = (),
        buttons: Mapping[str, int] | None = None,
        pin_factory: Any = None,
        spi_factory: SpiFactory | None = None,
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
        self.load_pin, self.bus, self.device, self.chips = load, bus, device, chips
        self.speed_hz = speed_hz
        self.spi_factory = spi_factory
        self.path = f"/dev/spidev{bus}.{device}"
        self._bits = _bit_table(active_low)
        self._load: Any = None
        self._spi: Any = None

    def _open(self) -> list[int]:
        self._spi = self._open_spi()
        self._load = self._device("DigitalOutputDevice", self.load_pin, initial_value=True).pin
        try:
            return self.scan()
        except (OSError, HardwareError) as e:
            raise HardwareUnavailable(
                M_("{path}: the first read failed: {why}", path=self.path, why=said(e))
            ) from None

    def _open_spi(self) -> Any:
        factory = self.spi_factory or spidev_class(M_("cannot read the shift registers over SPI"))
        spi = open_device(factory, self.bus, self.device, M_("for the shift registers"))
        try:
            # the kernel keeps a device's settings from one program to the next: set
            # every one the read depends on. Clearing a mode bit is never refused (a
            # driver refuses only bits its controller lacks, and those cannot be set),
            # so a failure here is a real one.
            spi.mode = 2  # CPOL 1, CPHA 0: sample on the falling edge, shift on the rising
            spi.bits_per_word = 8
            spi.lsbfirst = False
            spi.threewire = False  # the data comes on MISO
            spi.loop = False
            spi.max_speed_hz = self.speed_hz
        except (OSError, ValueError, TypeError, AttributeError) as e:
            close_quietly(spi)
            raise HardwareUnavailable(
                f"{self.path}: cannot set SPI mode 2, 8-bit words, MSB first, no 3-wire or "
                f"loopback, at {self.speed_hz} Hz: {e}"
            ) from None
        for name, value, why in (
            ("no_cs", True, "chip select stays on"),
            ("cshigh", False, "chip select may stay active high"),
        ):
            try:
                setattr(spi, name, value)
            except (AttributeError, OSError) as e:
                # an older spidev, or a driver without SPI_NO_CS or SPI_CS_HIGH: CE is not
                # wired, so its level and toggling do no harm
                log.info("%s: %s (%s); it is not wired to the chain", self.path, why, e)
        try:
            # puts SCLK at its idle level (high) now, before any load pulse, however
            # the driver applies the mode (see the module's notes)
            spi.readbytes(1)
        except OSError as e:
            close_quietly(spi)
            raise HardwareUnavailable(
                M_("{path}: the first transfer failed: {why}", path=self.path, why=str(e))
            ) from None
        log.info("%d shift registers on %s at %d Hz", self.chips, self.path, self.speed_hz)
        return spi

    def _release(self) -> None:
        spi, self._spi = self._spi, None
        if spi is not None:
            close_quietly(spi)
        self._load = None
        super()._release()

    def scan(self) -> list[int]:
        """Read every input once: pulse SH/LD low, then clock the bits in."""
        load, spi = self._load, self._spi
        if load is None or spi is None:
            raise HardwareError(f"{self.path}: the shift registers are not open")
        load.state = False
        load.state = True
        data = spi.readbytes(self.chips)
        if len(data) != self.chips:
            raise HardwareError(f"{self.path}: read {len(data)} bytes, expected {self.chips}")
        bits = self._bits
        return [value for byte in data for value in bits[byte]]


# --------------------------------------------------------------------------- the twin


@dataclass(frozen=True, slots=True)
class SpiTransfer:
    """One transfer the simulated chain saw: how many bits were clocked, in which
    SPI mode, bit order and speed, and whether SH/LD had been pulsed low since
    the transfer before (the inputs latched afresh). ``sampled_on_shift`` says
    that MISO was sampled on the rising edge the register shifts on (modes 0 and
    3): the chain returns the level from before the edge, as a chip whose delay
    outlasts the controller's hold time would, but real hardware gives no
    margin there."""

    bits: int
    mode: int
    lsbfirst: bool
    speed_hz: int
    latched: bool
    sampled_on_shift: bool = False


class Sim74HC165SpiChain:
    """A simulated 74HC165 chain on the SPI bus. Its SH/LD is a pin of gpiozero's
    ``MockFactory`` (create the chain before the source opens its pins); its bus
    is :meth:`spidev`, which makes ``spidev.SpiDev``-like objects.

    It behaves as the chips do: pulling SH/LD low copies the inputs into the
    registers; each rising clock edge shifts them one place towards QH, the far
    end filling with the last register's SER (tied to GND); the bits read are
    the levels of QH at the sampling edges of the transfer's SPI mode. So a
    reader that does not pulse SH/LD before a read gets what is left in the
    registers (zeros after a full read), not the inputs; one that samples on the
    falling edge loses the first bit. SCLK is a level too: it starts low, and
    moves to the mode's idle level when a device sets its mode (or, with
    ``idle_at_transfer``, only when the next transfer starts, as a lazier driver
    would); moving from low to high is a rising edge and shifts the chain. In
    modes 0 and 3 the sampling edge is the shifting edge; the chain gives the
    level from before it (the chip's delay is longer than the controller's hold
    time) and marks the transfer ``sampled_on_shift``: a race on real hardware.
    A hand changes inputs with
    :meth:`set_input` (levels as wired: with active-low sensors a piece makes
    its input low). ``transfers`` records every transfer.

    Faults, for tests: ``open_error`` is raised by ``open``, ``read_error`` by
    the next transfers, ``no_cs_supported = False`` makes ``no_cs`` refused as
    an older spidev refuses it, and :meth:`leave_settings` stands for another
    program that left the device set up its own way."""

    #: the clock the Pi's device tree gives a spidev device until it is set
    DEFAULT_SPEED_HZ = 125_000_000

    def __init__(
        self, factory: Any, load: int, chips: int, *, bus: int = 0, device: int = 0
    ) -> None:
        self.bus, self.device = bus, device
        self.inputs = [True] * (8 * chips)
        self._register = [False] * (8 * chips)  # [0] is on QH; nothing latched yet
        self._load_low = False
        self._latched = False
        self._lock = threading.Lock()
        self.open_error: OSError | None = None
        self.read_error: Exception | None = None
        self.no_cs_supported = True
        self.idle_at_transfer = False
        self.left_settings: dict[str, Any] = {}
        self.clock_high = False  # SCLK
        self.transfers: list[SpiTransfer] = []
        self.devices: list[SimSpiDev] = []
        self.load = watch_pin(factory, load, self._load_changed)

    def set_input(self, channel: int, high: bool) -> None:
        with self._lock:
            self.inputs[channel] = high

    def leave_settings(self, **settings: Any) -> None:
        """Settings (``mode=3``, ``loop=True``...) another program left on the
        device: the kernel keeps them, so a device opened later starts with them."""
        with self._lock:
            self.left_settings.update(settings)
            if "mode" in settings:  # SCLK was left at that mode's idle level
                self.clock_high = bool(settings["mode"] & 2)

    def set_clock_idle(self, mode: int) -> None:
        """SCLK moves to the idle level of SPI ``mode``; a rising move shifts."""
        with self._lock:
            self._clock_to(bool(mode & 2))

    def _clock_to(self, high: bool) -> None:
        if high and not self.clock_high and not self._load_low:
            self._register = [*self._register[1:], False]
        self.clock_high = high

    def spidev(self) -> SimSpiDev:
        """A new, unopened SPI device on this chain's bus (``spidev.SpiDev()``)."""
        spi = SimSpiDev(self)
        self.devices.append(spi)
        return spi

    def _load_changed(self, high: bool) -> None:
        with self._lock:
            self._load_low = not high
            if not high:
                self._register = list(self.inputs)
                self._latched = True

    def clock_in(self, bits: int, mode: int, lsbfirst: bool, speed_hz: int) -> list[int]:
        """Clock ``bits`` bits through the chain; the bytes read on MISO."""
        with self._lock:
            if self.read_error is not None:
                raise self.read_error
            cpol, cpha = bool(mode & 2), bool(mode & 1)
            self._clock_to(cpol)  # the driver puts SCLK at the idle level first
            sampled: list[bool] = []
            for _ in range(bits):
                for leading in (True, False):
                    if self._load_low:  # SH/LD low: QH follows input H, no shifting
                        self._register = list(self.inputs)
                    rising = leading != cpol
                    if leading != cpha:  # the sampling edge: QH as it was before the edge
                        sampled.append(self._register[0])
                    self._clock_to(rising)
            on_shift = cpol == cpha  # the sampling edge is a rising one
            transfer = SpiTransfer(bits, mode, lsbfirst, speed_hz, self._latched, on_shift)
            self.transfers.append(transfer)
            self._latched = False
        data = []
        for start in range(0, bits, 8):
            word = sampled[start : start + 8]
            if lsbfirst:
                word.reverse()
            data.append(sum(int(bit) << (7 - k) for k, bit in enumerate(word)))
        return data


class SimSpiDev:
    """One ``spidev.SpiDev`` on a :class:`Sim74HC165SpiChain`: ``open``, the
    settings (``mode``, ``max_speed_hz``, ``bits_per_word``, ``lsbfirst``,
    ``cshigh``, ``threewire``, ``loop``, ``no_cs``), ``readbytes``, ``xfer``,
    ``xfer2``, ``writebytes`` and ``close``, with spidev's errors (a closed
    device: EBADF; no such bus: ENOENT; a mode bus 1 cannot do: EINVAL). With
    ``threewire`` the data is read from MOSI, and with ``loop`` from the
    controller's own output: zeros either way, though the chain is clocked."""

    def __init__(self, chain: Sim74HC165SpiChain) -> None:
        self._chain = chain
        self._open = False
        self.closed_count = 0
        self._mode = 0
        self.bits_per_word = 8
        self.lsbfirst = False
        self.cshigh = False
        self.threewire = False
        self.loop = False
        self.max_speed_hz = chain.DEFAULT_SPEED_HZ
        self._no_cs = False

    @property
    def is_open(self) -> bool:
        return self._open

    @property
    def mode(self) -> int:
        return self._mode

    @mode.setter
    def mode(self, value: int) -> None:
        if not 0 <= value <= 3 or (self._chain.bus == 1 and value & 1):
            # the auxiliary SPI (bus 1) offers CPHA 0 modes only (0 and 2)
            raise OSError(errno.EINVAL, "Invalid argument")
        self._mode = value
        if self._open and not self._chain.idle_at_transfer:
            self._chain.set_clock_idle(value)

    @property
    def no_cs(self) -> bool:
        return self._no_cs

    @no_cs.setter
    def no_cs(self, value: bool) -> None:
        if not self._chain.no_cs_supported:
            raise AttributeError("'SpiDev' object has no attribute 'no_cs'")
        self._no_cs = bool(value)

    def open(self, bus: int, device: int) -> None:
        chain = self._chain
        if chain.open_error is not None:
            raise chain.open_error
        if (bus, device) != (chain.bus, chain.device):
            raise FileNotFoundError(errno.ENOENT, "No such file or directory")
        for name, value in chain.left_settings.items():
            setattr(self, name, value)
        self._open = True

    def close(self) -> None:
        if self._open:
            self.closed_count += 1
        self._open = False

    def _transfer(self, count: int) -> list[int]:
        if not self._open:
            raise OSError(errno.EBADF, "Bad file descriptor")
        if self.bits_per_word != 8:
            raise OSError(errno.EINVAL, "Invalid argument")
        data = self._chain.clock_in(8 * count, self.mode, self.lsbfirst, self.max_speed_hz)
        if self.threewire or self.loop:  # MISO, where the chain's data is, goes unread
            return [0] * count
        return data

    def readbytes(self, count: int) -> list[int]:
        return self._transfer(count)

    def xfer(self, data: Sequence[int], *_: Any) -> list[int]:
        return self._transfer(len(data))

    def xfer2(self, data: Sequence[int], *_: Any) -> list[int]:
        return self._transfer(len(data))

    def writebytes(self, data: Sequence[int]) -> None:
        self._transfer(len(data))
