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

Bit order, from the datasheet's behaviour. While SH/LD is low the register
copies inputs A..H; once SH/LD is high again QH already shows input H, before
any clock. Each rising CLK edge shifts the register one place towards QH: QH
shows G, then F, ... A, then the next register's H. SPI mode 0 keeps the clock
low between transfers (CPOL 0) and samples MISO on each leading, rising edge
(CPHA 0). The 74HC165 shifts on that same edge, but QH changes only a
propagation delay after it, while the controller took MISO at the edge: every
edge samples the bit that was there before it. So the first bit sampled is H,
the eighth A, the ninth the next register's H; the order in which the bit-banged
reader reads the data line before each clock pulse. SPI words are MSB first:
the first bit sampled is bit 7 of byte 0, so channel ``n`` is bit ``7 - n % 8``
of byte ``n // 8``, and 0..7 are inputs H..A of the register nearest the Pi, as
with the bit-banged reader. (Mode 1 would sample on the falling edge, after the
first shift, and lose H; the auxiliary SPI does not offer CPHA 1 anyway.) The
margin on the sampling edge is the register's propagation delay, whatever the
clock; the clock period must cover that delay and the wires' to the far end and
back before the next edge, which 1 MHz does with room on a board's wires.

spidev is imported when the source opens: ``pip install spidev`` (or ``apt
install python3-spidev``). In tests and simulations :class:`Sim74HC165SpiChain`
stands in for the chips and the bus; pass its ``spidev`` as ``spi_factory``.
"""

from __future__ import annotations

import errno
import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hardware.errors import HardwareError, HardwareUnavailable
from hardware.gpio_sensing import Clock, PolledSource, watch_pin

log = logging.getLogger(__name__)

#: makes an unopened ``spidev.SpiDev``-like object
SpiFactory = Callable[[], Any]

#: the config.txt line that gives /dev/spidev<bus>.<device>
ENABLE = {0: "dtparam=spi=on", 1: "dtoverlay=spi1-{n}cs"}


def _bit_table(active_low: bool) -> tuple[tuple[int, ...], ...]:
    """Byte -> its eight readings, MSB (the first bit sampled) first."""
    flip = 1 if active_low else 0
    return tuple(tuple((byte >> k & 1) ^ flip for k in range(7, -1, -1)) for byte in range(256))


def _import_spidev() -> SpiFactory:
    try:
        import spidev
    except ImportError as e:
        raise HardwareUnavailable(
            "cannot read the shift registers over SPI: spidev is not installed "
            "(on the Pi: pip install spidev, or apt install python3-spidev)"
        ) from e
    factory: SpiFactory = spidev.SpiDev
    return factory


def _close_quietly(spi: Any) -> None:
    try:
        spi.close()
    except OSError as e:  # closing what failed to open or configure
        log.debug("closing the SPI device: %s", e)


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
            raise HardwareUnavailable(f"{self.path}: the first read failed: {e}") from None

    def _open_spi(self) -> Any:
        spi = (self.spi_factory or _import_spidev())()
        try:
            spi.open(self.bus, self.device)
        except OSError as e:
            _close_quietly(spi)
            enable = ENABLE.get(self.bus, "dtoverlay=spi{bus}-{n}cs")
            enable = enable.format(bus=self.bus, n=self.device + 1)
            raise HardwareUnavailable(
                f"cannot open {self.path} for the shift registers: {e.strerror or e}; enable "
                f"SPI bus {self.bus} ({enable} in /boot/firmware/config.txt, then reboot) and "
                "add the user to the spi group"
            ) from None
        try:
            # the kernel keeps a device's settings from one program to the next
            spi.mode = 0
            spi.bits_per_word = 8
            spi.lsbfirst = False
            spi.max_speed_hz = self.speed_hz
        except (OSError, ValueError, TypeError) as e:
            _close_quietly(spi)
            raise HardwareUnavailable(
                f"{self.path}: cannot set SPI mode 0, MSB first, at {self.speed_hz} Hz: {e}"
            ) from None
        try:
            spi.no_cs = True
        except (AttributeError, OSError) as e:
            # an older spidev, or a driver without SPI_NO_CS: CE is not wired, so its
            # toggling does no harm
            log.info("%s: chip select stays on (%s); it is not wired to the chain", self.path, e)
        log.info("%d shift registers on %s at %d Hz", self.chips, self.path, self.speed_hz)
        return spi

    def _release(self) -> None:
        spi, self._spi = self._spi, None
        if spi is not None:
            _close_quietly(spi)
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
    the transfer before (the inputs latched afresh)."""

    bits: int
    mode: int
    lsbfirst: bool
    speed_hz: int
    latched: bool


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
    falling edge loses the first bit. A hand changes inputs with
    :meth:`set_input` (levels as wired: with active-low sensors a piece makes
    its input low). ``transfers`` records every transfer.

    Faults, for tests: ``open_error`` is raised by ``open``, ``read_error`` by
    the next transfers, and ``no_cs_supported = False`` makes ``no_cs``
    refused as an older spidev refuses it."""

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
        self._fresh_reads = 0
        self._lock = threading.Condition()
        self.open_error: OSError | None = None
        self.read_error: Exception | None = None
        self.no_cs_supported = True
        self.transfers: list[SpiTransfer] = []
        self.devices: list[SimSpiDev] = []
        self.load = watch_pin(factory, load, self._load_changed)

    @property
    def fresh_reads(self) -> int:
        """How many transfers read inputs latched since the transfer before."""
        return self._fresh_reads

    def set_input(self, channel: int, high: bool) -> None:
        with self._lock:
            self.inputs[channel] = high

    def wait_fresh_reads(self, count: int, timeout: float) -> bool:
        """Wait until ``count`` more transfers have read freshly latched inputs;
        False if they have not within ``timeout`` seconds."""
        with self._lock:
            target = self.fresh_reads + count
            return self._lock.wait_for(lambda: self.fresh_reads >= target, timeout)

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
            sampled: list[bool] = []
            for _ in range(bits):
                for leading in (True, False):
                    if self._load_low:  # SH/LD low: QH follows input H, no shifting
                        self._register = list(self.inputs)
                    rising = leading != cpol
                    if leading != cpha:  # the sampling edge: QH as it was before the edge
                        sampled.append(self._register[0])
                    if rising and not self._load_low:
                        self._register = [*self._register[1:], False]
            self.transfers.append(SpiTransfer(bits, mode, lsbfirst, speed_hz, self._latched))
            self._fresh_reads += self._latched
            self._latched = False
            self._lock.notify_all()
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
    ``no_cs``), ``readbytes``, ``xfer``, ``xfer2``, ``writebytes`` and ``close``,
    with spidev's errors (a closed device: EBADF; no such bus: ENOENT)."""

    def __init__(self, chain: Sim74HC165SpiChain) -> None:
        self._chain = chain
        self._open = False
        self.closed_count = 0
        self._mode = 0
        self.bits_per_word = 8
        self.lsbfirst = False
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
            # the auxiliary SPI (bus 1) offers CPHA 0 modes only
            raise OSError(errno.EINVAL, "Invalid argument")
        self._mode = value

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
        return self._chain.clock_in(8 * count, self.mode, self.lsbfirst, self.max_speed_hz)

    def readbytes(self, count: int) -> list[int]:
        return self._transfer(count)

    def xfer(self, data: Sequence[int], *_: Any) -> list[int]:
        return self._transfer(len(data))

    def xfer2(self, data: Sequence[int], *_: Any) -> list[int]:
        return self._transfer(len(data))

    def writebytes(self, data: Sequence[int]) -> None:
        self._transfer(len(data))
