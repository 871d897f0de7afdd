"""The logic of the bring-up tools, apart from the terminal and the hardware.

- :func:`led_walk`: every site's LEDs, one site and one colour at a time;
- :class:`SensorTable`: every site's reading, kept up to date from events;
- :class:`Calibration`: lights one site at a time and learns which channel
  answers when a piece is placed there; :func:`run_calibration` drives it with
  a strip and a sensor source, :func:`write_channels` puts the result in the
  profile file (keeping a ``.bak``);
- :class:`SimHand`: a simulated player's hand that watches a simulated strip
  and puts a piece on the site it lights (for ``--sim`` and the tests).
"""

from __future__ import annotations

import enum
import logging
import os
import queue
import re
import shutil
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from boardctl.board import BoardProfile, Reports, Site
from boardctl.message import M_, Mn_, Mp_
from boardctl.sensing import (
    ButtonPress,
    LinkDown,
    LinkUp,
    SensorChange,
    SensorEvent,
    SensorSnapshot,
    SensorSource,
)
from hardware.errors import HardwareError
from hardware.leds.base import BLACK, RGB, LedStrip
from hardware.leds.sim import SentFrame, SimStrip
from hardware.profiles import PROFILE_DIR, parse_profile, table_header

log = logging.getLogger(__name__)

#: the colours of the LED walk, by name
WALK_COLOURS: tuple[tuple[str, RGB], ...] = (
    (Mp_("LED colour", "red"), (255, 0, 0)),
    (Mp_("LED colour", "green"), (0, 255, 0)),
    (Mp_("LED colour", "blue"), (0, 0, 255)),
    (Mp_("LED colour", "white"), (255, 255, 255)),
)

#: calibration: the site waiting for a piece, the site that answered, the sites done
PROMPT: RGB = (255, 140, 0)
ANSWERED: RGB = (0, 255, 0)
DONE: RGB = (0, 24, 0)


# --------------------------------------------------------------------------- LED walk


@dataclass(frozen=True, slots=True)
class LedStep:
    """One step of the LED walk: ``site``'s LEDs lit in ``colour``, all others off."""

    site: str
    colour: str
    frame: tuple[RGB, ...]


def led_walk(
    profile: BoardProfile, colours: Sequence[tuple[str, RGB]] = WALK_COLOURS
) -> Iterator[LedStep]:
    """Every site with LEDs, in profile order, in each colour."""
    count = profile.leds.count
    for site in profile.sites:
        if not site.leds:
            continue
        for name, rgb in colours:
            frame = [BLACK] * count
            for index in site.leds:
                frame[index] = rgb
            yield LedStep(site.name, name, tuple(frame))


# --------------------------------------------------------------------------- sensor table


class BadSensorInput(HardwareError, ValueError):
    """A line typed to the simulated sensors that names no site or no reading."""


def typed_reading(
    profile: BoardProfile, words: Sequence[str], values: Sequence[int]
) -> tuple[int, int]:
    """The channel and value a line typed to the simulated sensors sets:
    ``SITE VALUE`` (a piece name from the profile's codes, or the raw number),
    or ``SITE`` alone to toggle between nothing and 1. ``values`` are the
    channels' current readings."""
    example = next((s.name for s in profile.sites if s.channel is not None), "a1")
    form = M_("type a site and a value, e.g. {example} 1, or q", example=example)
    name = words[0]
    try:
        site = profile.site(name)
    except KeyError:
        raise BadSensorInput(
            M_("no site {site} on {board}: {form}", site=repr(name), board=profile.name, form=form)
        ) from None
    if site.channel is None:
        raise BadSensorInput(M_("site {site} has no sensor: {form}", site=name, form=form))
    if len(words) == 1:
        return site.channel, int(not values[site.channel])
    if len(words) > 2:
        raise BadSensorInput(M_("{typed}? {form}", typed=" ".join(words), form=form))
    text = words[1]
    if text.isdigit():
        return site.channel, int(text)
    codes = {piece: code for code, piece in sorted(profile.codes.items())}
    if text in codes:
        return site.channel, codes[text]
    if codes:
        shown = ", ".join(list(codes)[:4]) + (", ..." if len(codes) > 4 else "")
        hint = M_("give a piece name ({pieces}) or the raw sensor number", pieces=shown)
    else:
        hint = M_("give the raw sensor number (1 for a piece, 0 for none)")
    raise BadSensorInput(M_("value {value}? {hint}", value=text, hint=hint))


