"""Board profiles: TOML files that describe a physical board, loaded strictly.

``load_profile("shiftago-colour")`` (a name from this folder) or
``load_profile("boards/mine.toml")`` (a path) returns a
:class:`boardctl.board.BoardProfile`. Every problem in the file is collected
before anything is raised, and each one names the file, the line, the key, what
is wrong and how to fix it; :class:`~hardware.errors.ProfileError` carries them
all. ``check_profile`` returns the list instead of raising.

The format is described in ``docs/boards.md``.
"""

from __future__ import annotations

import logging
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from boardctl.board import BoardProfile, LedChain, Reports, Site
from hardware.errors import ProfileError
from hardware.profiles.games import LAYOUTS, known_games

log = logging.getLogger(__name__)

__all__ = [
    "PROFILE_DIR",
    "ProfileError",
    "builtin_profiles",
    "check_profile",
    "find_profile",
    "load_profile",
    "parse_profile",
]

#: where the reference profiles live
PROFILE_DIR = Path(__file__).resolve().parent

SENSING_KINDS = ("serial", "gpio", "shift-register")
#: how a shift-register chain is read: bit by bit through GPIO, or by the SPI peripheral
SHIFT_REGISTER_READERS = ("gpio", "spi")
#: the SPI buses a shift-register chain may be read on (the Pi's main and auxiliary)
SENSING_SPI_BUSES = (0, 1)
LED_BACKENDS = ("ws281x", "spi", "serial", "sim")
BUTTONS = ("new", "undo", "mode")
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


def builtin_profiles() -> list[str]:
    """The names of the reference profiles shipped in this folder."""
    return sorted(p.stem for p in PROFILE_DIR.glob("*.toml"))


def find_profile(name_or_path: str | Path) -> Path:
    """A profile's file: a path as given, or a name from :data:`PROFILE_DIR`."""
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists() or len(path.parts) > 1:
        if not path.is_file():
            raise ProfileError(str(path), ["no such file; give a profile file or a name"])
        return path
    candidate = PROFILE_DIR / f"{name_or_path}.toml"
    if candidate.is_file():
        return candidate
    names = ", ".join(builtin_profiles())
    raise ProfileError(str(name_or_path), [f"no such profile; the shipped ones are {names}"])


def load_profile(name_or_path: str | Path, *, require_channels: bool = True) -> BoardProfile:
    """Read, check and build a profile; raises :class:`ProfileError` listing every problem.

    ``require_channels=False`` accepts sensed sites whose channel is not known yet
    (a new board before ``boardctl calibrate``)."""
    path = find_profile(name_or_path)
    text = path.read_text(encoding="utf-8")
    return parse_profile(text, str(path), require_channels=require_channels)


def check_profile(name_or_path: str | Path) -> list[str]:
    """Every problem in a profile, as messages; empty when it is good."""
    try:
        load_profile(name_or_path)
    except ProfileError as e:
        return e.problems
    return []


def parse_profile(
    text: str, source: str = "<profile>", *, require_channels: bool = True
) -> BoardProfile:
    """Build a profile from TOML text; ``source`` names it in messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ProfileError(source, [f"{source}: not valid TOML: {e}"]) from None
    checker = _Checker(source, text, require_channels)
    profile = checker.build(data)
    if checker.problems or profile is None:
        raise ProfileError(source, checker.sorted_problems())
    log.debug("loaded profile %s from %s: %d sites", profile.name, source, len(profile.sites))
    return profile


# --------------------------------------------------------------------------- locating keys

_HEADER = re.compile(r"^\s*\[\s*([^\]\[]+?)\s*\]\s*(#.*)?$")
_KEY = re.compile(r"""^\s*("([^"]+)"|'([^']+)'|([A-Za-z0-9_-]+))\s*=""")


