"""LED scenes: a pure function from a :class:`~.view.View` and a time to a frame.

A frame is one ``(r, g, b)`` per LED of the profile's chain, full scale
(brightness, gamma and colour order are the LED backend's business). A scene is
built from layers, each drawn over the ones before it, site by site through the
profile's site -> LED mapping:

1. base: every site a dim glow, so the board reads as alive (but displays,
   dark unless they show something);
2. turn: track and edge sites (and any ``turn`` status LEDs) tinted with the
   colour of the player to act; each player's own sites (the engine's
   ``player_sites``) in that player's colour, what they built dim, where
   they go on bright;
3. legal: where that player may act, in their colour; while choosing, every
   option blinks (or, once the buttons picked one, that one blinks and the
   others glow);
4. last move: the sites the last action touched, soft white; then the sites
   the engine shows in a player's colour whoever acts (the ends of a line);
5. shown: the display sites the engine shows (a die's face, from its
   ``shown``) in the colour of the player to act, while playing;
   the computer's seat to act: while it thinks, a light runs round the board
   in its colour; then its move: where the move goes breathing in its colour,
   the pieces to take off blinking in it (a human's hints glow steadily);
   a computer player that failed blinks the turn's tracks and edges in its
   colour and the mistakes' magenta by turns; a seat played at another board
   is shown the same way (the light runs while its player is to act there);
6. move under way: the destinations of a lifted piece or a marble in transit,
   blinking in the player's colour (amber and colour in turn when ambiguous);
7. errors and restore hints: offending sites blink magenta, sites to restore
   glow cyan; a takeback offer blinks the sites that would go back;
   a button that would end the game under way and waits for its second
   press (:mod:`.confirming`): every site white, going out one by one as
   the time for the second press runs out;
8. celebration: the winner's colour sweeping across the board, the winning
   line bright;
9. attract and fault: an idle wave of the player colours (over it, once a
   game was put away for the next visitor, the pieces to clear breathing
   magenta and the sites to set up cyan); a slow magenta
   pulse of every LED when the sensors are not answering; cyan, the LEDs in
   two halves blinking in turn, when the games cannot be saved.

A player is lit in the colour of their pieces (the engine's
:class:`~boardctl.engines.describe.PlayerSpec`), unless the board's profile or
the configuration maps it to another (an LED cannot glow black): see
:class:`Colours`. Mistakes (magenta) and restore hints (cyan) are colours no
player is lit in: :func:`confusable` keeps them apart.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from boardctl.board import BoardProfile, Reports
from boardctl.controller.frame import RGB, Frame
from boardctl.controller.view import Fault, Phase, View
from boardctl.engines.describe import PlayerSpec
from boardctl.errors import ConfigError
from boardctl.message import M_, joined

BLACK: RGB = (0, 0, 0)

#: Okabe-Ito colours, distinguishable with the common colour-vision deficiencies
ORANGE: RGB = (230, 159, 0)
SKY_BLUE: RGB = (86, 180, 233)
BLUISH_GREEN: RGB = (0, 158, 115)
YELLOW: RGB = (240, 228, 66)
BLUE: RGB = (0, 114, 178)
VERMILION: RGB = (213, 94, 0)
REDDISH_PURPLE: RGB = (204, 121, 167)

#: mistakes blink magenta and restore hints glow cyan: hues no game's pieces have
MAGENTA: RGB = (255, 0, 255)
CYAN: RGB = (0, 224, 224)
#: what an LED shows for pieces too dark to glow (black): a deep blue
DARK_STAND_IN: RGB = (48, 80, 255)
#: a colour whose brightest channel is below this cannot be told from an LED that is off
DARKEST = 0x60
#: two colours closer than this (CIE76 delta E) are too alike to tell apart on the board
CONFUSABLE = 45.0


def parse_colour(text: str) -> RGB:
    """``"#e69f00"`` -> ``(230, 159, 0)``; :class:`ConfigError` otherwise."""
    raw = text.strip().removeprefix("#")
    if len(raw) != 6:
        raise ConfigError(f"colour {text!r} must be written #rrggbb")
    try:
        return (int(raw[0:2], 16), int(raw[2:4], 16), int(raw[4:6], 16))
    except ValueError:
        raise ConfigError(f"colour {text!r} must be written #rrggbb") from None


def _lab(colour: RGB) -> tuple[float, float, float]:
    """CIE L*a*b* of an sRGB colour (D65)."""

    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in colour)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return float(t ** (1 / 3)) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def distance(a: RGB, b: RGB) -> float:
    """How far apart two colours look (CIE76 delta E: about 2.3 is just noticeable)."""
    la, lb = _lab(a), _lab(b)
    return math.dist(la, lb)


def confusable(a: RGB, b: RGB) -> bool:
    """Whether ``a`` and ``b`` are too alike to tell apart on the board."""
    return distance(a, b) < CONFUSABLE


def hex_colour(colour: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


@dataclass(frozen=True, slots=True)
class Palette:
    """The colours of a scene. Each player is lit in the colour of their
    pieces (see :class:`Colours`); errors (blinking magenta) and restore hints
    (steady cyan) differ from every player's colour in colour and in rhythm.
    Without a game's colours, the colour-blind-safe Okabe-Ito ones."""

    players: tuple[RGB, ...] = (ORANGE, SKY_BLUE, BLUISH_GREEN, REDDISH_PURPLE)  # Okabe-Ito
    error: RGB = MAGENTA
    restore: RGB = CYAN
    base: RGB = (10, 10, 10)
    highlight: RGB = (160, 160, 160)
    #: blinks per second of errors and move hints
    blink_hz: float = 2.0
    #: what a person is told about lights that are not the colour of the pieces
    #: ("black is lit blue: an LED cannot glow black"); empty when they are
    note: str = ""

    @classmethod
    def from_hex(cls, players: Sequence[str]) -> Palette:
        """Player colours ``"#rrggbb"``; players beyond them take the default
        colours not already given, so no two players share a colour."""
        if not players:
            raise ConfigError("the palette needs at least one player colour")
        given = tuple(parse_colour(p) for p in players)
        more = tuple(c for c in cls().players if c not in given)
        return cls(players=given + more)

    @classmethod
    def choose(
        cls,
        configured: Sequence[str],
        board: Sequence[str],
        pieces: Sequence[PlayerSpec] = (),
        note: str = "",
    ) -> Palette:
        """The configured player colours, else the board's, else the colours
        of the players' pieces (see :class:`Colours`), else the
        colour-blind-safe default."""
        return Colours(tuple(configured), tuple(board), note).palette(pieces)

    def player(self, index: int | None) -> RGB:
        if index is None:
            return self.highlight
        return self.players[index % len(self.players)]


