"""The electrical checks of a profile: pins, SPI buses, LEDs and sensor channels.

A GPIO pin does one job; a bus the kernel's SPI driver holds is nobody else's;
every sensed site has a channel of its own that the sensing hardware really
reads; a chain read over SPI is read well within the time between reads.
"""

from __future__ import annotations

from typing import Any

from boardctl.board import LedChain, Reports, Site
from boardctl.message import M_
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
                "sites",
                s.name,
                M_("channel {channel} is also {other}'s", channel=s.channel, other=other),
                M_("give each site its own channel (boardctl calibrate finds them)"),
            )
    reporting_code = [s for s in sites if s.reports is Reports.CODE]
    if reporting_code and not codes and not r.reported_in("codes"):
        r.problem(
            "codes",
            "",
            M_("{name} reports a code but [codes] names no piece", name=reporting_code[0].name),
            M_('add [codes] with a line per sensor code, e.g. 2 = "p0"'),
        )
    if sensing in ("gpio", "shift-register"):
        for s in reporting_code:
            r.problem(
                "sites",
                s.name,
                M_("reports a code but {sensing} sensing reads only presence", sensing=sensing),
                M_('use reports = "presence", or sensing kind = "serial" for colour sensors'),
            )
        if sensing == "gpio":
            limit = len(settings.get("pins", ()))
            what = M_("sensing.pins lists {count} pins", count=limit)
        else:
            limit = 8 * int(settings.get("chips", 0))
            what = M_(
                "{chips} shift registers read {count} channels",
                chips=settings.get("chips"),
                count=limit,
            )
        for s in sites:
            if s.channel is not None and s.channel >= limit:
                r.problem(
                    "sites",
                    s.name,
                    M_("channel {channel} is not read: {what}", channel=s.channel, what=what),
                    M_("add pins or chips, or fix the channel"),
                )
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
            "sensing",
            "bus",
            M_("SPI bus {spi_bus} is also the LEDs' bus (leds.settings.bus)", spi_bus=spi_bus),
            M_(
                "the registers have no chip select, so every LED frame would clock them, and the"
                " LED frames need the bus to themselves to keep their timing: read the registers"
                " on bus {other}, or move the LEDs",
                other=1 - sensing_bus,
            ),
        )
        sensing_bus = None
    for bus, of_leds in (
        (b, w) for b, w in ((spi_bus, True), (sensing_bus, False)) if isinstance(b, int)
    ):
        for pin, line in SPI_PINS.get(bus, {}).items():
            # the kernel's SPI driver holds every pin of the bus once it is enabled
            users[pin] = (
                M_("the LEDs' SPI bus {bus} ({line})", bus=bus, line=line)
                if of_leds
                else M_("the sensors' SPI bus {bus} ({line})", bus=bus, line=line)
            )
            held[pin] = bus
    for n, pin in enumerate(settings.get("pins", ())):
        claim(pin, M_("sensing channel {channel}", channel=n), "sensing", "pins")
    for key in ("load", "clock", "data"):
        claim(settings.get(key), M_("the shift register {key} line", key=key), "sensing", key)
    for name, pin in buttons.items():
        claim(pin, M_("the {name} button", name=name), "buttons", name)
    if leds is not None and leds.backend == "ws281x":
        claim(leds.settings.get("pin"), M_("the LED chain"), "leds.settings", "pin")
    free = [str(p) for p in BCM_PINS if p not in users and p not in RESERVED_PINS]
    for table, key, pin, other in clashes:
        if pin in held:
            bus_pins = SPI_PINS[held[pin]]
            fix = M_(
                "SPI bus {bus} holds GPIO {first}-{last} when enabled: move {key} to a free"
                " GPIO ({free})",
                bus=held[pin],
                first=min(bus_pins),
                last=max(bus_pins),
                key=f"{table}.{key}",
                free=", ".join(free[:4]) or M_("none left"),
            )
        else:
            fix = M_("move one of them")
        r.problem(table, key, M_("GPIO {pin} is also used by {other}", pin=pin, other=other), fix)


def spi_transfer_time(r: Report, out: dict[str, Any]) -> None:
    """A chain read over SPI must be read well within the time between reads."""
    bits, speed, hz = 8 * out["chips"], out["speed_hz"], out["poll_hz"]
    seconds = bits / speed
    if seconds > 0.5 / hz:
        r.problem(
            "sensing",
            "speed_hz",
            M_(
                "{bits} bits at {speed} Hz take {took} ms, more than half of the {between} ms"
                " between reads at poll_hz = {hz}",
                bits=bits,
                speed=speed,
                took=format(seconds * 1e3, ".2g"),
                between=format(1e3 / hz, ".2g"),
                hz=hz,
            ),
            M_("raise speed_hz or lower poll_hz"),
        )