class SensorTable:
    """The latest reading of every channel and what it means on each site."""

    def __init__(self, profile: BoardProfile) -> None:
        self.profile = profile
        self.values: dict[int, int] = {}
        self.link: str = M_("waiting for the sensors")
        self.last_button = ""

    def apply(self, event: SensorEvent) -> None:
        match event:
            case SensorSnapshot(values):
                self.values = dict(enumerate(values))
            case SensorChange(channel, value):
                self.values[channel] = value
            case LinkUp(description):
                self.link = (
                    M_("up ({description})", description=description) if description else M_("up")
                )
            case LinkDown(reason):
                self.link = M_("down: {reason}", reason=reason)
                self.values = {}
            case ButtonPress(button):
                self.last_button = button

    def reading(self, site: Site) -> str:
        """What ``site`` reads: ``-`` nothing, a piece code, or ``?`` unknown."""
        if site.channel is None or site.channel not in self.values:
            return "?"
        value = self.values[site.channel]
        if site.reports is Reports.PULSE:
            return M_("interrupted") if value else "-"
        return self.profile.sensed_piece(site.name, value) or "-"

    def render(self, words: Callable[[str], str] = str) -> str:
        """A table: one line per sensed site, then any channel no site claims;
        ``words`` gives each text in the reader's language (the columns fit it)."""
        head = words(M_("sensors: {link}", link=self.link))
        if self.last_button:
            head += "   " + words(M_("button: {button}", button=self.last_button))
        site_, channel_, raw_, reading_ = (
            words(w)
            for w in (
                Mp_("sensor table", "site"),
                Mp_("sensor table", "channel"),
                Mp_("sensor table", "raw"),
                Mp_("sensor table", "reading"),
            )
        )
        a, b, c = max(6, len(site_)), max(7, len(channel_)), max(5, len(raw_))
        lines = [head, f"{site_:<{a}} {channel_:>{b}} {raw_:>{c}}  {reading_}"]
        for site in self.profile.sites:
            if site.channel is None and site.reports is Reports.NONE:
                continue
            raw = self.values.get(site.channel, "") if site.channel is not None else ""
            channel = "" if site.channel is None else site.channel
            reading = words(self.reading(site))
            lines.append(f"{site.name:<{a}} {channel!s:>{b}} {raw!s:>{c}}  {reading}")
        stray = [
            ch
            for ch, value in sorted(self.values.items())
            if value and self.profile.site_of_channel(ch) is None
        ]
        if stray:
            lines.append(
                words(
                    M_(
                        "channels with a reading but no site: {channels}",
                        channels=", ".join(map(str, stray)),
                    )
                )
            )
        return "\n".join(lines)


# --------------------------------------------------------------------------- calibration


class Step(enum.Enum):
    PLACE = "place"
    REMOVE = "remove"
    DONE = "done"


class Calibration:
    """Learns each sensed site's channel. Pure: feed it events, show its frames.

    For each site in turn it asks for a piece there (:data:`PROMPT` colour); the
    first channel that answers and is not already some other site's is that
    site's; once the piece is taken off again it moves to the next site."""

    def __init__(self, profile: BoardProfile, sites: Sequence[str] | None = None) -> None:
        self.profile = profile
        names = sites or [s.name for s in profile.sites if s.reports is not Reports.NONE]
        self.targets = [profile.site(n) for n in names]
        self.mapping: dict[str, int] = {}
        self.position = 0
        self.step = Step.PLACE if self.targets else Step.DONE
        self.busy: set[int] = set()
        self.messages: list[str] = []

    @property
    def current(self) -> Site | None:
        return self.targets[self.position] if self.step is not Step.DONE else None

    @property
    def done(self) -> bool:
        return self.step is Step.DONE

    def prompt(self) -> str:
        site = self.current
        if site is None:
            return Mn_("done: {n} site calibrated", "done: {n} sites calibrated", len(self.mapping))
        where = {"number": self.position + 1, "count": len(self.targets), "site": site.name}
        if self.step is Step.PLACE and site.reports is Reports.PULSE:
            return M_("[{number}/{count}] pass a piece through {site} (lit)", **where)
        if self.step is Step.PLACE:
            return M_("[{number}/{count}] put a piece on {site} (lit)", **where)
        return M_(
            "{site} is channel {channel}: take the piece off",
            site=site.name,
            channel=self.mapping[site.name],
        )

    def frame(self) -> tuple[RGB, ...]:
        frame = [BLACK] * self.profile.leds.count
        for name in self.mapping:
            for index in self.profile.site(name).leds:
                frame[index] = DONE
        site = self.current
        if site is not None:
            colour = PROMPT if self.step is Step.PLACE else ANSWERED
            for index in site.leds:
                frame[index] = colour
        return tuple(frame)

    def feed(self, event: SensorEvent) -> None:
        site = self.current
        if isinstance(event, SensorSnapshot):
            self.busy = {ch for ch, v in enumerate(event.values) if v}
            if self.busy:
                self.note(
                    M_(
                        "channels {channels} read something: clear the board",
                        channels=sorted(self.busy),
                    )
                )
            return
        if not isinstance(event, SensorChange) or site is None:
            return
        channel, value = event.channel, event.value
        if value:
            self.busy.add(channel)
        else:
            self.busy.discard(channel)
        if self.step is Step.PLACE and value:
            owner = next((n for n, ch in self.mapping.items() if ch == channel), None)
            if owner is not None:
                self.note(
                    M_(
                        "channel {channel} answered, but it is {site}'s: ignored",
                        channel=channel,
                        site=owner,
                    )
                )
                return
            self.mapping[site.name] = channel
            self.step = Step.REMOVE
        elif self.step is Step.REMOVE and channel == self.mapping[site.name] and not value:
            self.position += 1
            self.step = Step.PLACE if self.position < len(self.targets) else Step.DONE

    def note(self, message: str) -> None:
        log.warning("%s", message)
        self.messages.append(message)


