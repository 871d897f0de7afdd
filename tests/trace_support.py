"""Hand traces: timed raw sensor readings, what a player expects of them, and
the runner that feeds them to the controller as the daemon does.

A trace (the format is described in ``tests/traces/README.md``) is a JSON file:
a board profile, a game, the readings the host's sensor source hands the loop
with the time it hands them, and what the players expect: the actions recorded
in order (and nothing else), how many times the board is flagged wrong, and at
checkpoints the phase and the sites lit red (to take away) and amber (to put
back).

:class:`Hands` writes traces from descriptions of what hands do (push a marble,
lift one, let a sensor chatter, bump the board); it is pure: it computes
readings and never touches a sensor. :func:`run` plays a trace through the real
:class:`~boardctl.controller.loop.Loop` on a fake clock, waking the loop when
the daemon's loop would wake (an event, a deadline, a frame), and
:func:`misreads` counts what a player would notice going wrong.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardctl.board import BoardProfile, Reports
from boardctl.controller.loop import Loop
from boardctl.controller.machine import Controller, ControllerError, Timing
from boardctl.controller.scenes import Frame, Palette, render, scale
from boardctl.controller.view import Phase
from boardctl.engines import Match, create
from boardctl.engines.base import Engine
from boardctl.sensing import LinkDown, LinkUp, SensorChange, SensorEvent, SensorSnapshot
from boardctl.sim.hands import track
from hardware.gpio_sensing import Debouncer
from hardware.profiles import load_profile

TRACES = Path(__file__).resolve().parent / "traces"

#: how long a light gate stays broken as a marble passes it
GATE_TIME = 0.03
#: the loop's checkpoints look at two frames half a blink apart (2 Hz blinking)
HALF_BLINK = 0.25
#: where the player to act may act glows in their colour at this strength
LEGAL_GLOW = 0.6


def trace_files() -> list[Path]:
    """Every trace of the corpus, whoever wrote it."""
    return sorted(TRACES.glob("**/*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    data.setdefault("name", path.stem)
    return data


# -- writing traces ----------------------------------------------------------------------


def _debounce_time(profile: BoardProfile) -> float:
    """How long the host's sensor source holds a reading back (GPIO boards)."""
    if profile.sensing in ("gpio", "shift-register"):
        return int(profile.sensing_settings.get("debounce_ms", 20)) / 1000
    return 0.0


