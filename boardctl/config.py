"""The daemon's configuration: packaged defaults, then the file, then flags.

The packaged defaults live in ``boardctl/defaults.toml``; ``/etc/boardctl/boardctl.toml``
overrides them key by key, and ``--set section.key=value`` flags override both.
The result is a frozen :class:`Config`. Reading is strict, like Klipper's config
sections: an unknown section or key, a value of the wrong type or out of range
fails at start-up with the file, line, key and what to write instead.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, get_type_hints

from boardctl.errors import ConfigError
from boardctl.message import M_, Mn_, said
from boardctl.seats import ALL_HANDS, SeatError, Seats
from boardctl.textfiles import MAX_DEPTH, UnreadableFile, depth, read_toml

if TYPE_CHECKING:
    from boardctl.board import BoardProfile

DEFAULT_PATH = Path("/etc/boardctl/boardctl.toml")


@dataclass(frozen=True, slots=True)
class BoardConfig:
    #: a profile name from hardware/profiles or a path to a profile file
    profile: str
    #: the game to start; empty for the profile's own game
    game: str
    #: the board's language ("en", "de", "fr"): its voice, the simulator's screen,
    #: ``boardctl status`` and any page whose visitor's browser asks for none of ours
    language: str = "en"


@dataclass(frozen=True, slots=True)
class SerialConfig:
    #: the microcontroller's port, by a stable name; "" for the profile's
    port: str
    #: 0 for the profile's
    baudrate: int


@dataclass(frozen=True, slots=True)
class ControllerConfig:
    #: how long the board must be still before a change is judged
    settle_ms: int
    #: an action read off the board is amended while the board changes again
    #: this long from the reading that completed it (a disc slid on); at most
    #: settle_ms: never
    amend_ms: int
    #: how long a wrong board may stand before it is shown as an error
    grace_ms: int
    #: idle time before the attract animation; 0 never
    attract_after_s: int
    #: untouched time after which a game under way is kept as abandoned and
    #: the board waits for the next visitor; 0 never
    abandon_after_s: int
    #: the same for a finished game left standing; 0 never
    finished_after_s: int
    #: how often the LED scene is refreshed while something animates
    frame_rate_hz: int
    #: who gives chance's outcomes: "random" (the daemon draws them),
    #: "button" (the daemon draws each at a press of the choose button) or
    #: "operator" (`boardctl roll`, or the board shows them; secret ones are drawn)
    chance: str


@dataclass(frozen=True, slots=True)
class LedsConfig:
    #: 0.0-1.0; negative keeps the profile's brightness
    brightness: float
    #: colours of players 0..3 as "#rrggbb"; empty for the profile's
    palette: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StorageConfig:
    #: where the game database and finished records are kept
    state_dir: str


@dataclass(frozen=True, slots=True)
class ControlConfig:
    #: the control socket's path
    socket: str
    #: its permission bits, as an octal string
    mode: str


@dataclass(frozen=True, slots=True)
class LoggingConfig:
    #: debug, info, warning or error
    level: str


@dataclass(frozen=True, slots=True)
class WebConfig:
    #: "host:port" the web pages are served on; "" serves none
    listen: str
    #: the operator password as `boardctl web password` writes it (hashed)
    password_hash: str
    #: a secret the operator page also accepts (?token=...)
    token: str


@dataclass(frozen=True, slots=True)
class MqttConfig:
    #: the broker, "mqtt://host:1883" or "mqtts://host:8883"; "" for none (off)
    broker: str
    #: this board's name on the broker (its topics are boardctl/<board_id>/...); "" is the
    #: host name
    board_id: str
    #: the user the board signs in as ("" signs in anonymously: then no command is taken)
    user: str
    #: a file holding the user's password, readable by the service alone
    password_file: str
    #: the certificate authority of an mqtts:// broker; "" trusts the system's
    ca_file: str
    #: announce the board to Home Assistant (MQTT discovery)
    discovery: bool
    #: the topic prefix Home Assistant's discovery listens on
    discovery_prefix: str


@dataclass(frozen=True, slots=True)
class ComputerConfig:
    #: the longest the computer may think over one turn, in seconds; past it
    #: the best move found so far is played (a level's own budget is far less)
    max_seconds: float


@dataclass(frozen=True, slots=True)
class ScheduleConfig:
    #: the opening hours, local time ("mon-fri 10:00-18:00; sat,sun 09:00-20:00");
    #: "" always open
    hours: str


@dataclass(frozen=True, slots=True)
class SoundConfig:
    #: short sounds for an action accepted, a wrong board, a turn, a choice,
    #: the computer's move, the end of a game
    cues: bool
    #: a voice saying the same in words (espeak-ng)
    voice: bool
    #: 0 to 100 (%)
    volume: int
    #: quiet hours, local time, written as opening hours ("22:00-08:00"); "" never quiet
    quiet: str
    #: the ALSA device that plays: "auto" (the default one, where the machine has
    #: a sound card), "" for none, or a name from `aplay -L` ("plughw:1,0")
    device: str


@dataclass(frozen=True, slots=True)
class Config:
    board: BoardConfig
    game_options: Mapping[str, Any]
    serial: SerialConfig
    controller: ControllerConfig
    leds: LedsConfig
    storage: StorageConfig
    control: ControlConfig
    logging: LoggingConfig
    web: WebConfig
    computer: ComputerConfig
    schedule: ScheduleConfig
    mqtt: MqttConfig
    sound: SoundConfig
    #: who plays each seat ([game] seats: "hands,computer:3"); every seat hands by default
    seats: Seats = ALL_HANDS
    #: (section, key) -> where its value came from ("file:line: [section] key")
    where: Mapping[tuple[str, str], str] = field(
        default_factory=lambda: MappingProxyType({}), compare=False, repr=False
    )

    def check_board(self, board: BoardProfile) -> None:
        """Refuse what :meth:`check_game` refuses, a ``[board] game`` that
        ``board`` does not play, ``[game]`` options that make a board ``board``
        cannot be (another grid size), and more player colours than the game
        has seats."""
        game = self.board.game or board.game
        self.check_game(game, board.source)
        if self.controller.chance == "button" and "choose" not in board.buttons:
            place = self.where.get(("controller", "chance"), "[controller] chance")
            raise ConfigError(
                M_(
                    '{where}: "button" draws chance\'s outcomes at a press of the choose button,'
                    " and this board ({board}) has none: give it one in its profile's"
                    ' [buttons] (choose = PIN), or use "random" or "operator"',
                    where=place,
                    board=board.name,
                )
            )
        if self.board.game and self.board.game != board.game:
            place = self.where.get(("board", "game"), "[board] game")
            raise ConfigError(
                M_(
                    "{where}: this board ({board}) plays {game}, not {asked}; leave [board]"
                    " game empty for the board's own game, or choose a profile of a {asked}"
                    " board in [board] profile",
                    where=place,
                    board=board.name,
                    game=board.game,
                    asked=self.board.game,
                )
            )
        from boardctl.board import unfit
        from boardctl.engines import create, most_players

        # the options the daemon starts the game with (runner.Daemon)
        configured = self.game_options or self.board.game
        options = dict(self.game_options) if configured else dict(board.game_options)
        why = unfit(board, create(game, options).board().site_kinds)
        if why is not None:
            keys = [
                k for k in self.game_options if board.game_options.get(k) != self.game_options[k]
            ]
            place = self.where.get((_GAME, keys[0]), "[game]") if keys else "[game]"
            raise ConfigError(
                M_(
                    "{where}: {game} with the options {options} cannot be played on this"
                    " board: {why}; leave the option out for the board's own",
                    where=place,
                    game=game,
                    options=options_text(options),
                    why=why,
                )
            )
        seats = most_players(game, options)
        if len(self.leds.palette) > seats:
            place = self.where.get(("leds", "palette"), "[leds] palette")
            raise ConfigError(
                Mn_(
                    "{where}: {n} colour, and {game} seats at most {seats} players: give one"
                    " colour per seat, at most {seats}",
                    "{where}: {n} colours, and {game} seats at most {seats} players: give one"
                    " colour per seat, at most {seats}",
                    len(self.leds.palette),
                    where=place,
                    game=game,
                    seats=seats,
                )
            )

    def check_game(self, game: str, profile: str = "") -> None:
        """Refuse a game without an engine and ``[game]`` options that ``game``'s
        engine does not take, naming where they were set: ``[board] game`` of
        the configuration, or else the board's ``profile`` file."""
        from boardctl.engines import GAMES, create
        from boardctl.errors import BadOptions, UnknownGame

        try:
            engine = create(game, dict(self.game_options))
        except UnknownGame as exc:
            if self.board.game:
                place = self.where.get(("board", "game"), "[board] game")
                raise ConfigError(_at(place, exc)) from None
            raise ConfigError(
                M_(
                    "{profile}: [board] game: boardctl has no engine for {game} yet; it plays"
                    " {games}: choose a profile of one of those in [board] profile",
                    profile=profile or M_("the board profile"),
                    game=repr(game),
                    games=", ".join(sorted(GAMES)),
                )
            ) from None
        except BadOptions as exc:
            key = blamed(str(exc), list(self.game_options))
            place = self.where.get((_GAME, key), "[game]") if key else "[game]"
            raise ConfigError(_at(place, exc)) from None
        place = self.where.get((_GAME, SEATS), f"[game] {SEATS}")
        try:
            self.seats.check(engine.players, engine.name)
        except SeatError as exc:
            raise ConfigError(_at(place, exc)) from None
        if self.seats.any_computer:
            from boardctl.controller.opponent import unplayable

            why = unplayable(engine.seated(self.seats.computers))
            if why is not None:
                raise ConfigError(
                    M_("{where}: {why}; name only hands for its seats", where=place, why=why)
                )

    def to_toml(self) -> str:
        """The configuration as TOML that :func:`load` reads back."""
        lines: list[str] = []
        for name, section in _sections().items():
            lines.append(f"[{name}]")
            if section is None:
                lines.append(f"{SEATS} = {_toml_value(str(self.seats))}")
                for key, value in self.game_options.items():
                    lines.append(f"{key} = {_toml_value(value)}")
            else:
                for f in dataclasses.fields(section):
                    lines.append(f"{f.name} = {_toml_value(getattr(getattr(self, name), f.name))}")
            lines.append("")
        return "\n".join(lines)