@dataclass(frozen=True, slots=True)
class Colours:
    """Where the players' LED colours come from, for whatever game is played:
    the configuration's ``[leds] palette`` (``configured``), else the board
    profile's ``palette`` (``board``, with its ``palette_note`` saying why a
    colour differs from the pieces'), else the colour of each player's pieces
    as the engine declares it. A piece colour too dark for an LED (black) is
    lit :data:`DARK_STAND_IN` instead, and the palette's note says so."""

    configured: tuple[str, ...] = ()
    board: tuple[str, ...] = ()
    note: str = ""

    def palette(self, players: Sequence[PlayerSpec]) -> Palette:
        chosen = self.configured or self.board
        notes = [self.note] if self.note and not self.configured else []
        given = [parse_colour(c) for c in chosen]
        for seat, player in enumerate(players):
            if seat < len(given):
                continue
            colour = parse_colour(player.colour)
            if max(colour) < DARKEST:
                colour = DARK_STAND_IN
                notes.append(
                    M_("{player} is lit blue: an LED cannot glow {player}", player=player.name)
                )
            given.append(colour)
        if not given:
            return Palette()
        more = tuple(c for c in Palette().players if c not in given)
        return Palette(players=(*given, *more), note=joined(notes, "; "))


def signal_clash(colour: RGB, palette: Palette | None = None) -> str | None:
    """Why ``colour`` may not light a player: it looks like the mistakes'
    or the restore hints' colour; None when it is clear of both."""
    p = palette or Palette()
    if confusable(colour, p.error):
        return M_(
            "{colour} looks like the magenta that mistakes blink in", colour=hex_colour(colour)
        )
    if confusable(colour, p.restore):
        return M_("{colour} looks like the cyan of pieces to put back", colour=hex_colour(colour))
    return None


