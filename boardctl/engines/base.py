"""The interface every rules engine implements.

An engine is the rules of one game with its options fixed. It is pure: it does
no I/O, starts no threads and never reads the clock. Game states are immutable
values (hashable, comparable with ``==``); every method takes a state and
returns a new value, so undo is exact by construction and a state may be shared
freely between threads.

Terms used throughout:

* **action**: one step a player takes (a Shiftago insertion, a scoring choice, a
  DuploLine disc action). Actions are frozen dataclasses of the engine's own;
  ``parse_action``/``format_action`` convert them to and from the game's
  notation, and ``format_action(parse_action(s)) == s`` for canonical text.
* **site**: a named place on the board that a sensor can watch (``"d4"``, a
  track ``"W3"``, an edge). ``sites()`` lists them all.
* **layout**: what lies on each occupied site, as piece codes (strings) chosen
  by the engine and declared in its :class:`~.describe.BoardSpec`. The
  controller compares layouts with what the sensors report.
* **actor**: who acts next: a player (a 0-based seat), :data:`CHANCE` (a die
  roll, a draw from a stack: the engine lists the outcomes with their weights,
  and whoever runs the game picks one and plays it as an ordinary action, so a
  record replays exactly), or nobody once the game is over.
* **public view**: what every player may see. A game with secrets (hidden
  cards) answers :meth:`Engine.public_view` and :meth:`Engine.public_action`
  without them; everything shown to the room (LEDs, status, screens, logs,
  records of unfinished games) is built from those.

A game is one plug-in: a package ``boardctl/engines/<name>/`` whose
``__init__`` exports ``ENGINE``, the :class:`Engine` subclass. Nothing else
lists it.
"""

from __future__ import annotations

import abc
import dataclasses
import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from boardctl.engines.describe import BoardSpec, PlayerSites
from boardctl.engines.playing import Playing
from boardctl.errors import BadOptions, IllegalMove


class Status(enum.Enum):
    """Where a game stands."""

    PLAYING = "playing"
    WON = "won"
    DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a game so far: still playing, won by a player, or drawn."""

    status: Status
    winner: int | None = None
    reason: str = ""

    @property
    def over(self) -> bool:
        return self.status is not Status.PLAYING


PLAYING = Outcome(Status.PLAYING)


class Chance(enum.Enum):
    """The actor of a chance event: nobody's hand, a die or a shuffled stack."""

    CHANCE = "chance"

    def __repr__(self) -> str:
        return "CHANCE"


#: :meth:`Engine.actor` of a state where chance acts next
CHANCE = Chance.CHANCE

#: who acts next: a seat, chance, or nobody (the game is over)
Actor = int | Chance | None

S = TypeVar("S")
A = TypeVar("A")
O = TypeVar("O")  # noqa: E741 - the options dataclass


def options_from_mapping(cls: type[O], game: str, raw: Mapping[str, Any]) -> O:
    """Build an options dataclass from a mapping, refusing unknown keys.

    Values must have the type of the field's default; a wrong key or type
    raises :class:`BadOptions` naming the game, the key and the accepted keys.
    """
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(raw) - set(fields))
    if unknown:
        raise BadOptions(
            f"{game}: unknown option {unknown[0]!r}; known options are {', '.join(sorted(fields))}"
        )
    values: dict[str, Any] = {}
    for key, value in raw.items():
        field = fields[key]
        default = field.default
        if default is not dataclasses.MISSING and default is not None:
            expected = type(default)
            ok = isinstance(value, expected) and not (expected is int and isinstance(value, bool))
            if not ok:
                raise BadOptions(
                    f"{game}: option {key!r} must be {expected.__name__}, "
                    f"not {type(value).__name__} {value!r}"
                )
        values[key] = value
    return cls(**values)


