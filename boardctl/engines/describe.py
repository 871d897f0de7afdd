"""What a game declares about its physical board, its pieces and its players.

Every engine answers :meth:`~boardctl.engines.base.Engine.board` with one
:class:`BoardSpec`. The rest of the product reads it instead of keeping tables
of its own: the profile checks (which sites a board must have and which piece
codes its sensors may report), the simulator (how people name pieces, which
sites a hand can insert into), the controller's view and status (players'
names and colours) and the LED scenes.

Pure values, no I/O: a spec is built once per engine and shared.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from boardctl.message import M_, Message, and_list, joined

#: the kinds of site a board can have; a ``display`` has LEDs only and shows
#: public information (a die's face, see :meth:`~.base.Engine.shown`): never
#: sensed, and a board may leave it out
SITE_KINDS = ("cell", "track", "edge", "point", "terminal", "display")

#: how a single piece looks, for the pages that draw the board: a ``marble``
#: (a ball seen from above), a flat ``disc``, a ``ring`` a disc fits in, a
#: ``node`` (a large token with a hole), a ``mark`` (a token that points one
#: way), a ``stick`` laid along an edge, a square ``tile`` with rails, a
#: ``car`` (a small streetcar) and a ``sign`` (a stop sign)
#: how a board's cells are drawn
CELL_SHAPES = ("round", "square", "hex")

SHAPES = ("marble", "disc", "ring", "node", "mark", "stick", "tile", "car", "sign")


@dataclass(frozen=True, slots=True)
class Look:
    """How a single piece looks from above, as the pages draw it.

    Angles are in degrees anticlockwise from east, in the board's own frame
    (y north), so a drawing turned with the board stays right.
    """

    #: one of :data:`SHAPES`
    shape: str
    #: "#rrggbb": the piece's colour
    colour: str
    #: a few characters printed on the piece (a streetcar's line number, a
    #: MARK's kind letter); empty for none
    label: str = ""
    #: the way a piece points (a Beeline MARK leaves its cell this way)
    angle: float | None = None
    #: a tile's rails: each joins the middles of two sides, given by the
    #: angle from the centre to each side's middle (east 0, north 90, ...)
    rails: tuple[tuple[float, float], ...] = ()

    def __post_init__(self) -> None:
        if self.shape not in SHAPES:
            raise ValueError(f"a piece's shape {self.shape!r} is not one of {SHAPES}")


@dataclass(frozen=True, slots=True)
class SiteSpec:
    """A place on the board the engine knows by name."""

    name: str
    #: one of :data:`SITE_KINDS`
    kind: str
    #: where it is drawn, in cell units, x east and y north
    x: float = 0.0
    y: float = 0.0
    #: whether a board must sense what lies here (a cell, an edge); a track's
    #: light gate, a terminal with only LEDs, are optional; a display never is
    sensed: bool = True
    #: an edge's two end points (site or point names)
    ends: tuple[str, ...] = ()
    #: a track's cells in the order a piece pushed in travels
    path: tuple[str, ...] = ()
    #: the sites next to this one, for games where adjacency matters
    neighbours: tuple[str, ...] = ()
    #: a few characters the pages print on the site itself (a building's
    #: letter, a terminal's line number); empty for none
    label: str = ""
    #: "#rrggbb": the colour the site is painted (a terminal in its line's
    #: colour); empty for the board's own
    colour: str = ""


@dataclass(frozen=True, slots=True)
class PieceSpec:
    """What can lie on one site, as the engine's layout names it.

    A piece made of parts a sensor or a hand may see separately (a DuploLine
    disc with a ring on it, a Linie 1 tile with a streetcar on it) lists the
    codes of its parts; a single piece has none.
    """

    code: str
    #: how people name it ("blue marble", "white disc")
    name: str
    #: the seat of the player it belongs to, or None for a shared piece
    owner: int | None = None
    #: the codes of the single pieces this one is made of (empty: it is single)
    parts: tuple[str, ...] = ()
    #: its turn on the board in steps of the board's symmetry, where pieces have one
    orientation: int | None = None
    #: how a single piece looks (None: a plain token in its owner's colour);
    #: a piece made of parts is drawn as its parts, one over the other
    look: Look | None = None

    @property
    def single(self) -> bool:
        return not self.parts


def seat_words(seat: int) -> str:
    """A seat as a person counts it: seat 0 is ``player 1`` (JSON, records
    and the control socket count seats from 0; people from 1)."""
    return M_("player {number}", number=seat + 1)


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """One seat: the word people use for it and the colour of its pieces.

    A player whose pieces have a colour is named by it (``blue``, ``black``);
    where pieces have none (Linie 1's streetcars belong to lines, not to
    players) the name is the seat counted from 1 (``player 2``), and
    ``colour`` is only the colour the LEDs light that player in.
    """

    name: str
    #: "#rrggbb": the colour of this player's pieces on a typical board
    colour: str


@dataclass(frozen=True, slots=True)
class BoardSpec:
    """A game's board, pieces and players, as the engine with its options sees them."""

    sites: tuple[SiteSpec, ...]
    pieces: tuple[PieceSpec, ...]
    players: tuple[PlayerSpec, ...]
    #: how the cells are drawn: ``round`` holes, ``square`` or ``hex`` spaces
    cells: str = "round"
    _sites: Mapping[str, SiteSpec] = field(init=False, repr=False, compare=False)
    _pieces: Mapping[str, PieceSpec] = field(init=False, repr=False, compare=False)
    #: a piece made of parts, by the set of its parts
    _made_of: Mapping[frozenset[str], str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        sites = {s.name: s for s in self.sites}
        pieces = {p.code: p for p in self.pieces}
        made_of = {frozenset(p.parts): p.code for p in self.pieces if p.parts}
        if len(sites) != len(self.sites):
            raise ValueError("a board spec names a site twice")
        if len(pieces) != len(self.pieces):
            raise ValueError("a board spec names a piece code twice")
        if self.cells not in CELL_SHAPES:
            raise ValueError(f"cells {self.cells!r} is not one of {CELL_SHAPES}")
        for s in self.sites:
            if s.kind not in SITE_KINDS:
                raise ValueError(f"site {s.name}: kind {s.kind!r} is not one of {SITE_KINDS}")
            if s.kind == "display" and s.sensed:
                raise ValueError(f"site {s.name}: a display is never sensed (sensed=False)")
        object.__setattr__(self, "_sites", MappingProxyType(sites))
        object.__setattr__(self, "_pieces", MappingProxyType(pieces))
        object.__setattr__(self, "_made_of", MappingProxyType(made_of))

    @property
    def site_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.sites)

    @property
    def site_kinds(self) -> Mapping[str, str]:
        return MappingProxyType({s.name: s.kind for s in self.sites})

    @property
    def display_names(self) -> tuple[str, ...]:
        """The display sites: LEDs only, optional on a board."""
        return tuple(s.name for s in self.sites if s.kind == "display")

    @property
    def sensed_kinds(self) -> frozenset[str]:
        """The kinds whose sites a board must sense."""
        return frozenset(s.kind for s in self.sites if s.sensed)

    @property
    def codes(self) -> frozenset[str]:
        return frozenset(self._pieces)

    def site(self, name: str) -> SiteSpec:
        try:
            return self._sites[name]
        except KeyError:
            raise KeyError(f"no site {name!r}") from None

    def has_site(self, name: str) -> bool:
        return name in self._sites

    def piece(self, code: str) -> PieceSpec | None:
        return self._pieces.get(code)

    def parts(self, code: str | None) -> frozenset[str | None]:
        """The codes a sensor may see on a site where ``code`` lies while a
        hand adds or takes away its parts: the piece itself, each of its parts,
        and nothing."""
        if code is None:
            return frozenset({None})
        piece = self._pieces.get(code)
        extra: tuple[str, ...] = piece.parts if piece is not None else ()
        return frozenset({code, *extra})

    def singles_of(self, code: str) -> frozenset[str]:
        """The single pieces ``code`` is made of (itself when it is single)."""
        piece = self._pieces.get(code)
        return frozenset(piece.parts) if piece is not None and piece.parts else frozenset({code})

    def part_of(self, code: str, whole: str | None) -> bool:
        """Whether ``code`` is ``whole`` with some of its parts missing (a tile
        and its stop sign, the streetcar lifted off), or ``whole`` itself."""
        return whole is not None and self.singles_of(code) <= self.singles_of(whole)

    def with_part(self, code: str | None, part: str) -> str | None:
        """The code a sensor reads where ``part`` (a single piece) is set on
        ``code`` (a streetcar on a tile it passes over): ``part`` alone on an
        empty site; None when no declared piece is made that way."""
        if code is None:
            return part
        return self._made_of.get(self.singles_of(code) | {part})

    def player_name(self, seat: int | None) -> str:
        """``blue``: a player by the colour of their pieces, else ``player 2``."""
        if seat is None:
            return M_("nobody")
        if 0 <= seat < len(self.players):
            return self.players[seat].name
        return seat_words(seat)

    def player_label(self, seat: int | None) -> str:
        """``blue (player 1)``: the player's name and seat counted from 1, the
        seat alone where that is the name (``player 2``)."""
        name = self.player_name(seat)
        if seat is None or name == seat_words(seat):
            return name
        return M_("{name} ({seat})", name=name, seat=seat_words(seat))

    def named(self, code: str) -> str:
        """The name people read for the piece ``code`` (the code itself where the
        board has no such piece). A piece of parts that a board has by the
        thousand (a Linie 1 tile with its stop sign and streetcars on it) keeps a
        plain English name when the board is described, and is named here by its
        parts, in words each surface translates: only the one shown is made."""
        piece = self._pieces.get(code)
        if piece is None:
            return code
        if not piece.parts or isinstance(piece.name, Message):
            return piece.name
        first, *rest = (self.named(part) for part in piece.parts)
        return M_("{tile} with {things}", tile=first, things=and_list(rest))

    def singles(self) -> tuple[PieceSpec, ...]:
        """The pieces a hand holds one at a time."""
        return tuple(p for p in self.pieces if p.single)

    def player_piece(self, seat: int) -> PieceSpec | None:
        """The piece of ``seat`` when each player has exactly one kind (a
        marble), else None."""
        own = [p for p in self.singles() if p.owner == seat]
        return own[0] if len(own) == 1 else None

    def find_piece(self, word: str) -> PieceSpec | None:
        """A piece by its code or its name, ignoring case, or by a player's
        name where that player has one kind of piece."""
        w = word.lower()
        for p in self.pieces:
            if p.code.lower() == w or p.name.lower() == w:
                return p
        for seat, player in enumerate(self.players):
            if player.name.lower() == w:
                return self.player_piece(seat)
        return None