@lru_cache(maxsize=512)
def scale(colour: RGB, factor: float) -> RGB:
    """``colour`` at ``factor`` of its brightness (0 to 1). Kept: a scene dims
    the same few player colours by the same few factors frame after frame
    (only an animation's factors are new, and they leave the cache in turn)."""
    f = max(0.0, min(1.0, factor))
    return (round(colour[0] * f), round(colour[1] * f), round(colour[2] * f))


def _blink(view: View, now: float, hz: float) -> bool:
    """On for the first half of each period, counted from the phase's start."""
    return ((now - view.since) * hz) % 1.0 < 0.5


def _breathe(now: float, period: float) -> float:
    return 0.5 - 0.5 * math.cos(2 * math.pi * (now % period) / period)


class Painter:
    """A board's LEDs, worked out once per profile (:func:`painter`): the
    LEDs of each site by name, and of the groups of sites the scenes light
    (every site, the displays, the rails, the turn LEDs), so that drawing a
    frame looks nothing up."""

    __slots__ = (
        "_backdrops",
        "_fills",
        "_groups",
        "_masks",
        "around",
        "centre",
        "count",
        "displays",
        "every",
        "leds_of",
        "rails",
        "sites",
        "thinking_rails",
        "turn",
        "undisplayed",
        "width",
    )

    def __init__(self, profile: BoardProfile) -> None:
        count = profile.leds.count
        self.count = count
        #: each site's LEDs on the chain (those beyond it left out)
        self.leds_of: dict[str, tuple[int, ...]] = {
            s.name: tuple(i for i in s.leds if 0 <= i < count) for s in profile.sites
        }

        def leds(names: Iterable[str]) -> tuple[int, ...]:
            return tuple(i for name in names for i in self.leds_of[name])

        self.every = leds(s.name for s in profile.sites)
        self.displays = frozenset(s.name for s in profile.sites if s.kind == "display")
        self.undisplayed = leds(s.name for s in profile.sites if s.kind != "display")
        self.rails = leds(
            s.name
            for s in profile.sites
            if s.kind in ("track", "edge") or s.reports is Reports.PULSE
        )
        self.turn = leds(s.name for s in profile.sites if s.kind == "turn")
        rails = [s.name for s in profile.sites if s.kind in ("track", "edge", "turn")]
        self.thinking_rails = leds(rails) if rails else self.every
        #: the sites with their place: (LEDs, x, y) for the moving scenes
        self.sites = tuple((self.leds_of[s.name], s.x, s.y) for s in profile.sites)
        self.width = max((s.x for s in profile.sites), default=0.0) + 1.0
        around = [s for s in profile.sites if s.kind != "display"]
        if around:
            cx = sum(s.x for s in around) / len(around)
            cy = sum(s.y for s in around) / len(around)
            self.centre = (cx, cy)
            # clockwise from north, as a hand goes round a clock
            self.around = tuple(
                (
                    self.leds_of[s.name],
                    (math.atan2(s.x - cx, s.y - cy) / (2 * math.pi)) % 1.0,
                )
                for s in around
            )
        else:
            self.centre = (0.0, 0.0)
            self.around = ()
        self._backdrops: dict[tuple[RGB, RGB | None], int] = {}
        self._groups: dict[frozenset[str], tuple[int, ...]] = {}
        self._masks: dict[frozenset[str], tuple[int, int]] = {}
        self._fills: dict[RGB, int] = {}

    def leds(self, sites: frozenset[str]) -> tuple[int, ...]:
        """The LEDs of ``sites``: worked out once per set (the sets the view
        lights, the legal sites of a position, come back turn after turn)."""
        found = self._groups.get(sites)
        if found is None:
            if len(self._groups) > 256:
                self._groups.clear()
            leds_of = self.leds_of
            found = self._groups[sites] = tuple(i for name in sites for i in leds_of.get(name, ()))
        return found

    def mask(self, sites: frozenset[str]) -> tuple[int, int]:
        """The LEDs of ``sites`` in a frame read as one integer (see
        :class:`Canvas`): every bit of their bytes set, and every bit of the
        other LEDs' bytes; worked out once per set, as :meth:`leds`."""
        found = self._masks.get(sites)
        if found is None:
            bits = bytearray(3 * self.count)
            for i in self.leds(sites):
                bits[3 * i : 3 * i + 3] = b"\xff\xff\xff"
            lit = int.from_bytes(bits, "big")
            if len(self._masks) > 256:
                self._masks.clear()
            found = self._masks[sites] = (lit, ((1 << (24 * self.count)) - 1) ^ lit)
        return found

    def fill(self, colour: RGB) -> int:
        """Every LED in ``colour``, a frame read as one integer."""
        found = self._fills.get(colour)
        if found is None:
            if len(self._fills) > 256:
                self._fills.clear()
            found = self._fills[colour] = int.from_bytes(bytes(colour) * self.count, "big")
        return found

    def backdrop(self, base: RGB, mover: RGB | None) -> int:
        """The frame's first layers: every site but the displays in ``base``,
        then, with ``mover``, the rails dimmed and the turn LEDs in it (a
        frame read as one integer, see :class:`Canvas`)."""
        key = (base, mover)
        found = self._backdrops.get(key)
        if found is None:
            canvas = Canvas(self)
            canvas.light(self.undisplayed, base)
            if mover is not None:
                canvas.light(self.rails, scale(mover, 0.2))
                canvas.light(self.turn, mover)
            if len(self._backdrops) > 64:
                self._backdrops.clear()
            found = self._backdrops[key] = int.from_bytes(canvas.buf, "big")
        return found