#: the [game] section holds the engine's options, checked by the engine itself
_GAME = "game"
#: the key of [game] that is not an engine's option: who plays each seat
SEATS = "seats"

_RANGES: Mapping[tuple[str, str], tuple[float, float]] = {
    ("serial", "baudrate"): (0, 4_000_000),
    ("controller", "settle_ms"): (0, 5_000),
    ("controller", "grace_ms"): (0, 60_000),
    ("controller", "amend_ms"): (0, 5_000),
    ("controller", "attract_after_s"): (0, 86_400),
    ("controller", "abandon_after_s"): (0, 604_800),
    ("controller", "finished_after_s"): (0, 604_800),
    ("controller", "frame_rate_hz"): (1, 120),
    ("leds", "brightness"): (-1.0, 1.0),
    ("computer", "max_seconds"): (1.0, 120.0),
    ("sound", "volume"): (0, 100),
}
_CHOICES: Mapping[tuple[str, str], tuple[str, ...]] = {
    ("logging", "level"): ("debug", "info", "warning", "error"),
    ("controller", "chance"): ("random", "button", "operator"),
}


def _sections() -> dict[str, type[Any] | None]:
    hints = get_type_hints(Config)
    out: dict[str, type[Any] | None] = {}
    for f in dataclasses.fields(Config):
        if f.name in ("where", SEATS):
            continue
        out[_GAME if f.name == "game_options" else f.name] = (
            None if f.name == "game_options" else hints[f.name]
        )
    return out


