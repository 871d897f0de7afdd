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
  by the engine and documented in its module. The controller compares layouts
  with what the sensors report.
"""

from __future__ import annotations

import abc
import dataclasses
import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

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


class Engine(abc.ABC, Generic[S, A]):
    """The rules of one game, with its options fixed.

    Subclasses set :attr:`name` and implement the abstract methods. They validate
    their options in ``__init__`` and raise :class:`BadOptions` for bad ones.
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
        """The player who acts next (0-based seat), or ``None`` when over."""

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
    def sites(self) -> tuple[str, ...]:
        """Every site of the board, in a fixed order."""

    @abc.abstractmethod
    def layout(self, state: S) -> Mapping[str, str]:
        """The piece code on each occupied site."""

    @abc.abstractmethod
    def render(self, state: S) -> str:
        """The board drawn as plain text for a terminal."""