def _key_lines(text: str) -> dict[tuple[str, str], int]:
    """(table, key) -> line number, for ``key = ...`` lines (tables as dotted paths).

    A table header ``[a.b]`` is also the line of key ``b`` in table ``a`` (a site
    written as ``[sites.a1]`` is found at its header), and of ``[a]`` when that
    has no header of its own."""
    lines: dict[tuple[str, str], int] = {}
    table = ""
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            table = ".".join(_header_parts(header.group(1)))
            lines.setdefault(("", table), number)
            parts = _header_parts(header.group(1))
            for n in range(1, len(parts)):
                parent = ".".join(parts[:n])
                lines.setdefault(("", parent), number)
                lines.setdefault((parent, parts[n]), number)
            continue
        key = _KEY.match(line)
        if key:
            name = key.group(2) or key.group(3) or key.group(4)
            lines.setdefault((table, name), number)
    return lines


def _header_parts(header: str) -> list[str]:
    """The keys of a table header's dotted path, quotes taken off: ``sites."a1"``
    is ``["sites", "a1"]``."""
    return [
        part.group(2) or part.group(3) or part.group(4)
        for part in re.finditer(r"""\s*("([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*\.?""", header)
    ]


def table_header(line: str) -> list[str] | None:
    """The keys of the table a ``[a.b]`` header line opens, or None for any other line."""
    header = _HEADER.match(line.rstrip("\r\n"))
    return _header_parts(header.group(1)) if header else None


# --------------------------------------------------------------------------- checking


_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