class _Same:
    """A profile as a key, by identity (a profile holds mappings: it has no hash)."""

    __slots__ = ("profile",)

    def __init__(self, profile: BoardProfile) -> None:
        self.profile = profile

    def __hash__(self) -> int:
        return id(self.profile)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.profile is self.profile


@lru_cache(maxsize=8)
def _painter(key: _Same) -> Painter:
    return Painter(key.profile)


def painter(profile: BoardProfile) -> Painter:
    """The painter of ``profile``, worked out the first time it is asked for."""
    return _painter(_Same(profile))


class Canvas:
    """A frame being drawn: three bytes per LED, painted by site name.

    While sets of sites are painted (:meth:`paint`, the layers of a game
    under way) the frame is held as one big integer, its bytes big-endian:
    lighting a set's LEDs in a colour is then ``frame & ~mask | fill & mask``
    with the set's mask worked out once (:meth:`Painter.mask`), two
    operations in C however many LEDs the set has. Lighting LEDs one by one
    (:meth:`light`, the animations) works on the bytes (:attr:`buf`). Each
    form is made from the other when it is asked for."""

    __slots__ = ("_buf", "_value", "leds_of", "painter")

    def __init__(self, painter: Painter) -> None:
        self.painter = painter
        self.leds_of = painter.leds_of
        self._buf: bytearray | None = bytearray(3 * painter.count)
        self._value: int | None = None

    @property
    def buf(self) -> bytearray:
        """The frame's bytes (``r g b`` per LED), to change in place."""
        buf = self._buf
        if buf is None:
            assert self._value is not None
            buf = self._buf = bytearray(self._value.to_bytes(3 * self.painter.count, "big"))
            self._value = None
        return buf

    def _number(self) -> int:
        value = self._value
        if value is None:
            assert self._buf is not None
            value = int.from_bytes(self._buf, "big")
            self._buf = None
        return value

    def start(self, value: int) -> None:
        """Every LED as in ``value``, a frame read as one integer (a backdrop)."""
        self._value = value
        self._buf = None

    def paint(self, sites: Iterable[str], colour: RGB) -> None:
        """Light the LEDs of ``sites`` (names; any not on this board skipped)."""
        if isinstance(sites, frozenset):
            # the painter's kept masks and fills looked up here: a frame paints
            # a few sets, and their masks and colours come back frame after frame
            painter = self.painter
            lit, unlit = painter._masks.get(sites) or painter.mask(sites)
            if lit:
                value = self._value
                if value is None:
                    value = self._number()
                fill = painter._fills.get(colour)
                if fill is None:
                    fill = painter.fill(colour)
                self._value = (value & unlit) | (fill & lit)
            return
        buf, c = self.buf, bytes(colour)
        leds_of = self.leds_of
        for name in sites:
            for i in leds_of.get(name, ()):
                buf[3 * i : 3 * i + 3] = c

    def light(self, leds: Iterable[int], colour: RGB) -> None:
        """Light the LEDs ``leds`` (indexes on the chain)."""
        buf, c = self.buf, bytes(colour)
        for i in leds:
            buf[3 * i : 3 * i + 3] = c

    def frame(self) -> Frame:
        if self._value is not None:
            return Frame(self._value.to_bytes(3 * self.painter.count, "big"))
        assert self._buf is not None
        return Frame(bytes(self._buf))