#: how an option is set: a whole number, one of a few values, yes or no, words
OPTION_KINDS = ("int", "choice", "bool", "text")


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a game as an operator sets it: the operator page's form
    and ``boardctl new --help`` are built from these, never from the
    option's internal name alone."""

    #: the key in the options (``handicap_turns``)
    name: str
    #: what the field is called ("Turns the handicapped player sits out")
    label: str
    #: a sentence on what it does
    help: str = ""
    #: one of :data:`OPTION_KINDS`
    kind: str = "text"
    #: a ``choice``'s values, in order
    choices: tuple[Any, ...] = ()
    #: the words shown for each choice (empty: the values themselves)
    choice_labels: tuple[str, ...] = ()
    #: an ``int``'s bounds
    minimum: int | None = None
    maximum: int | None = None
    #: the value a new game takes when nothing is said (filled in from the
    #: engine's ``Options``)
    default: Any = None

    def __post_init__(self) -> None:
        if self.kind not in OPTION_KINDS:
            raise ValueError(f"option {self.name}: kind {self.kind!r} is not one of {OPTION_KINDS}")
        if self.choice_labels and len(self.choice_labels) != len(self.choices):
            raise ValueError(f"option {self.name}: one label per choice")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "label": self.label,
            "help": self.help,
            "type": self.kind,
            "default": self.default,
        }
        if self.choices:
            out["choices"] = list(self.choices)
            out["choice_labels"] = list(self.choice_labels or (str(c) for c in self.choices))
        if self.minimum is not None:
            out["min"] = self.minimum
        if self.maximum is not None:
            out["max"] = self.maximum
        return out

    def usage(self) -> str:
        """``players=2|3|4: how many play (default 2)``, for a command's help."""
        values: str
        if self.kind == "choice":
            values = "|".join(str(c) for c in self.choices)
            labels = self.choice_labels or tuple(str(c) for c in self.choices)
            pairs = list(zip(self.choices, labels, strict=True))
            if any(w.lower() != str(c).lower() for c, w in pairs):
                each = joined([joined([f"{c}: ", w], "") for c, w in pairs], ", ")
                values = joined([values, " (", each, ")"], "")
        elif self.kind == "int":
            values = f"{self.minimum}..{self.maximum}" if self.minimum is not None else "N"
        elif self.kind == "bool":
            values = "true|false"
        else:
            values = "TEXT"
        shown = str(self.default).lower() if isinstance(self.default, bool) else self.default
        said = self.help or self.label
        if self.default in (None, ""):
            return joined([f"{self.name}=", values, ": ", said], "")
        default = M_("(default {value})", value=shown)
        return joined([f"{self.name}=", values, ": ", said, " ", default], "")