@dataclass
class _Checker:
    source: str
    text: str
    require_channels: bool = True
    problems: list[str] = field(default_factory=list)
    _order: list[int] = field(default_factory=list)

    def sorted_problems(self) -> list[str]:
        """The problems in the order of the lines they are on."""
        return [
            p for _, p in sorted(zip(self._order, self.problems, strict=True), key=lambda t: t[0])
        ]

    def __post_init__(self) -> None:
        self._lines = _key_lines(self.text)

    # -- reporting

    def problem(self, table: str, key: str, message: str, fix: str) -> None:
        parent, _, last = table.rpartition(".")
        line = (
            self._lines.get((table, key))
            or self._lines.get(("", table))
            or (self._lines.get((parent, last)) if parent else None)
        )
        where = f"{self.source}:{line}" if line else self.source
        name = f"{table}.{key}" if table and key else table or key
        self.problems.append(f"{where}: {name}: {message}; {fix}")
        self._order.append(line or 0)

    def unknown_keys(self, table: str, got: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
        for key in got:
            if key not in allowed:
                self.problem(table, key, "unknown key", f"the keys here are {', '.join(allowed)}")

    # -- typed getters: report and return the default when wrong

    def get(
        self,
        table: str,
        data: Mapping[str, Any],
        key: str,
        kind: type | tuple[type, ...],
        default: Any = None,
        *,
        required: bool = False,
        check: Callable[[Any], bool] | None = None,
        expect: str = "",
    ) -> Any:
        if key not in data:
            if required:
                self.problem(table, key, "missing", f"add {key} = {expect or '...'}")
            return default
        value = data[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        wrong_type = not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds)
        if wrong_type or (check is not None and not check(value)):
            self.problem(table, key, f"bad value {value!r}", f"expected {expect}")
            return default
        return value

    def table(self, data: Mapping[str, Any], key: str, *, required: bool) -> dict[str, Any]:
        value = data.get(key)
        if value is None:
            if required:
                self.problem(key, "", "missing table", f"add a [{key}] table")
            return {}
        if not isinstance(value, dict):
            self.problem("", key, "expected a table", f"write it as [{key}]")
            return {}
        return value

    # -- the whole file

    def build(self, data: Mapping[str, Any]) -> BoardProfile | None:
        self.unknown_keys("", data, ("board", "sensing", "codes", "leds", "buttons", "sites"))
        board = self.table(data, "board", required=True)
        self.unknown_keys("board", board, ("name", "game", "description", "options", "palette"))
        name = self.get("board", board, "name", str, "", required=True, expect='"my-board"')
        game = self.get("board", board, "game", str, "", required=True, expect='"shiftago"')
        if game and game not in known_games():
            self.problem(
                "board",
                "game",
                f"unknown game {game!r}",
                f"the games are {', '.join(known_games())}",
            )
        options = self.get("board", board, "options", dict, {}, expect="a table of options")
        palette = self.get(
            "board",
            board,
            "palette",
            list,
            [],
            check=lambda v: all(isinstance(c, str) and _COLOUR.fullmatch(c) for c in v),
            expect='player colours like ["#1f5fff", "#ff2a1a"]',
        )

        leds = self.leds(self.table(data, "leds", required=True))
        count = leds.count if leds else 0
        sensing, settings = self.sensing(self.table(data, "sensing", required=True))
        codes = self.codes(self.table(data, "codes", required=False), game)
        buttons = self.buttons(self.table(data, "buttons", required=False))
        sites = self.sites(self.table(data, "sites", required=True), count)

        self.cross_checks(game, sites, codes, sensing, settings, buttons, leds)
        if self.problems or leds is None:
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
            source=self.source,
            palette=tuple(palette),
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
        self.unknown_keys("leds", t, keys)
        count = self.get(
            "leds", t, "count", int, 0, required=True,
            check=lambda v: 1 <= v <= 4096, expect="a number of LEDs, 1 to 4096",
        )  # fmt: skip
        backend = self.get(
            "leds", t, "backend", str, "sim",
            check=lambda v: v in LED_BACKENDS, expect=" or ".join(map(repr, LED_BACKENDS)),
        )  # fmt: skip
        order = self.get(
            "leds", t, "order", str, "GRB",
            check=lambda v: sorted(v) == ["B", "G", "R"],
            expect='"GRB", "RGB" or another order of R, G and B',
        )  # fmt: skip
        brightness = self.get(
            "leds", t, "brightness", (int, float), 0.5,
            check=lambda v: 0 <= v <= 1, expect="a number from 0 to 1",
        )  # fmt: skip
        gamma = self.get(
            "leds", t, "gamma", (int, float), 2.2,
            check=lambda v: 1 <= v <= 3, expect="a number from 1 (none) to 3",
        )  # fmt: skip
        max_ma = self.get(
            "leds", t, "max_milliamps", int, 2000,
            check=lambda v: 10 <= v <= 100_000, expect="the supply's budget for the LEDs in mA",
        )  # fmt: skip
        per_led = self.get(
            "leds", t, "milliamps_per_led", int, 60,
            check=lambda v: 1 <= v <= 200, expect="one LED's draw at full white in mA (WS2812: 60)",
        )  # fmt: skip
        settings = self.get("leds", t, "settings", dict, {}, expect="a table")
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
            self.unknown_keys(where, t, ("pin", "dma", "freq_hz", "invert", "channel"))
            out["pin"] = self.get(
                where, t, "pin", int, 18, check=lambda v: v in WS281X_PINS,
                expect="a pin rpi_ws281x drives: 18, 12 (PWM0), 13, 19 (PWM1), 21 (PCM), 10 (SPI)",
            )  # fmt: skip
            out["dma"] = self.get(
                where, t, "dma", int, 10, check=lambda v: 0 <= v <= 14 and v != 5,
                expect="a DMA channel 0..14 but not 5 (10 is safe)",
            )  # fmt: skip
            out["freq_hz"] = self.get(
                where, t, "freq_hz", int, 800_000, check=lambda v: 400_000 <= v <= 800_000,
                expect="400000 (WS2811) or 800000 (WS2812)",
            )  # fmt: skip
            out["invert"] = self.get(
                where, t, "invert", bool, False, expect="true behind an inverting level shifter"
            )
            out["channel"] = self.get(
                where, t, "channel", int, WS281X_PINS.get(out["pin"], 0),
                check=lambda v: v in (0, 1), expect="0 or 1 (PWM1 pins 13 and 19 use 1)",
            )  # fmt: skip
        elif backend == "spi":
            self.unknown_keys(where, t, ("bus", "device", "speed_hz"))
            out["bus"] = self.get(
                where, t, "bus", int, 0, check=lambda v: 0 <= v <= 6, expect="an SPI bus 0..6"
            )
            out["device"] = self.get(
                where, t, "device", int, 0, check=lambda v: 0 <= v <= 3, expect="0..3"
            )
            out["speed_hz"] = self.get(
                where, t, "speed_hz", int, 2_400_000,
                check=lambda v: 2_000_000 <= v <= 2_800_000,
                expect="2000000..2800000 (three SPI bits per LED bit; 2400000 is exact)",
            )  # fmt: skip
        else:
            self.unknown_keys(where, t, ())
        return out

    def sensing(self, t: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        kind = self.get(
            "sensing", t, "kind", str, "serial", required=True,
            check=lambda v: v in SENSING_KINDS, expect=" or ".join(map(repr, SENSING_KINDS)),
        )  # fmt: skip
        out: dict[str, Any] = {}
        pin = lambda v: v in BCM_PINS  # noqa: E731
        pin_expect = "a BCM GPIO number 2..27"
        if kind == "serial":
            self.unknown_keys("sensing", t, ("kind", "port", "baudrate"))
            out["port"] = self.get("sensing", t, "port", str, "", expect='"/dev/ttyACM0"')
            out["baudrate"] = self.get(
                "sensing", t, "baudrate", int, 115200, check=lambda v: v > 0, expect="a rate"
            )
        elif kind == "gpio":
            self.unknown_keys("sensing", t, ("kind", "pins", "pull_up", "debounce_ms"))
            pins = self.get(
                "sensing", t, "pins", list, [], required=True,
                check=lambda v: all(isinstance(p, int) and pin(p) for p in v),
                expect=f"a list of pins, one per channel ({pin_expect})",
            )  # fmt: skip
            out["pins"] = tuple(pins)
            out["pull_up"] = self.get(
                "sensing", t, "pull_up", bool, True,
                expect="true when a piece pulls the pin low (reed switch to ground)",
            )  # fmt: skip
        elif kind == "shift-register":
            wiring = ("reader", "load", "clock", "data", "bus", "device", "speed_hz")
            keys = ("kind", *wiring, "chips", "active_low", "poll_hz", "debounce_ms")
            self.unknown_keys("sensing", t, keys)
            reader = self.get(
                "sensing", t, "reader", str, "gpio",
                check=lambda v: v in SHIFT_REGISTER_READERS,
                expect='"gpio" (bit by bit: load, clock, data) or "spi" (the SPI bus: load, bus)',
            )  # fmt: skip
            out["reader"] = reader
            out["load"] = self.get(
                "sensing", t, "load", int, 0, required=True, check=pin, expect=pin_expect
            )
            if t.get("reader", "gpio") != reader:
                pass  # a bad reader, reported: neither reader's keys are checked
            elif reader == "spi":
                self.spi_reader(t, out)
            else:
                for key in ("clock", "data"):
                    out[key] = self.get(
                        "sensing", t, key, int, 0, required=True, check=pin, expect=pin_expect
                    )
                for key in ("bus", "device", "speed_hz"):
                    if key in t:
                        self.problem(
                            "sensing", key, 'only for reader = "spi"',
                            'remove it, or add reader = "spi" to read the chain over the SPI bus',
                        )  # fmt: skip
            out["chips"] = self.get(
                "sensing", t, "chips", int, 1, required=True,
                check=lambda v: 1 <= v <= 32, expect="the number of 74HC165 in the chain, 1..32",
            )  # fmt: skip
            out["active_low"] = self.get(
                "sensing", t, "active_low", bool, True,
                expect="true when a piece pulls the input low",
            )  # fmt: skip
            out["poll_hz"] = self.get(
                "sensing", t, "poll_hz", int, 200,
                check=lambda v: 10 <= v <= 5000, expect="reads per second, 10..5000",
            )  # fmt: skip
            if reader == "spi":
                self.spi_transfer_time(out)
        if kind in ("gpio", "shift-register"):
            out["debounce_ms"] = self.get(
                "sensing", t, "debounce_ms", int, 20,
                check=lambda v: 0 <= v <= 1000, expect="a settle time in ms, 0..1000",
            )  # fmt: skip
        return kind, out

    def spi_reader(self, t: dict[str, Any], out: dict[str, Any]) -> None:
        """The keys of a shift-register chain read over the SPI bus."""
        bus = self.get(
            "sensing", t, "bus", int, None, required=True,
            check=lambda v: v in SENSING_SPI_BUSES,
            expect="1 (the auxiliary bus: MISO GPIO 19, SCLK 21) or 0 (MISO 9, SCLK 11)",
        )  # fmt: skip
        selects = [n for n in SPI_PINS.get(bus, {}).values() if n.startswith("CE")]
        devices = len(selects) or 3
        out["bus"] = bus
        out["device"] = self.get(
            "sensing", t, "device", int, 0, check=lambda v: 0 <= v < devices,
            expect=f"a device of the bus, 0..{devices - 1} (/dev/spidev{bus}.N); the registers "
            "use no chip select, so 0 will do",
        )  # fmt: skip
        out["speed_hz"] = self.get(
            "sensing", t, "speed_hz", int, 1_000_000,
            check=lambda v: 100_000 <= v <= 10_000_000,
            expect="the SPI clock in Hz, 100000..10000000 (1000000 is safe on long wires)",
        )  # fmt: skip
        gpio = {line: pin for pin, line in SPI_PINS.get(bus, {}).items()}
        uses = {"clock": ("SCLK", "goes to every CLK")}
        uses["data"] = ("MISO", "reads QH of the register nearest the Pi")
        for key, (line, use) in uses.items():
            if key in t:
                where = f"SPI bus {bus} (GPIO {gpio[line]})" if gpio else "the SPI bus"
                self.problem(
                    "sensing", key, 'not used with reader = "spi"',
                    f"remove it: {line} of {where} {use}",
                )  # fmt: skip

    def spi_transfer_time(self, out: dict[str, Any]) -> None:
        """A chain read over SPI must be read well within the time between reads."""
        bits, speed, hz = 8 * out["chips"], out["speed_hz"], out["poll_hz"]
        seconds = bits / speed
        if seconds > 0.5 / hz:
            self.problem(
                "sensing", "speed_hz",
                f"{bits} bits at {speed} Hz take {seconds * 1e3:.2g} ms, more than half "
                f"of the {1e3 / hz:.2g} ms between reads at poll_hz = {hz}",
                "raise speed_hz or lower poll_hz",
            )  # fmt: skip

    def codes(self, t: dict[str, Any], game: str) -> dict[int, str]:
        codes: dict[int, str] = {}
        layout = LAYOUTS.get(game)
        for key, value in t.items():
            if not re.fullmatch(r"\d+", key) or int(key) < 2:
                self.problem(
                    "codes", key, "not a sensor code",
                    "codes are whole numbers from 2 up (0 reads empty, 1 present)",
                )  # fmt: skip
                continue
            if not isinstance(value, str) or not value:
                self.problem("codes", key, f"bad value {value!r}", 'expected a piece code "p0"')
                continue
            if layout is not None and value not in layout.pieces:
                self.problem(
                    "codes", key, f"{value!r} is not a {game} piece",
                    f"the pieces are {', '.join(sorted(layout.pieces))}",
                )  # fmt: skip
                continue
            codes[int(key)] = value
        return codes

    def buttons(self, t: dict[str, Any]) -> dict[str, int]:
        self.unknown_keys("buttons", t, BUTTONS)
        out: dict[str, int] = {}
        for name in BUTTONS:
            pin = self.get(
                "buttons", t, name, int, None,
                check=lambda v: v in BCM_PINS, expect="a BCM GPIO number 2..27",
            )  # fmt: skip
            if pin is not None:
                out[name] = pin
        return out

    def sites(self, t: dict[str, Any], led_count: int) -> list[Site]:
        sites: list[Site] = []
        reports_names = tuple(r.value for r in Reports)
        for name, entry in t.items():
            if not isinstance(entry, dict):
                self.problem(
                    "sites", name, "expected a table",
                    f'write {name} = {{ kind = "cell", channel = 0, reports = "presence" }}',
                )  # fmt: skip
                continue
            where = f"sites.{name}"
            keys = ("kind", "channel", "reports", "leds", "x", "y")
            for key in entry:
                if key not in keys:
                    self.problem(
                        "sites", name, f"unknown key {key!r}", f"the keys are {', '.join(keys)}"
                    )
            kind = self.get(where, entry, "kind", str, "", required=True, expect='"cell"')
            channel = self.get(
                where, entry, "channel", int, None,
                check=lambda v: 0 <= v < 4096, expect="a sensor channel, 0 up",
            )  # fmt: skip
            default_reports = "presence" if channel is not None else "none"
            reports = self.get(
                where, entry, "reports", str, default_reports,
                check=lambda v: v in reports_names, expect=" or ".join(map(repr, reports_names)),
            )  # fmt: skip
            leds = self.get(
                where, entry, "leds", list, [],
                check=lambda v: all(isinstance(i, int) and not isinstance(i, bool) for i in v),
                expect="a list of LED indexes",
            )  # fmt: skip
            for index in leds:
                if led_count and not 0 <= index < led_count:
                    self.problem(
                        "sites", name, f"LED {index} is out of range",
                        f"the chain has {led_count} LEDs, 0..{led_count - 1}; "
                        "fix the index or leds.count",
                    )  # fmt: skip
            x = self.get(where, entry, "x", (int, float), 0.0, expect="a number")
            y = self.get(where, entry, "y", (int, float), 0.0, expect="a number")
            report = Reports(reports)
            if channel is None and report is not Reports.NONE and self.require_channels:
                self.problem(
                    "sites", name, f'reports "{reports}" but has no channel',
                    "add channel = N (the sensor that reads it), or run boardctl calibrate",
                )  # fmt: skip
            if channel is not None and report is Reports.NONE:
                self.problem(
                    "sites", name, 'has a channel but reports "none"',
                    'say what the sensor reports, e.g. reports = "presence"',
                )  # fmt: skip
            sites.append(Site(name, kind, channel, report, tuple(leds), float(x), float(y)))
        return sites

    def cross_checks(
        self,
        game: str,
        sites: list[Site],
        codes: dict[int, str],
        sensing: str,
        settings: dict[str, Any],
        buttons: dict[str, int],
        leds: LedChain | None,
    ) -> None:
        # two sites on one channel
        by_channel: dict[int, str] = {}
        for s in sites:
            if s.channel is None:
                continue
            other = by_channel.setdefault(s.channel, s.name)
            if other != s.name:
                self.problem(
                    "sites", s.name, f"channel {s.channel} is also {other}'s",
                    "give each site its own channel (boardctl calibrate finds them)",
                )  # fmt: skip
        reporting_code = [s for s in sites if s.reports is Reports.CODE]
        if reporting_code and not codes:
            self.problem(
                "codes", "", f"{reporting_code[0].name} reports a code but [codes] names no piece",
                'add [codes] with a line per sensor code, e.g. 2 = "p0"',
            )  # fmt: skip
        if sensing in ("gpio", "shift-register"):
            for s in reporting_code:
                self.problem(
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
                    self.problem(
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
            self.problem(
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
            self.problem(table, key, f"GPIO {pin} is also used by {other}", fix)
        # the game's own sites
        layout = LAYOUTS.get(game)
        if layout is None:
            return
        present = {s.name: s for s in sites}
        missing = [n for n in layout.sites if n not in present]
        if missing:
            shown = ", ".join(missing[:8]) + (" ..." if len(missing) > 8 else "")
            self.problem(
                "sites", "", f"{game} needs {len(missing)} more sites: {shown}",
                "describe every site of the game",
            )  # fmt: skip
        for s in sites:
            kind = layout.sites.get(s.name)
            if kind is None:
                self.problem(
                    "sites", s.name, f"{game} has no site {s.name!r}",
                    f"name sites as the {game} engine does (see docs/boards.md)",
                )  # fmt: skip
            elif kind != s.kind:
                self.problem(
                    "sites", s.name, f"kind is {s.kind!r}", f'a {game} {s.name} is "{kind}"'
                )
            elif kind in layout.sensed_kinds and s.reports not in (Reports.PRESENCE, Reports.CODE):
                self.problem(
                    "sites", s.name, f"a {kind} needs a sensor that reports presence or a code",
                    'add channel = N and reports = "presence" or "code"',
                )  # fmt: skip