class Hands:
    """Hands over one board writing a trace: each method does something to the
    board at the current time ``t`` and notes the readings it gives.

    ``start`` are actions already played (the daemon resumes that game and the
    board shows its position). Legal actions done with :meth:`act` are added to
    what the players expect recorded; everything else only makes readings.
    """

    def __init__(
        self,
        name: str,
        profile: str,
        description: str,
        *,
        options: Mapping[str, Any] | None = None,
        start: Sequence[str] = (),
        parts: bool = False,
    ) -> None:
        self.name = name
        #: set a piece with parts down part by part (see :meth:`set_down`)
        self.parts = parts
        self.profile_name = profile
        self.profile = load_profile(profile)
        self.options = dict(options if options is not None else self.profile.game_options)
        self.engine: Engine[Any, Any] = create(self.profile.game, self.options)
        self.match: Match[Any, Any] = Match.from_moves(self.engine, list(start))
        self.description = description
        self.start = list(start)
        self.t = 0.0
        #: what lies on the board, in the engine's pieces
        self.layout: dict[str, str] = dict(self.engine.layout(self.match.state))
        #: physical changes: (time, site, raw value); pulses are (time, gate, -1)
        self._events: list[tuple[float, str, int]] = []
        self._links: list[tuple[float, str]] = []
        self._chances: list[tuple[float, str]] = []
        self._told: list[tuple[float, str]] = []
        self.moves: list[str] = list(start)
        self.history: list[str] = []
        self.checks: list[dict[str, Any]] = []
        self.flags = 0
        self.xfail: str | None = None
        self.xfail_settle: dict[str, Any] | None = None
        self.gated = any(s.reports is Reports.PULSE for s in self.profile.sites)
        self._codes = {p: v for v, p in self.profile.codes.items()}

    # -- readings
    def value(self, site: str, piece: str | None) -> int:
        sensed = self.profile.project(site, piece)
        if sensed is None:
            return 0
        if self.profile.site(site).reports is Reports.CODE:
            return self._codes[sensed]
        return 1

    def wait(self, seconds: float) -> Hands:
        self.t = round(self.t + seconds, 4)
        return self

    def read(self, site: str, value: int) -> None:
        """A raw reading of ``site`` now (0: nothing there)."""
        self._events.append((self.t, site, value))

    def put(self, site: str, piece: str | None, after: float = 0.0) -> None:
        """``site`` now holds ``piece`` (None: nothing), ``after`` seconds from now."""
        self.wait(after)
        if piece is None:
            self.layout.pop(site, None)
        else:
            self.layout[site] = piece
        self.read(site, self.value(site, piece))

    def gate(self, track: str) -> None:
        """A light gate breaks (on a board that has them)."""
        if self.gated:
            self._events.append((self.t, track, -1))

    def link(self, what: str) -> None:
        """The link to the sensors goes ``"down"`` or comes ``"up"`` (with a snapshot)."""
        self._links.append((self.t, what))

    # -- what hands do
    def insert(self, name: str, piece: str | None = None, roll: float = 0.06) -> None:
        """Push a marble into the track ``name``: the gate breaks, then the run ahead slides
        one marble at a time, each leaving its cell empty a moment before the one
        behind rolls in, ``roll`` seconds a cell; the new marble stops last."""
        mover = self.match.to_move()
        piece = piece or f"p{mover}"
        site = track(self.engine.board(), name)
        cells = site.path
        gap = next(i for i, cell in enumerate(cells) if cell not in self.layout)
        self.gate(site.name)
        self.wait(roll)
        for i in range(gap, 0, -1):
            self.put(cells[i], self.layout[cells[i - 1]])
            self.put(cells[i - 1], None, after=roll / 2)
            self.wait(roll / 2)
        self.put(cells[0], piece)

    def lift(self, site: str, after: float = 0.0) -> None:
        self.put(site, None, after)

    def arrange(self, target: Mapping[str, str], pace: float, sequence: Sequence[str] = ()) -> None:
        """Make the board show ``target``: what goes is lifted first, then what
        comes is put down, one site every ``pace`` seconds. ``sequence`` names
        sites (a site with a ``+`` before it: the put there) to do first, in that
        order: ``["g5", "+g5", "+e6"]`` lifts g5, puts g5's new piece, then e6's."""
        first = True

        def step(site: str, piece: str | None) -> None:
            nonlocal first
            self.put(site, piece, 0.0 if first else pace)
            first = False

        for name in sequence:
            site = name.removeprefix("+")
            if name.startswith("+"):
                self.set_down(site, target[site], pace, first)
                first = False
            else:
                step(site, None)
        for site in sorted(s for s in self.layout if self.layout[s] != target.get(s)):
            step(site, None)
        for site, piece in sorted(target.items()):
            if self.layout.get(site) != piece:
                self.set_down(site, piece, pace, first)
                first = False

    def set_down(self, site: str, piece: str, pace: float, now: bool = True) -> None:
        """Put ``piece`` on ``site``; with ``parts``, part by part: a piece with
        parts (``"1E+stop"``) is its first part set down, then each further part
        put on it ``pace`` seconds apart (what already lies there is kept)."""
        parts = piece.split("+") if self.parts else [piece]
        have = self.layout.get(site, "").split("+")
        for n in range(1, len(parts) + 1):
            if parts[:n] == have[:n] and n < len(parts):
                continue
            self.put(site, "+".join(parts[:n]), 0.0 if now else pace)
            now = False

    def act(
        self,
        text: str,
        *,
        pace: float = 0.25,
        order: Sequence[str] = (),
        sequence: Sequence[str] = (),
        roll: float = 0.06,
        expect: bool = True,
    ) -> None:
        """Do the legal action ``text`` as hands do it: push a marble in, lift a
        scored line's marbles (in ``order`` if given, ``pace`` seconds apart),
        or lift and put down pieces (``sequence`` first, see :meth:`arrange`);
        the players expect it recorded."""
        state = self.match.state
        action = self.engine.parse_action(text)
        after = self.engine.apply(state, action)
        if self.engine.name == "shiftago" and not text.startswith("x:"):
            self.insert(text, roll=roll)
        else:
            target = dict(self.engine.layout(after))
            if order:
                for n, site in enumerate(order):
                    assert site not in target, f"{site} is not removed by {text}"
                    self.put(site, None, 0.0 if n == 0 else pace)
            self.arrange(target, pace, sequence)
        assert self.layout == dict(self.engine.layout(after)), (text, self.layout)
        recorded = text if self.gated else self.canonical(state, text)
        self.match.play(action)
        if expect:
            self.moves.append(recorded)
            self.history.append(recorded)

    def together(self, texts: Sequence[str], pace: float) -> None:
        """Do the legal actions ``texts`` (one after the other in the game)
        with their pieces set down ``pace`` seconds apart, in that order, none
        waiting for the board to settle after the one before; the players
        expect each recorded, in that order."""
        for n, text in enumerate(texts):
            state = self.match.state
            action = self.engine.parse_action(text)
            after = dict(self.engine.layout(self.engine.apply(state, action)))
            for site in sorted(set(self.layout) | set(after)):
                if self.layout.get(site) != after.get(site):
                    self.put(site, after.get(site), 0.0 if n == 0 else pace)
            recorded = text if self.gated else self.canonical(state, text)
            self.match.play(action)
            self.moves.append(recorded)
            self.history.append(recorded)

    def canonical(self, state: Any, text: str) -> str:
        """The action a board without light gates records for ``text``: of the
        actions that leave the same position, the first the engine lists."""
        after = self.engine.apply(state, self.engine.parse_action(text))
        return next(
            self.engine.format_action(a)
            for a in self.engine.legal_actions(state)
            if self.engine.apply(state, a) == after
        )

    def take_back(self, steps: int = 1) -> None:
        """The players expect the last ``steps`` actions taken back (the board
        must be held in the earlier position first)."""
        for _ in range(steps):
            self.match.undo()
            self.moves.pop()
        self.history.append(f"undo {steps}")

    def chance(self, text: str) -> None:
        """An operator tells chance's outcome ``text`` (a tile drawn, a die
        thrown); the players expect it recorded."""
        self._chances.append((self.t, text))
        self.match.play(self.engine.parse_action(text))
        self.moves.append(text)
        self.history.append(text)

    def tell(self, text: str, *, expect: bool = True) -> None:
        """A person tells the player's action ``text`` (one the board cannot
        show, such as a route card shown), as the control socket's ``play``
        command does; the players expect it recorded. The board is then to
        follow it: the hands put right what it changes."""
        self._told.append((self.t, text))
        action = self.engine.parse_action(text)
        assert self.engine.why_illegal(self.match.state, action) is None, text
        self.match.play(action)
        if expect:
            self.moves.append(text)
            self.history.append(text)

    def drive(
        self, text: str, pace: float = 0.5, midway: str | None = None, hold: float = 0.0
    ) -> None:
        """Drive a piece that stands on others (Linie 1's streetcar) as ``text``
        says (``>a10-b10``: the cells it stops on on its way), cell by cell:
        lift it off where it stands, set it on the next cell ``pace`` seconds
        later, lift it again ``pace`` seconds after that; the players expect
        one drive recorded. Just before it is lifted off the cell ``midway``,
        the board shows a drive under way: nothing recorded yet, nothing red
        or amber. ``hold``: the piece first lifted is set down that many
        seconds later instead (held in the hand); just before, the board shows
        a drive under way too."""
        action = self.engine.parse_action(text)
        after = dict(self.engine.layout(self.engine.apply(self.match.state, action)))
        here, car = next(
            (site, part)
            for site, piece in sorted(self.layout.items())
            for part in piece.split("+")
            if part not in after.get(site, "").split("+")
        )
        for n, site in enumerate(text.lstrip(">").split("-")):
            self.wait(0.0 if n == 0 else pace)
            if here == midway:
                self.check("move_in_progress", red=[], amber=[])
            self.put(here, _without(self.layout[here], car))
            if n == 0 and hold:
                self.wait(hold)
                self.check("move_in_progress", red=[], amber=[])
                self.put(site, _with(self.layout.get(site), car))
            else:
                self.put(site, _with(self.layout.get(site), car), pace)
            here = site
        assert self.layout == after, (text, self.layout)
        self.match.play(action)
        self.moves.append(text)
        self.history.append(text)

    def chatter(self, site: str, times: int = 6, period: float = 0.012) -> None:
        """A sensor on ``site`` flickers between empty and what lies there."""
        value = self.value(site, self.layout.get(site))
        for n in range(times):
            self.read(site, 0 if n % 2 == 0 else value)
            self.wait(period)
        self.read(site, value)

    def glitch(self, site: str, value: int, length: float = 0.03) -> None:
        """One reading of ``value`` on ``site`` for ``length`` seconds."""
        self.read(site, value)
        self.wait(length)
        self.read(site, self.value(site, self.layout.get(site)))

    def bump(self, sites: Sequence[str], length: float = 0.04) -> None:
        """The board is bumped: every site in ``sites`` reads empty (a cell with
        a marble) or something (an empty cell) for ``length`` seconds."""
        some = next(iter(self._codes.values()), 1)
        for site in sites:
            self.read(site, 0 if site in self.layout else some)
        self.wait(length)
        for site in sites:
            self.read(site, self.value(site, self.layout.get(site)))

    # -- what the players expect
    def check(self, phase: str | Sequence[str] | None = None, **more: Any) -> None:
        """At this time the board shows ``phase``; ``red``/``amber``: exactly
        these sites blink red / glow amber; ``legal``: exactly these sites glow
        in the colour of the player to act as where they may act; ``moves``:
        this many recorded."""
        entry: dict[str, Any] = {"t": self.t}
        if phase is not None:
            entry["phase"] = phase
        entry["moves"] = more.pop("moves", len(self.moves))
        for key in ("red", "amber", "legal"):
            if key in more:
                entry[key] = sorted(more.pop(key))
        assert not more, f"unknown check {sorted(more)}"
        self.checks.append(entry)

    def flagged(self, times: int = 1) -> None:
        """The board is expected to be flagged wrong ``times`` more times."""
        self.flags += times

    def expected_failure(self, cause: str) -> None:
        self.xfail = cause

    def expected_failure_at_settle(self, up_to: float, cause: str) -> None:
        """The trace is read right with the daemon's settle time and amend
        window, but misread when the board is accepted after ``up_to`` seconds
        still or fewer with no amend window."""
        self.xfail_settle = {"up_to": up_to, "cause": cause}

    # -- the file
    def readings(self) -> list[dict[str, Any]]:
        """The physical changes as the host's sensor source hands them on."""
        delay = _debounce_time(self.profile)
        steps: list[dict[str, Any]] = []
        events = sorted(self._events, key=lambda e: e[0])
        if delay <= 0:
            for t, site, value in events:
                if value < 0:
                    steps.append({"t": t, "site": site, "pulse": True})
                else:
                    steps.append({"t": t, "site": site, "value": value})
            return self._with_links(steps)
        # a GPIO board: levels are reported once they have held for the debounce
        # time; a light gate's break is reported at once
        channels = {s.name: s.channel for s in self.profile.sites if s.channel is not None}
        names = {ch: name for name, ch in channels.items()}
        pulses = [
            channels[s]
            for s, c in channels.items()
            if self.profile.site(s).reports is Reports.PULSE
        ]
        initial = [0] * self.profile.channel_count
        for site, piece in self.engine.layout(
            Match.from_moves(self.engine, self.start).state
        ).items():
            ch = channels.get(site)
            if ch is not None:
                initial[ch] = self.value(site, piece)
        deb = Debouncer(initial, delay, pulses)
        raw: list[tuple[float, int, int]] = []
        for t, site, value in events:
            if value < 0:
                raw += [(t, channels[site], 1), (round(t + GATE_TIME, 4), channels[site], 0)]
            else:
                raw.append((t, channels[site], value))
        raw.sort(key=lambda e: e[0])
        out: list[tuple[float, int, int]] = []
        i = 0
        while i < len(raw) or deb.next_deadline() is not None:
            due = deb.next_deadline()
            if i < len(raw) and (due is None or raw[i][0] < due):
                t, ch, level = raw[i]
                i += 1
                out += [(t, c, v) for c, v in deb.update(ch, level, t)]
            else:
                assert due is not None
                out += [(round(due, 4), c, v) for c, v in deb.due(due)]
        for t, ch, v in out:
            name = names[ch]
            if ch in pulses:
                if v:
                    steps.append({"t": t, "site": name, "pulse": True})
            else:
                steps.append({"t": t, "site": name, "value": v})
        return self._with_links(steps)

    def _with_links(self, steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for t, what in self._links:
            steps.append({"t": t, "link": what})
        for t, text in self._chances:
            steps.append({"t": t, "chance": text})
        for t, text in self._told:
            steps.append({"t": t, "play": text})
        steps.sort(key=lambda s: s["t"])
        return steps

    def build(self) -> dict[str, Any]:
        start_layout = self.engine.layout(Match.from_moves(self.engine, self.start).state)
        snapshot = {
            site: self.value(site, piece)
            for site, piece in sorted(start_layout.items())
            if self.value(site, piece)
        }
        data: dict[str, Any] = {
            "name": self.name,
            "description": self.description,
            "profile": self.profile_name,
            "game": self.engine.name,
            "options": self.options,
            "start": self.start,
            "steps": [{"t": 0.0, "snapshot": snapshot}, *self.readings()],
            "end": round(self.t + 1.0, 4),
            "expect": {
                "moves": self.moves,
                "history": self.history,
                "flags": self.flags,
                "checks": self.checks,
            },
        }
        if self.xfail:
            data["xfail"] = self.xfail
        if self.xfail_settle:
            data["xfail_settle"] = self.xfail_settle
        return data

    def write(self, folder: Path = TRACES) -> Path:
        path = folder / self.profile_name / f"{self.name}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self.build(), indent=1)
        path.write_text(_compact(text) + "\n", encoding="utf-8")
        return path


def _without(piece: str, part: str) -> str | None:
    """``piece`` with ``part`` taken off it (None: nothing left)."""
    rest = [p for p in piece.split("+") if p != part]
    return "+".join(rest) or None


def _with(piece: str | None, part: str) -> str:
    """``part`` put on ``piece`` (on an empty site: ``part`` alone)."""
    return part if piece is None else f"{piece}+{part}"


def _compact(text: str) -> str:
    """One step or check a line: readable in a diff, editable by hand."""
    data = json.loads(text)
    lines = ["{"]
    keys = list(data)
    for n, key in enumerate(keys):
        comma = "," if n < len(keys) - 1 else ""
        value = data[key]
        if key == "steps":
            inner = ",\n".join(f"  {json.dumps(s)}" for s in value)
            lines.append(f' "steps": [\n{inner}\n ]{comma}')
        elif key == "expect":
            parts = []
            for k, v in value.items():
                if k == "checks" and v:
                    inner = ",\n".join(f"   {json.dumps(c)}" for c in v)
                    parts.append(f'  "checks": [\n{inner}\n  ]')
                else:
                    parts.append(f"  {json.dumps(k)}: {json.dumps(v)}")
            lines.append(' "expect": {\n' + ",\n".join(parts) + f"\n }}{comma}")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}{comma}")
    lines.append("}")
    return "\n".join(lines)