def render(view: View, profile: BoardProfile, palette: Palette, now: float) -> Frame:
    """The frame for ``view`` at time ``now`` (the loop's clock, in seconds)."""
    p = painter(profile)
    canvas = Canvas(p)
    phase = view.phase
    blink = _blink(view, now, palette.blink_hz)

    if phase in (Phase.STARTING, Phase.LINKING):
        canvas.light(p.every, scale(palette.highlight, 0.05 + 0.15 * _breathe(now, 2.0)))
        return canvas.frame()
    if phase is Phase.FAULT:
        if view.fault is Fault.STORAGE:
            _cannot_save(canvas, palette, blink)
        else:
            canvas.light(p.every, scale(palette.error, 0.1 + 0.4 * _breathe(now, 2.0)))
        return canvas.frame()
    if phase is Phase.ATTRACT:
        _attract(canvas, palette, now)
        # a game put away: what to clear for the next one, over the waves
        canvas.paint(view.restore, palette.restore)
        canvas.paint(view.offending, scale(palette.error, 0.3 + 0.7 * _breathe(now, 2.0)))
        return canvas.frame()

    # 1. base (a display stays dark but for what it shows: a die's face reads clearly)
    mover = palette.player(view.to_move)
    if phase is Phase.GAME_OVER:
        canvas.start(p.backdrop(palette.base, None))
        _celebrate(canvas, palette, view, now)
        return canvas.frame()

    # 2. whose turn (drawn with the base once per colour)
    turn = view.to_move is not None and phase is not Phase.SETUP
    canvas.start(p.backdrop(palette.base, mover if turn else None))
    for seat, owned in enumerate(view.player_sites):
        canvas.paint(owned.built, scale(palette.player(seat), 0.25))

    # 3. legal
    if phase in (Phase.AWAITING_MOVE, Phase.MOVE_IN_PROGRESS):
        canvas.paint(view.legal, scale(mover, 0.6))
    if phase is Phase.CHOOSING:
        if view.cursor is None or not 0 <= view.cursor < len(view.offers):
            canvas.paint(view.legal, mover if blink else scale(mover, 0.3))
        else:  # the option the buttons picked blinks; the others glow
            canvas.paint(view.legal, scale(mover, 0.15))
            canvas.paint(view.offers[view.cursor], mover if blink else scale(mover, 0.5))

    # 4. last move (never over an option: the marbles just pushed are often in a line to score)
    if phase is Phase.AWAITING_MOVE:
        canvas.paint(view.last_move, scale(palette.highlight, 0.5))
    if phase is Phase.CHOOSING:
        canvas.paint(view.last_move - view.legal, scale(palette.highlight, 0.5))

    # where each player goes on (a RUT, the end of a line), in their colour whoever
    # acts, over the hints: a move under way and mistakes still show over it
    for seat, owned in enumerate(view.player_sites):
        canvas.paint(owned.ahead, palette.player(seat))

    # 5. public information on the displays (a die's face), in the colour of who acts
    if phase.playing and view.shown:
        canvas.paint(view.shown & p.displays, mover)

    # the computer's seat: thinking, its move to make, or failed
    if view.computer is not None and (phase.playing or phase is Phase.SETUP):
        _computer(canvas, palette, view, now, blink)

    # 6. a move under way
    if phase is Phase.MOVE_IN_PROGRESS:
        canvas.paint(view.lifted, scale(palette.highlight, 0.5))
        if view.ambiguous:
            canvas.paint(view.destinations, mover if blink else palette.restore)
        else:
            canvas.paint(view.destinations, mover if blink else scale(mover, 0.25))

    # 7. errors, restore hints, takeback
    if phase in (Phase.WRONG_BOARD, Phase.SETUP):
        canvas.paint(view.restore, palette.restore)
        canvas.paint(view.offending, palette.error if blink else BLACK)
    if phase is Phase.TAKEBACK_OFFERED:
        canvas.paint(view.takeback, palette.restore if blink else palette.highlight)

    # a button asking before it ends the game: every site white, going out one by one
    if view.asking is not None:
        _countdown(canvas, profile, palette, view.asking.left(now))
    return canvas.frame()


