"""The electrical checks of a profile: pins, SPI buses, LEDs and sensor channels.

A GPIO pin does one job; a bus the kernel's SPI driver holds is nobody else's;
every sensed site has a channel of its own that the sensing hardware really
reads; a chain read over SPI is read well within the time between reads.
"""

from __future__ import annotations

from typing import Any

from boardctl.board import LedChain, Reports, Site
from hardware.profiles.report import Report

SENSING_KINDS = ("serial", "gpio", "shift-register")
#: how a shift-register chain is read: bit by bit through GPIO, or by the SPI peripheral
SHIFT_REGISTER_READERS = ("gpio", "spi")
#: the SPI buses a shift-register chain may be read on (the Pi's main and auxiliary)
SENSING_SPI_BUSES = (0, 1)
LED_BACKENDS = ("ws281x", "spi", "serial", "sim")
#: GPIO pins a profile may name (BCM numbering; 0 and 1 are the HAT EEPROM's)
BCM_PINS = range(2, 28)
#: pins rpi_ws281x can drive: PWM0 12/18, PWM1 13/19, PCM 21, SPI 10
WS281X_PINS = {12: 0, 18: 0, 13: 1, 19: 1, 21: 0, 10: 0}
#: the pins of SPI buses 0 and 1, held by the kernel's driver once the bus is enabled
SPI_PINS = {
    0: {7: "CE1", 8: "CE0", 9: "MISO", 10: "MOSI", 11: "SCLK"},
    1: {16: "CE2", 17: "CE1", 18: "CE0", 19: "MISO", 20: "MOSI", 21: "SCLK"},
}
#: pins not offered as free ones: I2C 2/3 (HATs, sensors), UART 14/15 (the serial console)
RESERVED_PINS = frozenset({2, 3, 14, 15})


def check_wiring(
    r: Report,
    sites: list[Site],
    codes: dict[int, str],
    sensing: str,
    settings: dict[str, Any],
    buttons: dict[str, int],
    leds: LedChain | None,
) -> None:
    """Channels, pins and buses, across the tables of one profile."""
    # two sites on one channel
    by_channel: dict[int, str] = {}
    for s in sites:
        if s.channel is None:
            continue
        other = by_channel.setdefault(s.channel, s.name)
        if other != s.name:
            r.problem(
                "sites", s.name, f"channel {s.channel} is also {other}'s",
                "give each site its own channel (boardctl calibrate finds them)",
            )  # fmt: skip
    reporting_code = [s for s in sites if s.reports is Reports.CODE]
    if reporting_code and not codes and not r.reported_in("codes"):
        r.problem(
            "codes", "", f"{reporting_code[0].name} reports a code but [codes] names no piece",
            'add [codes] with a line per sensor code, e.g. 2 = "p0"',
        )  # fmt: skip
    if sensing in ("gpio", "shift-register"):
        for s in reporting_code:
            r.problem(
                "sites", s.name, f"reports a code but {sensing} sensing reads only presence",
                'use reports = "presence", or sensing kind = "serial" for colour sensors',
            )  # fmt: skip
        if sensing == "gpio":
            limit = len(settings.get("pins", ()))
            what = f"sensing.pins lists {limit} pins"
        else:
            limit = 8 * int(settings.get("chips", 0))
            what = f"{settings.get('chips')} shift registers read {limit} channels"
        for s in sites:
            if s.channel is not None and s.channel >= limit:
                r.problem(
                    "sites", s.name, f"channel {s.channel} is not read: {what}",
                    "add pins or chips, or fix the channel",
                )  # fmt: skip
    # one GPIO pin, one job
    users: dict[int, str] = {}
    clashes: list[tuple[str, str, int, str]] = []

    def claim(pin: int | None, user: str, table: str, key: str) -> None:
        if pin is None:
            return
        other = users.setdefault(pin, user)
        if other != user:
            clashes.append((table, key, pin, other))

    spi_bus = leds.settings.get("bus") if leds is not None and leds.backend == "spi" else None
    sensing_bus = settings.get("bus") if settings.get("reader") == "spi" else None
    held: dict[int, int] = {}  # pin -> the SPI bus that holds it
    if sensing_bus is not None and sensing_bus == spi_bus:
        r.problem(
            "sensing", "bus", f"SPI bus {spi_bus} is also the LEDs' bus (leds.settings.bus)",
            "the registers have no chip select, so every LED frame would clock them, and "
            "the LED frames need the bus to themselves to keep their timing: read the "
            f"registers on bus {1 - sensing_bus}, or move the LEDs",
        )  # fmt: skip
        sensing_bus = None
    buses = ((spi_bus, "the LEDs'"), (sensing_bus, "the sensors'"))
    for bus, whose in ((b, w) for b, w in buses if isinstance(b, int)):
        for pin, line in SPI_PINS.get(bus, {}).items():
            # the kernel's SPI driver holds every pin of the bus once it is enabled
            users[pin] = f"{whose} SPI bus {bus} ({line})"
            held[pin] = bus
    for n, pin in enumerate(settings.get("pins", ())):
        claim(pin, f"sensing channel {n}", "sensing", "pins")
    for key in ("load", "clock", "data"):
        claim(settings.get(key), f"the shift register {key} line", "sensing", key)
    for name, pin in buttons.items():
        claim(pin, f"the {name} button", "buttons", name)
    if leds is not None and leds.backend == "ws281x":
        claim(leds.settings.get("pin"), "the LED chain", "leds.settings", "pin")
    free = [str(p) for p in BCM_PINS if p not in users and p not in RESERVED_PINS]
    for table, key, pin, other in clashes:
        if pin in held:
            bus_pins = SPI_PINS[held[pin]]
            fix = (
                f"SPI bus {held[pin]} holds GPIO {min(bus_pins)}-{max(bus_pins)} when "
                f"enabled: move {table}.{key} to a free GPIO "
                f"({', '.join(free[:4]) or 'none left'})"
            )
        else:
            fix = "move one of them"
        r.problem(table, key, f"GPIO {pin} is also used by {other}", fix)


def spi_transfer_time(r: Report, out: dict[str, Any]) -> None:
    """A chain read over SPI must be read well within the time between reads."""
    bits, speed, hz = 8 * out["chips"], out["speed_hz"], out["poll_hz"]
    seconds = bits / speed
    if seconds > 0.5 / hz:
        r.problem(
            "sensing", "speed_hz",
            f"{bits} bits at {speed} Hz take {seconds * 1e3:.2g} ms, more than half "
            f"of the {1e3 / hz:.2g} ms between reads at poll_hz = {hz}",
            "raise speed_hz or lower poll_hz",
        )  # fmt: skip