def run_calibration(
    calibration: Calibration,
    strip: LedStrip,
    source: SensorSource,
    *,
    timeout: float = 120.0,
    say: Callable[[str], None] = print,
) -> dict[str, int]:
    """Run a calibration to the end with an open strip and an unstarted source.
    Raises :class:`HardwareError` if no sensor answers within ``timeout``."""
    events: queue.Queue[SensorEvent] = queue.Queue()
    source.start(events.put)
    try:
        shown = ""
        while True:
            strip.show(calibration.frame())
            text = calibration.prompt()
            if text != shown:
                say(text)
                shown = text
            if calibration.done:
                return dict(calibration.mapping)
            try:
                event = events.get(timeout=timeout)
            except queue.Empty:
                raise HardwareError(
                    M_(
                        "calibration: nothing answered for {seconds} s at {site}; check the"
                        " sensor wiring and run it again",
                        seconds=f"{timeout:g}",
                        site=calibration.current.name if calibration.current else "?",
                    )
                ) from None
            if isinstance(event, LinkDown):
                raise HardwareError(
                    M_("calibration: the sensors stopped: {reason}", reason=event.reason)
                )
            calibration.feed(event)
    finally:
        source.close()


_SITE_LINE = re.compile(r"^(\s*)([\"']?)([A-Za-z0-9_+-]+)\2(\s*=\s*\{)(.*)(\}\s*(#.*)?)$")
_CHANNEL = re.compile(r"\bchannel\s*=\s*\d+")
_TABLE_CHANNEL = re.compile(r"^(\s*channel\s*=\s*)\d+")


def set_channels(text: str, mapping: Mapping[str, int]) -> str:
    """The profile text with each named site's ``channel`` set; everything else
    (comments, order, spacing) is kept. A site may be written on one line of
    ``[sites]`` (``a1 = { ... }``) or as a table of its own (``[sites.a1]``)."""
    out: list[str] = []
    section = ""
    left = dict(mapping)
    # a [sites.X] table being read: the site, and where its header is in out
    table_site: tuple[str, int] | None = None

    def end_table() -> None:
        nonlocal table_site
        if table_site is not None and table_site[0] in left:
            name, at = table_site
            out.insert(at + 1, f"channel = {left.pop(name)}\n")
        table_site = None

    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        parts = table_header(line)
        if parts is not None:
            end_table()
            section = stripped
            if len(parts) == 2 and parts[0] == "sites" and parts[1] in left:
                if not line.endswith("\n"):
                    line += "\n"
                table_site = (parts[1], len(out))
            out.append(line)
            continue
        if table_site is not None and table_site[0] in left and _TABLE_CHANNEL.match(line):
            line = _TABLE_CHANNEL.sub(rf"\g<1>{left.pop(table_site[0])}", line, count=1)
            out.append(line)
            continue
        match = _SITE_LINE.match(line.rstrip("\n"))
        if section == "[sites]" and match and match.group(3) in left:
            channel = left.pop(match.group(3))
            body = match.group(5)
            if _CHANNEL.search(body):
                body = _CHANNEL.sub(f"channel = {channel}", body, count=1)
            else:
                body = re.sub(
                    r"^(\s*kind\s*=\s*\"[^\"]*\"\s*,?)", rf"\1 channel = {channel},", body
                )
                if "channel" not in body:
                    body = f" channel = {channel}," + body
            ending = "\n" if line.endswith("\n") else ""
            line = "".join(match.group(i) or "" for i in (1, 2, 3, 2, 4)) + body + match.group(6)
            line += ending
        out.append(line)
    end_table()
    if left:
        raise HardwareError(
            M_(
                "cannot write the channels of {sites}: write each site either on one line of"
                " [sites] as name = {{ ... }} or as a table of its own, [sites.name]",
                sites=", ".join(sorted(left)),
            )
        )
    return "".join(out)