def blamed(message: str, keys: Sequence[str]) -> str | None:
    """The key a message about options names first (else the first key)."""
    found = [(m.start(), k) for k in keys if (m := re.search(rf"\b{re.escape(k)}\b", message))]
    return min(found)[1] if found else (keys[0] if keys else None)


def options_text(options: Mapping[str, Any], limit: int = 60) -> str:
    """Options as ``key=value`` words, cut short when they are long."""
    text = " ".join(f"{k}={v}" for k, v in options.items())
    if not text:
        return M_("(none)")
    if len(text) <= limit:
        return text
    return M_("{start}... ({length} characters)", start=text[:limit], length=len(text))


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return repr(value)


def _line_of(text: str, section: str, key: str | None) -> int | None:
    """The 1-based line where ``key`` (or the section header) stands in TOML text."""
    current = ""
    header = re.compile(r"^\s*\[\s*([A-Za-z0-9_.-]+)\s*\]")
    for number, line in enumerate(text.splitlines(), start=1):
        m = header.match(line)
        if m:
            current = m.group(1)
            if key is None and current == section:
                return number
            continue
        if key is not None and current == section and re.match(rf"^\s*{re.escape(key)}\s*=", line):
            return number
    return None


class _Source:
    """One layer of configuration, with enough to name it in an error."""

    def __init__(self, name: str, data: Mapping[str, Any], text: str = "") -> None:
        self.name = name
        self.data = data
        self.text = text

    def where(self, section: str, key: str | None = None) -> str:
        line = _line_of(self.text, section, key) if self.text else None
        place = f"{self.name}:{line}" if line else self.name
        return f"{place}: [{section}]" + (f" {key}" if key else "")