# -- running traces ------------------------------------------------------------------------


class Clock:
    """The loop's clock, moved by the runner."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Log:
    """Records what the controller records (the store's side of it)."""

    def __init__(self, clock: Clock) -> None:
        self.history: list[str] = []
        self.moves: list[str] = []
        self._clock = clock
        #: while a person tells an action or chance's outcome (not the board)
        self.telling = False
        #: when each action was recorded, and whether it was told
        self.recorded_at: list[tuple[float, bool]] = []
        #: the actions amended (:mod:`boardctl.controller.amending`), each time
        self.amended: list[list[str]] = []

    def begin(
        self, game: str, options: Mapping[str, Any], seed: int | None = None, seats: Any = None
    ) -> None:
        self.moves = []

    def record(self, move: str, public: str | None = None, excluded: object = None) -> None:
        self.history.append(move)
        self.moves.append(move)
        self.recorded_at.append((self._clock(), self.telling))

    def asked(self, ply: int, tried: tuple[str, ...]) -> None:
        pass

    def undo(self, steps: int, amended: bool = False) -> None:
        del self.moves[len(self.moves) - steps :]
        if amended:
            # the hand went on before they were final: what it finished is
            # the record; the players saw the amended actions for a moment
            self.amended.append(self.history[len(self.history) - steps :])
            del self.history[len(self.history) - steps :]
            del self.recorded_at[len(self.recorded_at) - steps :]
        else:
            self.history.append(f"undo {steps}")

    def finish(self, result: Mapping[str, Any]) -> None:
        pass


class Dark:
    """The LED output: the runner draws its own frames at the checkpoints."""

    def show(self, frame: Frame) -> None:
        pass


@dataclass
class Outcome:
    """What happened when a trace ran."""

    history: list[str]
    moves: list[str]
    flags: int
    #: what a checkpoint found that it did not expect, in words
    problems: list[str] = field(default_factory=list)
    phases: list[tuple[float, str]] = field(default_factory=list)
    #: for each action recorded off the board: seconds from the last reading
    #: before it (the hand letting go; on a GPIO board, the debounce time
    #: before) to its record (the loop's work not counted)
    felt: list[float] = field(default_factory=list)
    #: the actions recorded and then amended by the hand going on, each time
    amended: list[list[str]] = field(default_factory=list)


def _event(profile: BoardProfile, step: Mapping[str, Any]) -> list[SensorEvent]:
    if "snapshot" in step:
        values = [0] * profile.channel_count
        for site, value in step["snapshot"].items():
            channel = profile.site(site).channel
            assert channel is not None
            values[channel] = int(value)
        return [SensorSnapshot(tuple(values))]
    if "link" in step:
        return [LinkUp("trace")] if step["link"] == "up" else [LinkDown("trace")]
    channel = profile.site(step["site"]).channel
    assert channel is not None, f"{step['site']} has no sensor"
    if step.get("pulse"):
        return [SensorChange(channel, 1), SensorChange(channel, 0)]
    return [SensorChange(channel, int(step["value"]))]


def lit(profile: BoardProfile, frames: Sequence[Frame], colour: tuple[int, int, int]) -> set[str]:
    """Sites whose LEDs show ``colour`` in any of ``frames``."""
    return {s.name for s in profile.sites if s.leds and any(f[s.leds[0]] == colour for f in frames)}


def run(
    data: Mapping[str, Any],
    *,
    settle: float | None = None,
    settle_gated: float | None = None,
    amend: float | None = None,
) -> Outcome:
    """Play a trace through the controller's loop on a fake clock, with the
    daemon's settle times and amend window or these."""
    profile = load_profile(data["profile"])
    timing = Timing(**data.get("timing", {}))
    if settle is not None:
        timing = dataclasses.replace(timing, settle=settle)
    if settle_gated is not None:
        timing = dataclasses.replace(timing, settle_gated=settle_gated)
    if amend is not None:
        timing = dataclasses.replace(timing, amend=amend)
    clock = Clock()
    log = Log(clock)
    start = list(data.get("start", []))
    game, options = data.get("game", profile.game), data.get("options", {})
    controller = Controller(
        profile,
        game=game,
        options=options,
        timing=timing,
        recorder=log,
        resume=(game, options, start) if start else None,
    )
    log.moves = list(start)
    palette = Palette.choose((), profile.palette)
    loop = Loop(controller, Dark(), palette=palette, clock=clock)
    loop.start()
    loop.emit(LinkUp("trace"))

    steps = sorted(data["steps"], key=lambda s: s["t"])
    checks = sorted(data.get("expect", {}).get("checks", []), key=lambda c: c["t"])
    end = float(data.get("end", max([s["t"] for s in steps] + [c["t"] for c in checks]) + 1))
    out = Outcome(log.history, log.moves, 0, amended=log.amended)
    last = [controller.state]
    #: when a cell's reading changed or a gate broke
    readings: list[float] = []

    def turn() -> None:
        loop.turn(block=False)
        state = controller.state
        if state is not last[0]:
            if state is Phase.WRONG_BOARD:
                out.flags += 1
            out.phases.append((clock.now, state.value))
            last[0] = state

    def advance(until: float) -> None:
        """Let time pass to ``until``, waking the loop as the daemon's would."""
        while True:
            wake = clock.now + loop._timeout()
            if wake > until:
                break
            clock.now = max(wake, clock.now + 1e-4)
            turn()
        clock.now = max(clock.now, until)

    i = c = 0
    while i < len(steps) or c < len(checks):
        t_step = steps[i]["t"] if i < len(steps) else float("inf")
        t_check = checks[c]["t"] if c < len(checks) else float("inf")
        if t_step < t_check:
            advance(t_step)
            while i < len(steps) and steps[i]["t"] == t_step:
                if "chance" in steps[i] or "play" in steps[i]:
                    # an operator tells chance's outcome, or a person tells an
                    # action, as the control socket's chance and play do
                    cmd = "chance" if "chance" in steps[i] else "play"
                    turn()
                    log.telling = True
                    try:
                        loop.command({"cmd": cmd, "action": steps[i][cmd]}, clock.now)
                    except ControllerError as exc:
                        out.problems.append(f"at {t_step} s {cmd} refused: {exc}")
                    log.telling = False
                else:
                    if "site" in steps[i]:
                        readings.append(t_step)
                    for event in _event(profile, steps[i]):
                        loop.emit(event)
                i += 1
            turn()
        else:
            advance(t_check)
            turn()
            _check(controller, profile, palette, checks[c], clock.now, out)
            c += 1
    advance(end)
    turn()
    held_back = _debounce_time(profile)  # a GPIO board's readings come that late
    for at, told in log.recorded_at:
        before = [t for t in readings if t <= at]
        if not told and before:
            out.felt.append(at - before[-1] + held_back)
    return out


def _check(
    controller: Controller,
    profile: BoardProfile,
    palette: Palette,
    check: Mapping[str, Any],
    now: float,
    out: Outcome,
) -> None:
    view = controller.view()
    frames = [render(view, profile, palette, now + k * HALF_BLINK) for k in (0, 1)]
    glow = scale(palette.player(view.to_move), LEGAL_GLOW)
    found = {
        "phase": view.phase.value,
        "moves": len(controller.match.actions),
        "red": sorted(lit(profile, frames, palette.error)),
        "amber": sorted(
            lit(profile, frames[:1], palette.restore) & lit(profile, frames[1:], palette.restore)
        ),
        "legal": sorted(lit(profile, frames[:1], glow) & lit(profile, frames[1:], glow)),
    }
    for key, want in check.items():
        if key == "t":
            continue
        got = found[key]
        ok = got in want if key == "phase" and isinstance(want, list) else got == want
        if not ok:
            out.problems.append(f"at {check['t']} s {key} is {got!r}, expected {want!r}")


@dataclass(frozen=True, slots=True)
class Misreads:
    """What a player would notice going wrong in one trace."""

    missed: int = 0
    invented: int = 0
    false_flags: int = 0
    missed_flags: int = 0
    checks: int = 0

    def __add__(self, other: Misreads) -> Misreads:
        return Misreads(
            *(getattr(self, f) + getattr(other, f) for f in self.__slots__)  # type: ignore[arg-type]
        )

    @property
    def total(self) -> int:
        return self.missed + self.invented + self.false_flags + self.missed_flags


def misreads(data: Mapping[str, Any], outcome: Outcome) -> Misreads:
    expect = data.get("expect", {})
    want = list(expect.get("history", []))
    got = outcome.history
    matcher = difflib.SequenceMatcher(a=want, b=got, autojunk=False)
    same = sum(block.size for block in matcher.get_matching_blocks())
    flags = int(expect.get("flags", 0))
    return Misreads(
        missed=len(want) - same,
        invented=len(got) - same,
        false_flags=max(0, outcome.flags - flags),
        missed_flags=max(0, flags - outcome.flags),
        checks=len(outcome.problems),
    )


def known_misread(data: Mapping[str, Any], settle: float | None = None, amend: float = 0.0) -> bool:
    """Whether the trace is a known misread at ``settle`` (None: the daemon's)
    with an amend window of ``amend`` (none when no longer than ``settle``)."""
    if data.get("xfail"):
        return True
    short = data.get("xfail_settle")
    return (
        bool(short)
        and settle is not None
        and settle <= float(short["up_to"]) + 1e-9
        and amend <= settle
    )


def verdict(data: Mapping[str, Any], outcome: Outcome) -> list[str]:
    """Everything a player would notice going wrong, in words (empty: none)."""
    expect = data.get("expect", {})
    problems = list(outcome.problems)
    if outcome.history != expect.get("history", []):
        problems.append(f"recorded {outcome.history}, expected {expect.get('history', [])}")
    if outcome.moves != expect.get("moves", []):
        problems.append(f"the game is {outcome.moves}, expected {expect.get('moves', [])}")
    flags = int(expect.get("flags", 0))
    if outcome.flags != flags:
        problems.append(f"flagged wrong {outcome.flags} times, expected {flags}")
    return problems