#: where an installation keeps its own board profiles
LOCAL_PROFILE_DIR = Path("/etc/boardctl/boards")


def calibration_target(source: Path | str, output: Path | str | None = None) -> Path:
    """The file ``calibrate`` will write: ``output``, or the profile itself.

    Refuses, before any site is calibrated, a profile shipped inside the package
    (it belongs to the installation and is replaced on upgrade) and a folder the
    user cannot write to, each with what to do instead."""
    source = Path(source)
    target = Path(output) if output is not None else source
    if _is_shipped(target):
        local = LOCAL_PROFILE_DIR / source.name
        raise HardwareError(
            M_(
                "{target} is a profile shipped with boardctl; calibrate a copy of it: sudo mkdir"
                " -p {folder} && sudo cp {source} {local} && sudo chown $USER {local}, then"
                " boardctl calibrate {local} (or boardctl calibrate {name} --output {local}),"
                " and name {local} as [board] profile in /etc/boardctl/boardctl.toml",
                target=target,
                folder=LOCAL_PROFILE_DIR,
                source=source,
                local=local,
                name=source.stem,
            )
        )
    folder = target.resolve().parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise HardwareError(
            M_(
                "cannot write {target}: {folder} is not a folder this user can write to; choose"
                " another file with --output FILE, or run as a user who can",
                target=target,
                folder=folder,
            )
        )
    return target


def _is_shipped(path: Path) -> bool:
    return path.resolve().parent == PROFILE_DIR.resolve()


def write_channels(
    path: Path | str, mapping: Mapping[str, int], *, output: Path | str | None = None
) -> Path | None:
    """Write the learned channels into the profile at ``path`` (or into ``output``,
    leaving ``path`` as it is), after checking the result loads. A file that is
    replaced is kept as ``<name>.toml.bak``; returns that backup, or None when
    there was no file to replace. Failures to read or write are a HardwareError
    that names the file."""
    path = Path(path)
    target = Path(output) if output is not None else path
    if _is_shipped(target):
        raise HardwareError(
            M_("{target} is a profile shipped with boardctl: write to a copy", target=target)
        )
    from boardctl.textfiles import MAX_TOML, UnreadableFile, read_text

    try:
        text = read_text(path, MAX_TOML, M_("the profile"))
    except UnreadableFile as e:
        raise HardwareError(e.of(path)) from None
    new = set_channels(text, mapping)
    parse_profile(new, str(target))  # never write a profile that does not load
    backup: Path | None = None
    try:
        if target.exists():
            backup = target.with_name(target.name + ".bak")
            shutil.copy2(target, backup)
        temporary = target.with_name(target.name + ".new")
        temporary.write_text(new, encoding="utf-8")
        os.replace(temporary, target)
    except OSError as e:
        raise HardwareError(
            M_(
                "cannot write the channels to {target}: {why}; write them in by hand, or"
                " calibrate again with --output FILE in a folder you can write to",
                target=target,
                why=e.strerror or str(e),
            )
        ) from None
    log.info("wrote %d channels to %s (backup %s)", len(mapping), target, backup)
    return backup


# --------------------------------------------------------------------------- simulated hand


class SimHand:
    """A player's hand for simulations: watches a :class:`SimStrip`, and when a
    site lights in the :data:`PROMPT` colour puts a piece there (through ``act``,
    with the channel ``wiring`` says is under that site); when the site turns to
    :data:`ANSWERED` it takes the piece off."""

    def __init__(
        self,
        profile: BoardProfile,
        strip: SimStrip,
        wiring: Mapping[str, int],
        act: Callable[[int, bool], None],
    ) -> None:
        self.profile = profile
        self.wiring = dict(wiring)
        self.act = act
        self.placed: list[str] = []
        self._holding: str | None = None
        self._prompt = strip.process([PROMPT])[0]
        self._answered = strip.process([ANSWERED])[0]
        strip.on_frame(self._look)

    def _look(self, frame: SentFrame) -> None:
        for site in self.profile.sites:
            if not site.leds or site.name not in self.wiring:
                continue
            colour = frame.pixels[site.leds[0]]
            if colour == self._prompt and self._holding is None:
                self._holding = site.name
                self.placed.append(site.name)
                self.act(self.wiring[site.name], True)
                return
            if colour == self._answered and self._holding == site.name:
                self._holding = None
                self.act(self.wiring[site.name], False)
                return