def _read_toml(path: Path) -> _Source:
    try:
        text, data = read_toml(path, what=M_("the configuration"))
    except UnreadableFile as exc:
        raise ConfigError(M_("{fault}; fix the configuration there", fault=exc.of(path))) from None
    return _Source(str(path), data, text)


def _defaults() -> _Source:
    text = resources.files("boardctl").joinpath("defaults.toml").read_text(encoding="utf-8")
    return _Source("boardctl/defaults.toml", tomllib.loads(text), text)


def parse_set(assignment: str) -> tuple[str, str, Any]:
    """Read a ``--set section.key=value`` flag; the value is TOML (bare words are text)."""
    name, sep, raw = assignment.partition("=")
    section, dot, key = name.strip().partition(".")
    if not sep or not dot or not section or not key:
        raise ConfigError(
            M_(
                "--set {assignment}: write section.key=value, e.g. --set controller.settle_ms=200",
                assignment=repr(assignment),
            )
        )
    if depth(raw) > MAX_DEPTH:
        raise ConfigError(
            M_(
                "--set {name}: the value is nested more than {depth} deep",
                name=name.strip(),
                depth=MAX_DEPTH,
            )
        )
    try:
        value = tomllib.loads(f"v = {raw.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw.strip()
    return section, key, value


def _check(section: str, key: str, value: Any, expected: Any, where: str) -> Any:
    origin = getattr(expected, "__origin__", None)
    if origin is tuple:
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise ConfigError(M_('{where}: must be a list of text, e.g. ["#e69f00"]', where=where))
        value = tuple(value)
    elif expected is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(
                M_("{where}: must be a number, not {value}", where=where, value=repr(value))
            )
        value = float(value)
    elif expected is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(
                M_("{where}: must be a whole number, not {value}", where=where, value=repr(value))
            )
    elif expected is bool:
        if not isinstance(value, bool):
            raise ConfigError(
                M_("{where}: must be true or false, not {value}", where=where, value=repr(value))
            )
    elif expected is str and not isinstance(value, str):
        raise ConfigError(
            M_('{where}: must be text in quotes, e.g. "{value}"', where=where, value=value)
        )
    bounds = _RANGES.get((section, key))
    if bounds is not None and not bounds[0] <= value <= bounds[1]:
        raise ConfigError(
            M_(
                "{where}: {value} is out of range; use {low} to {high}",
                where=where,
                value=value,
                low=bounds[0],
                high=bounds[1],
            )
        )
    choices = _CHOICES.get((section, key))
    if choices is not None and value not in choices:
        raise ConfigError(
            M_(
                "{where}: {value} is not one of {choices}",
                where=where,
                value=repr(value),
                choices=", ".join(choices),
            )
        )
    return value


def _seats(value: Any, where: str) -> Seats:
    """``[game] seats``: text like "hands,computer:3", or a list of such words."""
    if not isinstance(value, str | list) or (
        isinstance(value, list) and not all(isinstance(v, str) for v in value)
    ):
        raise ConfigError(
            M_(
                '{where}: must be text naming who plays each seat, e.g. "hands,computer:3"',
                where=where,
            )
        )
    try:
        return Seats.of(value)
    except SeatError as exc:
        raise ConfigError(_at(where, exc)) from None


def _at(where: str, exc: BaseException) -> str:
    """A fault ``exc`` found in a value, named with the place it was set (``where``)."""
    return M_("{where}: {fault}", where=where, fault=said(exc))


def load(
    path: str | Path | None = None,
    overrides: Sequence[str] = (),
    *,
    required: bool = False,
) -> Config:
    """The configuration: defaults, then ``path`` (if it exists), then overrides.

    ``path`` defaults to ``/etc/boardctl/boardctl.toml``; a missing file is
    fine unless ``required``.
    """
    layers = [_defaults()]
    file = Path(path) if path is not None else DEFAULT_PATH
    if file.exists() or required:
        layers.append(_read_toml(file))
    if overrides:
        flags: dict[str, dict[str, Any]] = {}
        for assignment in overrides:
            section, key, value = parse_set(assignment)
            flags.setdefault(section, {})[key] = value
        layers.append(_Source("--set", flags))

    sections = _sections()
    merged: dict[str, dict[str, Any]] = {name: {} for name in sections}
    where: dict[tuple[str, str], str] = {}
    for layer in layers:
        for section, table in layer.data.items():
            if section not in sections and not isinstance(table, dict):
                line = _line_of(layer.text, "", section) if layer.text else None
                place = f"{layer.name}:{line}" if line else layer.name
                raise ConfigError(
                    M_(
                        "{place}: {key}: a key outside any section; put it under its section,"
                        " e.g. [game] for the engine's options; the sections are {sections}",
                        place=place,
                        key=section,
                        sections=", ".join(sections),
                    )
                )
            if section not in sections:
                raise ConfigError(
                    M_(
                        "{where}: unknown section; the sections are {sections}",
                        where=layer.where(section),
                        sections=", ".join(sections),
                    )
                )
            if not isinstance(table, dict):
                raise ConfigError(
                    M_(
                        "{where}: must be a table, [{section}]",
                        where=layer.where(section),
                        section=section,
                    )
                )
            cls = sections[section]
            known = {f.name for f in dataclasses.fields(cls)} if cls is not None else None
            for key, value in table.items():
                if known is not None and key not in known:
                    raise ConfigError(
                        M_(
                            "{where}: unknown key; [{section}] has {keys}",
                            where=layer.where(section, key),
                            section=section,
                            keys=", ".join(sorted(known)),
                        )
                    )
                merged[section][key] = value
                where[(section, key)] = layer.where(section, key)

    built: dict[str, Any] = {}
    for section, cls in sections.items():
        if cls is None:
            options = dict(merged[section])
            built[SEATS] = _seats(options.pop(SEATS, ""), where.get((section, SEATS), ""))
            built["game_options"] = MappingProxyType(options)
            continue
        hints = get_type_hints(cls)
        values = {}
        for f in dataclasses.fields(cls):
            if f.name not in merged[section]:
                raise ConfigError(f"boardctl/defaults.toml: [{section}] {f.name} has no default")
            values[f.name] = _check(
                section, f.name, merged[section][f.name], hints[f.name], where[(section, f.name)]
            )
        built[section] = cls(**values)
    from boardctl.controller.scenes import parse_colour, signal_clash

    for n, colour in enumerate(built["leds"].palette):
        if not re.fullmatch(r"#[0-9a-fA-F]{6}", colour):
            raise ConfigError(
                M_(
                    '{where}: colour {number} {colour} must be written #rrggbb, e.g. "#e69f00"',
                    where=where[("leds", "palette")],
                    number=n + 1,
                    colour=repr(colour),
                )
            )
        why = signal_clash(parse_colour(colour))
        if why is not None:
            raise ConfigError(
                M_(
                    "{where}: colour {number}: {why}; choose another for that player, so a"
                    " mistake is never taken for a player's light",
                    where=where[("leds", "palette")],
                    number=n + 1,
                    why=why,
                )
            )
    _check_language(built["board"], where)
    _check_control(built["control"], where)
    _check_web(built["web"], where)
    _check_schedule(built["schedule"], where)
    _check_mqtt(built["mqtt"], where)
    _check_sound(built["sound"], where)
    return Config(**built, where=MappingProxyType(where))


def _check_language(board: BoardConfig, where: Mapping[tuple[str, str], str]) -> None:
    from boardctl import i18n

    if not i18n.known(board.language):
        raise ConfigError(
            M_(
                "{where}: boardctl speaks no {language}; choose one of {languages}"
                " (docs/languages.md adds a language)",
                where=where[("board", "language")],
                language=repr(board.language),
                languages=", ".join(i18n.languages()),
            )
        )


def _check_schedule(schedule: ScheduleConfig, where: Mapping[tuple[str, str], str]) -> None:
    from boardctl.controller.hours import HoursError, OpeningHours

    try:
        OpeningHours.parse(schedule.hours)
    except HoursError as exc:
        raise ConfigError(_at(where[("schedule", "hours")], exc)) from None


#: the longest ALSA device name taken ("plughw:CARD=Headphones,DEV=0" is 28)
MAX_DEVICE = 80


def _check_sound(sound: SoundConfig, where: Mapping[tuple[str, str], str]) -> None:
    """``[sound]``: quiet hours written as opening hours, an ALSA device name."""
    from boardctl.controller.hours import HoursError, OpeningHours

    try:
        OpeningHours.parse(sound.quiet)
    except HoursError as exc:
        raise ConfigError(
            M_(
                '{where}: {fault}; e.g. "22:00-08:00", or "" for never quiet',
                where=where[("sound", "quiet")],
                fault=said(exc),
            )
        ) from None
    device = sound.device
    if len(device) > MAX_DEVICE or not re.fullmatch(r"[A-Za-z0-9_:,.=@-]*", device):
        raise ConfigError(
            M_(
                '{where}: {device} is not an ALSA device name: give "auto" (the default'
                ' device, where there is a sound card), "" for no speaker, or a name'
                ' `aplay -L` lists, e.g. "plughw:1,0"',
                where=where[("sound", "device")],
                device=repr(device[:40]),
            )
        )


#: the longest path a Unix socket may have (sun_path, less its closing NUL)
MAX_SOCKET_PATH = 107


def _check_control(control: ControlConfig, where: Mapping[tuple[str, str], str]) -> None:
    """The control socket: a path, and a mode that lets no other user in."""
    from boardctl.errors import excerpt

    path = control.socket
    if not path.strip():
        raise ConfigError(
            M_(
                '{where}: empty; give the socket\'s path, e.g. "/run/boardctl/control.sock"',
                where=where[("control", "socket")],
            )
        )
    if len(path.encode("utf-8", "surrogateescape")) > MAX_SOCKET_PATH:
        raise ConfigError(
            M_(
                "{where}: longer than a Unix socket's path may be ({most} bytes); choose a"
                " shorter one, e.g. /run/boardctl/control.sock",
                where=where[("control", "socket")],
                most=MAX_SOCKET_PATH,
            )
        )
    place = where[("control", "mode")]
    mode = control.mode
    if not re.fullmatch(r"(0o|0)?[0-7]{3}", mode):
        raise ConfigError(
            M_(
                "{where}: {mode} is not octal permission bits: three digits 0-7 for the"
                ' owner, the group and others, e.g. "0600"',
                where=place,
                mode=excerpt(mode),
            )
        )
    bits = int(mode, 8)
    if bits & 0o007:
        raise ConfigError(
            M_(
                "{where}: {mode} lets any user of this machine command the board; use"
                ' "0600" (boardctl\'s user only) or "0660" (and its group)',
                where=place,
                mode=repr(mode),
            )
        )
    if bits & 0o600 != 0o600:
        raise ConfigError(
            M_(
                "{where}: {mode} does not let boardctl's own user read and write the socket;"
                ' use "0600" or "0660"',
                where=place,
                mode=repr(mode),
            )
        )


def _check_web(web: WebConfig, where: Mapping[tuple[str, str], str]) -> None:
    """``[web]`` as the daemon's web server checks it, before anything starts."""
    from boardctl.web.auth import check_settings

    check_settings(
        web.listen,
        web.password_hash,
        web.token,
        lambda key: where.get(("web", key), f"[web] {key}"),
    )


def _check_mqtt(mqtt: MqttConfig, where: Mapping[tuple[str, str], str]) -> None:
    """``[mqtt]`` as the daemon's broker client checks it, before anything starts."""
    from boardctl.fleet.settings import check_settings

    check_settings(mqtt, lambda key: where.get(("mqtt", key), f"[mqtt] {key}"))
