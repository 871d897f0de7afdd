"""Reading a profile's TOML tables into a :class:`~boardctl.board.BoardProfile`.

Each table is read strictly: unknown keys, wrong types and values out of range
are reported with the line they are on (:class:`~.report.Report`). Once every
table is read, the electrical checks (:mod:`.electrical`) and the game checks
(:mod:`.games`) look across them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from boardctl.board import BUTTONS, BoardProfile, LedChain, Reports, Site
from boardctl.message import M_
from hardware.profiles.codes import CodesReader
from hardware.profiles.electrical import (
    BCM_PINS,
    LED_BACKENDS,
    SENSING_KINDS,
    SENSING_SPI_BUSES,
    SHIFT_REGISTER_READERS,
    SPI_PINS,
    WS281X_PINS,
    check_wiring,
    spi_transfer_time,
)
from hardware.profiles.games import check_game
from hardware.profiles.report import Report

_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


def _either(names: Sequence[str]) -> str:
    """``'sim' or 'spi'``: the names one of which is expected, in the reader's language."""
    quoted = [repr(n) for n in names]
    if len(quoted) < 2:
        return "".join(quoted)
    return M_("{first} or {last}", first=", ".join(quoted[:-1]), last=quoted[-1])


@dataclass
class Parser:
    """Reads the tables of one profile, reporting to ``r``."""

    r: Report
    require_channels: bool = True
    #: where each code is written (:class:`~.codes.CodesReader`)
    code_origin: dict[int, tuple[str, str]] = field(default_factory=dict)

    def build(self, data: Mapping[str, Any]) -> BoardProfile | None:
        """The profile, or None when anything is wrong (the problems are in ``r``)."""
        self.r.unknown_keys("", data, ("board", "sensing", "codes", "leds", "buttons", "sites"))
        board = self.r.table(data, "board", required=True)
        self.r.unknown_keys(
            "board", board, ("name", "game", "description", "options", "palette", "palette_note")
        )
        name = self.r.get("board", board, "name", str, "", required=True, expect='"my-board"')
        if "name" in board and isinstance(name, str) and not name.strip():
            self.r.problem(
                "board", "name", M_("is empty"), M_('name the board, e.g. name = "my-board"')
            )
        game = self.r.get("board", board, "game", str, "", required=True, expect='"shiftago"')
        options = self.r.get("board", board, "options", dict, {}, expect=M_("a table of options"))
        palette = self.r.get(
            "board",
            board,
            "palette",
            list,
            [],
            check=lambda v: all(isinstance(c, str) and _COLOUR.fullmatch(c) for c in v),
            expect=M_('player colours like ["#1f5fff", "#ff2a1a"]'),
        )
        palette_note = self.r.get(
            "board",
            board,
            "palette_note",
            str,
            "",
            expect=M_('words for people, e.g. "black is lit blue: an LED cannot glow black"'),
        )

        leds = self.leds(self.r.table(data, "leds", required=True))
        count = leds.count if leds else 0
        sensing, settings = self.sensing(self.r.table(data, "sensing", required=True))
        codes = self.codes(self.r.table(data, "codes", required=False))
        buttons = self.buttons(self.r.table(data, "buttons", required=False))
        sites = self.sites(self.r.table(data, "sites", required=True), count)

        check_wiring(self.r, sites, codes, sensing, settings, buttons, leds)
        check_game(self.r, game, options, sites, codes, palette, self.code_origin)
        if self.r.problems or leds is None:
            return None
        return BoardProfile(
            name=name,
            game=game,
            game_options=MappingProxyType(dict(options)),
            sites=tuple(sites),
            codes=MappingProxyType(codes),
            leds=leds,
            sensing=sensing,
            sensing_settings=MappingProxyType(settings),
            buttons=MappingProxyType(buttons),
            source=self.r.source,
            palette=tuple(palette),
            palette_note=palette_note,
        )

    def leds(self, t: dict[str, Any]) -> LedChain | None:
        keys = (
            "count",
            "backend",
            "order",
            "brightness",
            "gamma",
            "max_milliamps",
            "milliamps_per_led",
            "settings",
        )
        self.r.unknown_keys("leds", t, keys)
        count = self.r.get(
            "leds", t, "count", int, 0, required=True,
            check=lambda v: 1 <= v <= 4096, expect=M_("a number of LEDs, 1 to 4096"),
        )  # fmt: skip
        backend = self.r.get(
            "leds", t, "backend", str, "sim",
            check=lambda v: v in LED_BACKENDS, expect=_either(LED_BACKENDS),
        )  # fmt: skip
        order = self.r.get(
            "leds", t, "order", str, "GRB",
            check=lambda v: sorted(v) == ["B", "G", "R"],
            expect=M_('"GRB", "RGB" or another order of R, G and B'),
        )  # fmt: skip
        brightness = self.r.get(
            "leds", t, "brightness", (int, float), 0.5,
            check=lambda v: 0 <= v <= 1, expect=M_("a number from 0 to 1"),
        )  # fmt: skip
        gamma = self.r.get(
            "leds", t, "gamma", (int, float), 2.2,
            check=lambda v: 1 <= v <= 3, expect=M_("a number from 1 (none) to 3"),
        )  # fmt: skip
        max_ma = self.r.get(
            "leds", t, "max_milliamps", int, 2000,
            check=lambda v: 10 <= v <= 100_000, expect=M_("the supply's budget for the LEDs in mA"),
        )  # fmt: skip
        per_led = self.r.get(
            "leds",
            t,
            "milliamps_per_led",
            int,
            60,
            check=lambda v: 1 <= v <= 200,
            expect=M_("one LED's draw at full white in mA (WS2812: 60)"),
        )
        settings = self.r.get("leds", t, "settings", dict, {}, expect=M_("a table"))
        settings = self.led_settings(backend, settings)
        if not count:
            return None
        return LedChain(
            count=count,
            backend=backend,
            order=order,
            brightness=float(brightness),
            gamma=float(gamma),
            max_milliamps=max_ma,
            milliamps_per_led=per_led,
            settings=MappingProxyType(settings),
        )

    def led_settings(self, backend: str, t: dict[str, Any]) -> dict[str, Any]:
        where = "leds.settings"
        out: dict[str, Any] = {}
        if backend == "ws281x":
            self.r.unknown_keys(where, t, ("pin", "dma", "freq_hz", "invert", "channel"))
            out["pin"] = self.r.get(
                where,
                t,
                "pin",
                int,
                18,
                check=lambda v: v in WS281X_PINS,
                expect=M_(
                    "a pin rpi_ws281x drives: 18, 12 (PWM0), 13, 19 (PWM1), 21 (PCM), 10 (SPI)"
                ),
            )
            out["dma"] = self.r.get(
                where, t, "dma", int, 10, check=lambda v: 0 <= v <= 14 and v != 5,
                expect=M_("a DMA channel 0..14 but not 5 (10 is safe)"),
            )  # fmt: skip
            out["freq_hz"] = self.r.get(
                where, t, "freq_hz", int, 800_000, check=lambda v: 400_000 <= v <= 800_000,
                expect=M_("400000 (WS2811) or 800000 (WS2812)"),
            )  # fmt: skip
            out["invert"] = self.r.get(
                where, t, "invert", bool, False, expect=M_("true behind an inverting level shifter")
            )
            out["channel"] = self.r.get(
                where, t, "channel", int, WS281X_PINS.get(out["pin"], 0),
                check=lambda v: v in (0, 1), expect=M_("0 or 1 (PWM1 pins 13 and 19 use 1)"),
            )  # fmt: skip
        elif backend == "spi":
            self.r.unknown_keys(where, t, ("bus", "device", "speed_hz"))
            out["bus"] = self.r.get(
                where, t, "bus", int, 0, check=lambda v: 0 <= v <= 6, expect=M_("an SPI bus 0..6")
            )
            out["device"] = self.r.get(
                where, t, "device", int, 0, check=lambda v: 0 <= v <= 3, expect="0..3"
            )
            out["speed_hz"] = self.r.get(
                where, t, "speed_hz", int, 2_400_000,
                check=lambda v: 2_000_000 <= v <= 2_800_000,
                expect=M_("2000000..2800000 (three SPI bits per LED bit; 2400000 is exact)"),
            )  # fmt: skip
        else:
            self.r.unknown_keys(where, t, ())
        return out

    def sensing(self, t: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        kind = self.r.get(
            "sensing", t, "kind", str, "serial", required=True,
            check=lambda v: v in SENSING_KINDS, expect=_either(SENSING_KINDS),
        )  # fmt: skip
        out: dict[str, Any] = {}
        pin = lambda v: v in BCM_PINS  # noqa: E731
        pin_expect = M_("a BCM GPIO number 2..27")
        if kind == "serial":
            self.r.unknown_keys("sensing", t, ("kind", "port", "baudrate"))
            out["port"] = self.r.get("sensing", t, "port", str, "", expect='"/dev/ttyACM0"')
            out["baudrate"] = self.r.get(
                "sensing", t, "baudrate", int, 115200, check=lambda v: v > 0, expect=M_("a rate")
            )
        elif kind == "gpio":
            self.r.unknown_keys("sensing", t, ("kind", "pins", "pull_up", "debounce_ms"))
            pins = self.r.get(
                "sensing", t, "pins", list, [], required=True,
                check=lambda v: all(isinstance(p, int) and pin(p) for p in v),
                expect=M_("a list of pins, one per channel ({pin_expect})", pin_expect=pin_expect),
            )  # fmt: skip
            out["pins"] = tuple(pins)
            out["pull_up"] = self.r.get(
                "sensing", t, "pull_up", bool, True,
                expect=M_("true when a piece pulls the pin low (reed switch to ground)"),
            )  # fmt: skip
        elif kind == "shift-register":
            wiring = ("reader", "load", "clock", "data", "bus", "device", "speed_hz")
            keys = ("kind", *wiring, "chips", "active_low", "poll_hz", "debounce_ms")
            self.r.unknown_keys("sensing", t, keys)
            reader = self.r.get(
                "sensing",
                t,
                "reader",
                str,
                "gpio",
                check=lambda v: v in SHIFT_REGISTER_READERS,
                expect=M_(
                    '"gpio" (bit by bit: load, clock, data) or "spi" (the SPI bus: load, bus)'
                ),
            )
            out["reader"] = reader
            out["load"] = self.r.get(
                "sensing", t, "load", int, 0, required=True, check=pin, expect=pin_expect
            )
            if t.get("reader", "gpio") != reader:
                pass  # a bad reader, reported: neither reader's keys are checked
            elif reader == "spi":
                self.spi_reader(t, out)
            else:
                for key in ("clock", "data"):
                    out[key] = self.r.get(
                        "sensing", t, key, int, 0, required=True, check=pin, expect=pin_expect
                    )
                for key in ("bus", "device", "speed_hz"):
                    if key in t:
                        self.r.problem(
                            "sensing",
                            key,
                            M_('only for reader = "spi"'),
                            M_(
                                'remove it, or add reader = "spi" to read the chain over'
                                " the SPI bus"
                            ),
                        )
            out["chips"] = self.r.get(
                "sensing",
                t,
                "chips",
                int,
                1,
                required=True,
                check=lambda v: 1 <= v <= 32,
                expect=M_("the number of 74HC165 in the chain, 1..32"),
            )
            out["active_low"] = self.r.get(
                "sensing", t, "active_low", bool, True,
                expect=M_("true when a piece pulls the input low"),
            )  # fmt: skip
            out["poll_hz"] = self.r.get(
                "sensing", t, "poll_hz", int, 200,
                check=lambda v: 10 <= v <= 5000, expect=M_("reads per second, 10..5000"),
            )  # fmt: skip
            if reader == "spi":
                spi_transfer_time(self.r, out)
        if kind in ("gpio", "shift-register"):
            out["debounce_ms"] = self.r.get(
                "sensing", t, "debounce_ms", int, 20,
                check=lambda v: 0 <= v <= 1000, expect=M_("a settle time in ms, 0..1000"),
            )  # fmt: skip
        return kind, out

    def spi_reader(self, t: dict[str, Any], out: dict[str, Any]) -> None:
        """The keys of a shift-register chain read over the SPI bus."""
        bus = self.r.get(
            "sensing", t, "bus", int, None, required=True,
            check=lambda v: v in SENSING_SPI_BUSES,
            expect=M_("1 (the auxiliary bus: MISO GPIO 19, SCLK 21) or 0 (MISO 9, SCLK 11)"),
        )  # fmt: skip
        selects = [n for n in SPI_PINS.get(bus, {}).values() if n.startswith("CE")]
        devices = len(selects) or 3
        out["bus"] = bus
        out["device"] = self.r.get(
            "sensing",
            t,
            "device",
            int,
            0,
            check=lambda v: 0 <= v < devices,
            expect=M_(
                "a device of the bus, 0..{last} (/dev/spidev{bus}.N); the registers use no chip"
                " select, so 0 will do",
                last=devices - 1,
                bus=bus,
            ),
        )
        out["speed_hz"] = self.r.get(
            "sensing",
            t,
            "speed_hz",
            int,
            1_000_000,
            check=lambda v: 100_000 <= v <= 10_000_000,
            expect=M_("the SPI clock in Hz, 100000..10000000 (1000000 is safe on long wires)"),
        )
        gpio = {line: pin for pin, line in SPI_PINS.get(bus, {}).items()}
        uses = {"clock": ("SCLK", "goes to every CLK")}
        uses["data"] = ("MISO", "reads QH of the register nearest the Pi")
        for key, (line, use) in uses.items():
            if key in t:
                where = f"SPI bus {bus} (GPIO {gpio[line]})" if gpio else "the SPI bus"
                self.r.problem(
                    "sensing", key, M_('not used with reader = "spi"'),
                    M_("remove it: {line} of {where} {use}", line=line, where=where, use=use),
                )  # fmt: skip

    def codes(self, t: dict[str, Any]) -> dict[int, str]:
        reader = CodesReader(self.r)
        codes = reader.read(t)
        self.code_origin = reader.origin
        return codes

    def buttons(self, t: dict[str, Any]) -> dict[str, int]:
        self.r.unknown_keys("buttons", t, BUTTONS)
        out: dict[str, int] = {}
        for name in BUTTONS:
            pin = self.r.get(
                "buttons", t, name, int, None,
                check=lambda v: v in BCM_PINS, expect=M_("a BCM GPIO number 2..27"),
            )  # fmt: skip
            if pin is not None:
                out[name] = pin
        return out

    def sites(self, t: dict[str, Any], led_count: int) -> list[Site]:
        sites: list[Site] = []
        reports_names = tuple(r.value for r in Reports)
        for name, entry in t.items():
            if not isinstance(entry, dict):
                self.r.problem(
                    "sites",
                    name,
                    M_("expected a table"),
                    M_(
                        'write {name} = {{ kind = "cell", channel = 0, reports = "presence" }}',
                        name=name,
                    ),
                )
                continue
            where = f"sites.{name}"
            keys = ("kind", "channel", "reports", "leds", "x", "y")
            for key in entry:
                if key not in keys:
                    self.r.problem(
                        "sites",
                        name,
                        M_("unknown key {key}", key=repr(key)),
                        M_("the keys are {keys}", keys=", ".join(keys)),
                    )
            kind = self.r.get(where, entry, "kind", str, "", required=True, expect='"cell"')
            channel = self.r.get(
                where,
                entry,
                "channel",
                int,
                None,
                check=lambda v: 0 <= v < 4096,
                expect=M_("a sensor channel, 0 up"),
            )
            default_reports = "presence" if channel is not None else "none"
            reports = self.r.get(
                where, entry, "reports", str, default_reports,
                check=lambda v: v in reports_names, expect=_either(reports_names),
            )  # fmt: skip
            leds = self.r.get(
                where, entry, "leds", list, [],
                check=lambda v: all(isinstance(i, int) and not isinstance(i, bool) for i in v),
                expect=M_("a list of LED indexes"),
            )  # fmt: skip
            for index in leds:
                if led_count and not 0 <= index < led_count:
                    self.r.problem(
                        "sites",
                        name,
                        M_("LED {index} is out of range", index=index),
                        M_(
                            "the chain has {count} LEDs, 0..{last}; fix the index or leds.count",
                            count=led_count,
                            last=led_count - 1,
                        ),
                    )
            x = self.r.get(where, entry, "x", (int, float), 0.0, expect=M_("a number"))
            y = self.r.get(where, entry, "y", (int, float), 0.0, expect=M_("a number"))
            report = Reports(reports)
            given = "channel" in entry  # a bad value is reported once, where it stands
            if (
                channel is None
                and not given
                and report is not Reports.NONE
                and self.require_channels
            ):
                self.r.problem(
                    "sites", name, M_("reports \"{reports}\" but has no channel", reports=reports),
                    M_("add channel = N (the sensor that reads it), or run boardctl calibrate"),
                )  # fmt: skip
            if channel is not None and report is Reports.NONE:
                self.r.problem(
                    "sites", name, M_('has a channel but reports "none"'),
                    M_('say what the sensor reports, e.g. reports = "presence"'),
                )  # fmt: skip
            sites.append(Site(name, kind, channel, report, tuple(leds), float(x), float(y)))
        return sites