class Engine(Playing[S, A]):
    """The rules of one game, with its options fixed.

    Subclasses set :attr:`name` and implement the abstract methods. They validate
    their options in ``__init__`` and raise :class:`BadOptions` for bad ones.
    What the computer opponent asks of a game (:class:`~.playing.Playing`:
    ``evaluate``, ``determinize``) comes with defaults an engine may override.
    """

    name: ClassVar[str]
    #: the frozen dataclass of this game's options, every field with a default
    Options: ClassVar[type[Any]]

    #: the values of the game's ``variant`` option, in the order a board's
    #: mode button steps through them; empty for a game without variants
    variants: ClassVar[tuple[str, ...]] = ()

    #: number of players in this game
    players: int

    @classmethod
    def from_options(cls, raw: Mapping[str, Any]) -> Engine[S, A]:
        """The engine for options given as a mapping (a record's ``options``).

        Unknown keys and wrong types raise :class:`BadOptions`; subclasses check
        ranges in ``__init__``, which takes an ``Options`` instance.
        """
        return cls(options_from_mapping(cls.Options, cls.name, raw))  # type: ignore[call-arg]

    # -- the game --------------------------------------------------------
    @abc.abstractmethod
    def initial(self) -> S:
        """The state before the first action."""

    @abc.abstractmethod
    def legal_actions(self, state: S) -> Iterator[A]:
        """The legal actions of the player to act, generated lazily.

        Empty when the game is over.
        """

    def is_legal(self, state: S, action: A) -> bool:
        """Whether ``action`` may be applied to ``state``."""
        return self.why_illegal(state, action) is None

    @abc.abstractmethod
    def why_illegal(self, state: S, action: A) -> str | None:
        """``None`` for a legal action, else a sentence that says why not."""

    def apply(self, state: S, action: A) -> S:
        """The state after ``action``; raises :class:`IllegalMove` saying why
        when the rules forbid it."""
        reason = self.why_illegal(state, action)
        if reason is not None:
            raise IllegalMove(f"{self.format_action(action)}: {reason}")
        return self.apply_unchecked(state, action)

    @abc.abstractmethod
    def apply_unchecked(self, state: S, action: A) -> S:
        """The state after a legal ``action``, without checking it (fast path
        for playouts over ``legal_actions``)."""

    @abc.abstractmethod
    def to_move(self, state: S) -> int | None:
        """The player whose turn it is (0-based seat), or ``None`` when over.

        While chance acts on a player's behalf (their draw, their die roll)
        this is that player; :meth:`actor` tells who acts."""

    def actor(self, state: S) -> Actor:
        """Who acts next: a seat, :data:`CHANCE`, or ``None`` when over."""
        return self.to_move(state)

    def chance_outcomes(self, state: S) -> tuple[tuple[A, int], ...]:
        """When :meth:`actor` is :data:`CHANCE`: every outcome as ``(action,
        weight)``, weights positive integers (a die's faces: weight 1 each, or
        2 for a face printed twice). Empty otherwise."""
        return ()

    @abc.abstractmethod
    def expects(self, state: S) -> str:
        """The kind of action expected next (``"insert"``, ``"score"``, ...);
        ``"nothing"`` when the game is over."""

    @abc.abstractmethod
    def outcome(self, state: S) -> Outcome:
        """Playing, won (by whom) or drawn."""

    def scores(self, state: S) -> tuple[int, ...] | None:
        """Each player's points, for games that keep a score; else ``None``."""
        return None

    def task(self, state: S) -> str:
        """What the actor must do next, in words that follow "player 1 to"
        ("insert a marble", "play a disc or a ring action"); an engine names
        its own phases here."""
        return "nothing" if self.outcome(state).over else "act"

    def choosing(self, state: S) -> bool:
        """Whether the actor now picks one of several options the LEDs show
        side by side (a scoring line), rather than making a move: the
        controller then lights every option's :meth:`highlight`."""
        return False

    def told(self, state: S, action: A) -> bool:
        """Whether ``action`` must be told to the controller by a person
        (``boardctl play``) because a board cannot show it whole: it changes
        nothing a sensor sees (a pass), or it carries something no sensor
        reads (the route card a player shows). The controller never reads a
        told action off the board, even where its pieces match; by default
        no action is told."""
        return False

    @property
    def tells(self) -> bool:
        """Whether any action of this game may be told (:meth:`told` is the
        engine's own)."""
        return type(self).told is not Engine.told

    # -- hidden information -------------------------------------------------
    #: whether any state of this game holds something not every player may see
    has_secrets: ClassVar[bool] = False

    def hints_public(self, state: S) -> bool:
        """Whether the room may see where the player to act may act in
        ``state`` (the legal actions' highlights, the destinations of a move
        under way): false where they would tell a secret. By default, in any
        game without secrets."""
        return not self.has_secrets

    def public_view(self, state: S) -> dict[str, Any]:
        """The state as every player may see it, JSON-ready. Two states that
        differ only in a secret give equal public views."""
        return self.state_to_json(state)

    def private_view(self, state: S, player: int) -> dict[str, Any]:
        """What ``player`` alone may see (their cards), JSON-ready; empty for
        a game without secrets."""
        return {}

    def public_action(self, state: S, action: A) -> str:
        """``action`` (played in ``state``) as every player may read it: the
        notation, with any secret it carries (a dealt card) left out."""
        return self.format_action(action)

    def public_render(self, state: S) -> str:
        """The board drawn as text with no secret in it (:meth:`render` may
        draw everything)."""
        return self.render(state)

    # -- notation --------------------------------------------------------
    @abc.abstractmethod
    def parse_action(self, text: str) -> A:
        """Read an action in the game's notation; :class:`BadNotation` if it
        is not one."""

    @abc.abstractmethod
    def format_action(self, action: A) -> str:
        """Write an action in the game's notation."""

    # -- serialisation ---------------------------------------------------
    @abc.abstractmethod
    def state_to_json(self, state: S) -> dict[str, Any]:
        """A JSON-ready dict that ``state_from_json`` turns back into an
        equal state."""

    @abc.abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> S:
        """The state that ``state_to_json`` wrote."""

    def options_json(self) -> dict[str, Any]:
        """The options this engine was built with, as a record stores them."""
        opts = getattr(self, "options", None)
        if opts is None or not dataclasses.is_dataclass(opts):
            return {}
        return dataclasses.asdict(opts)  # type: ignore[arg-type]

    # -- the physical board ----------------------------------------------
    @abc.abstractmethod
    def board(self) -> BoardSpec:
        """The board, pieces and players of this game with these options
        (built once: engines cache it)."""

    def sites(self) -> tuple[str, ...]:
        """Every site of the board, in a fixed order."""
        return self.board().site_names

    def touches(self, state: S, action: A) -> frozenset[str]:
        """The sites ``action`` (played in ``state``) touches: those whose
        content it changes, and any it is done through (a Shiftago track).

        The default compares the layouts before and after; an engine whose
        actions work through sites that hold no piece overrides it."""
        before = self.layout(state)
        after = self.layout(self.apply_unchecked(state, action))
        return frozenset(s for s in before.keys() | after.keys() if before.get(s) != after.get(s))

    def actions_touching(self, state: S, sites: frozenset[str]) -> Iterator[A]:
        """The legal actions that touch any of ``sites`` (see :meth:`touches`),
        in the order :meth:`legal_actions` lists them.

        The reconciler asks this for the sites where the board differs from
        the game, so a game with thousands of legal actions need not list them
        all. The default filters :meth:`legal_actions` by :meth:`touches`; an
        engine that can go from a site straight to its actions overrides it,
        with the same answer."""
        return (a for a in self.legal_actions(state) if self.touches(state, a) & sites)

    def highlight(self, state: S, action: A) -> frozenset[str]:
        """The sites to light when ``action`` is offered to the player (a
        track to push into, a cell to place on, a line to score): by default
        what it touches."""
        return self.touches(state, action)

    def player_sites(self, state: S) -> tuple[PlayerSites, ...]:
        """Per seat, the sites to show in that player's colour whatever move
        is awaited (where their line goes on, the line itself); empty by
        default. Public: it must not tell a secret."""
        return ()

    def winning_sites(self, state: S) -> frozenset[str]:
        """The sites to light for the winner once the game is over (their
        line); empty when the game names none (the controller then lights the
        last move)."""
        return frozenset()

    def shown(self, state: S) -> frozenset[str]:
        """The display sites to light now (kind ``"display"``: LEDs only),
        public information such as the die's face, lit in the colour of the
        player to act; empty by default. Public: it must not tell a secret."""
        return frozenset()

    @abc.abstractmethod
    def layout(self, state: S) -> Mapping[str, str]:
        """The piece code on each occupied site."""

    @abc.abstractmethod
    def render(self, state: S) -> str:
        """The board drawn as plain text for a terminal."""