@dataclass(frozen=True, slots=True)
class PlayerSites:
    """Sites one player owns for now, shown in that player's colour while the
    game is played: ``ahead``, where the player goes on from (Beeline's RUT),
    brightly; ``built``, what the player has built (a line's path), dimly."""

    ahead: frozenset[str] = frozenset()
    built: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class DemoStep:
    """One thing the hands do in a scripted game, what the narrator says, and
    what the controller must say afterwards.

    ``command`` is a line of the simulator's hands (``insert W3``, ``place d4
    white-disc``, ``lift d4``, ``move d4 e4``, ``remove b1 c1``), ``roll TEXT``
    for chance's outcome told by an operator (in a demo whose ``chance`` is
    ``"operator"``), ``play TEXT`` for an action a person tells (one the board
    cannot show, :meth:`~boardctl.engines.base.Engine.told`), ``choose TEXT``
    for an option picked, or empty to only wait. ``moves`` is the number of actions
    the game then has (None: any);
    ``phases`` the controller's phases that may follow (``wrong_board``,
    ``takeback_offered``, ...; empty: the board is right and a move is awaited).
    ``say`` is a whole sentence marked with ``M_`` (its player a parameter, named
    by the form a sentence begins with: ``Mp_("sentence start", "Blue")``), so
    that the simulator tells it in the board's language.
    """

    say: str
    command: str
    moves: int | None
    phases: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Demo:
    """A whole scripted game for ``boardctl sim --demo``, with human mistakes
    in it, as pure data: the options to start with, the steps, the winner and
    the actions the game ends with.

    An engine package may have a module ``demo`` whose ``demo()`` returns one.
    A game with chance either lets the simulated daemon draw (``chance`` is
    ``"random"``: the script cannot know the outcomes) or tells each outcome
    itself (``"operator"``: steps ``roll TEXT``), which a scripted game needs
    when its moves depend on the draws.
    """

    options: Mapping[str, object]
    steps: tuple[DemoStep, ...]
    winner: int
    moves: tuple[str, ...] = ()
    chance: str = "random"