def _countdown(canvas: Canvas, profile: BoardProfile, palette: Palette, left: float) -> None:
    """The share ``left`` of the sites, in the order of their LEDs, lit white:
    the time a second press of the button is waited for, running out."""
    sites = [s for s in profile.sites if s.leds]
    sites.sort(key=lambda s: s.leds[0])
    lit = math.ceil(len(sites) * left)
    canvas.paint({s.name for s in sites[:lit]}, scale(palette.highlight, 0.6))


#: seconds the thinking light takes to go once round the board
THINKING_ROUND = 1.6


def _computer(canvas: Canvas, palette: Palette, view: View, now: float, blink: bool) -> None:
    """The computer's seat to act (see the module's docstring, layer 5)."""
    computer = view.computer
    assert computer is not None
    colour = palette.player(computer.seat)
    if computer.doing == "ready":
        moves = computer.directions
        canvas.paint(moves.to, scale(colour, 0.35 + 0.65 * _breathe(now - view.since, 1.2)))
        canvas.paint(moves.take, colour if blink else scale(palette.highlight, 0.1))
    elif computer.doing in ("thinking", "waiting"):
        _thinking(canvas, colour, now)
    else:
        canvas.light(canvas.painter.thinking_rails, colour if blink else palette.error)


def _thinking(canvas: Canvas, colour: RGB, now: float) -> None:
    """A light that runs round the board's centre, with a fading tail."""
    head = (now / THINKING_ROUND) % 1.0
    for leds, angle in canvas.painter.around:
        behind = (head - angle) % 1.0
        if behind < 0.3:
            canvas.light(leds, scale(colour, 1.0 - behind / 0.3))


def _celebrate(canvas: Canvas, palette: Palette, view: View, now: float) -> None:
    """A band of the winner's colour sweeps west to east; the winning line
    stays bright. A draw sweeps every player's colour in turn."""
    t = now - view.since
    width = canvas.painter.width
    for leds, x, _y in canvas.painter.sites:
        if view.winner is None:
            colour = palette.player(int(t + x / width * view.players) % view.players)
        else:
            colour = palette.player(view.winner)
        wave = 0.5 + 0.5 * math.sin(2 * math.pi * (x / width - t / 2.0))
        canvas.light(leds, scale(colour, 0.15 + 0.35 * wave))
    if view.winner is not None:
        canvas.paint(view.winning, palette.player(view.winner))


def _cannot_save(canvas: Canvas, palette: Palette, blink: bool) -> None:
    """The games cannot be saved: the restore colour on every other LED, the
    halves in turn (a sign of its own, unlike the lost sensors' pulse)."""
    on = bytes(palette.restore)
    buf = canvas.buf
    for i in range(canvas.painter.count):
        buf[3 * i : 3 * i + 3] = on if (i % 2 == 0) == blink else bytes(3)


def _attract(canvas: Canvas, palette: Palette, now: float) -> None:
    """The idle animation: slow diagonal waves in the players' colours."""
    n = len(palette.players)
    for leds, x, y in canvas.painter.sites:
        phase = (x + y) / 8.0 - now / 6.0
        colour = palette.players[math.floor(phase) % n]
        canvas.light(leds, scale(colour, 0.1 + 0.3 * _breathe(phase * 6.0, 6.0)))
