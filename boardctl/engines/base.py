"""The interface every rules engine implements, split by concern.

An engine is the rules of one game with its options fixed. It is pure: it does
no I/O, starts no threads and never reads the clock. Game states are immutable
values (hashable, comparable with ``==``); every method takes a state and
returns a new value, so undo is exact by construction and a state may be shared
freely between threads.

An **action** is one step a player takes (a Shiftago insertion, a scoring
choice, a DuploLine disc action). Actions are frozen dataclasses of the
engine's own; the notation converts them to and from text.

:class:`Engine` is one interface made of several, one per concern, each in a
module of its own with the abstract methods and defaults of that concern, and
each read by its own part of the product (as python-chess keeps ``Board``, the
rules, apart from ``pgn``, ``svg`` and ``engine``, which each take a board):

* :class:`~.rules.Rules` (``rules.py``): states, legal actions, turns, chance,
  outcome; read by a search, the controller's phases, ``Match`` and the
  reconciler's search;
* :class:`~.notation.Notation` (``notation.py``): actions as text, states and
  options as JSON; read by records, the command line, the store and the logs;
* :class:`~.physical.PhysicalBoard` (``physical.py``): sites, pieces, layouts,
  what an action touches, how it reaches the controller (read off the board,
  chosen among lit options, or told); read by the reconciler, the profile
  checks, the simulator's hands and the web pages' board;
* :class:`~.presentation.Presentation` (``presentation.py``): the task in
  words, the board as text, the sites lit for the players, secrets; read by
  the view and the status (LEDs, ``boardctl status``, screens, the web);
* :class:`~.playing.Playing` (``playing.py``): how well each seat stands, a
  secret drawn again as a player may imagine it; read by the computer's
  search (``boardctl.computer``).

docs/plugins.md lists every method with its concern and readers. A caller that
needs one concern may take that narrower interface (a function that only
draws the public board takes a ``Presentation``); an engine subclasses
:class:`Engine` and so implements them all.

**A default that reaches into another concern.** A few defaults call a method
of another concern: ``Rules.apply`` names the refused action with
``format_action``, ``PhysicalBoard.touches`` applies the action with
``apply_unchecked``, ``Presentation.task`` asks ``outcome``. Such a mixin
declares the few foreign methods it calls at the end of its class, as bare
abstract stubs inside ``if TYPE_CHECKING:``: mypy sees them (and checks, where
:class:`Engine` joins the mixins, that each stub agrees with the method's own
definition), while at run time each method exists in exactly one class, its
own concern's, with its one docstring: nothing is shadowed whatever the order
of the bases, and ``tests/test_engine_concerns.py`` can check that every method
belongs to exactly one concern. The mixins are parts of :class:`Engine`, not
interfaces to implement alone.

A game is one plug-in: a package ``boardctl/engines/<name>/`` whose
``__init__`` exports ``ENGINE``, the :class:`Engine` subclass. Nothing else
lists it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar

from boardctl.engines.notation import Notation
from boardctl.engines.physical import PhysicalBoard
from boardctl.engines.playing import Playing
from boardctl.engines.presentation import Presentation
from boardctl.engines.rules import CHANCE, PLAYING, Actor, Chance, Outcome, Rules, Status
from boardctl.errors import BadOptions, excerpt

__all__ = [
    "CHANCE",
    "PLAYING",
    "Actor",
    "Chance",
    "Engine",
    "Notation",
    "Outcome",
    "PhysicalBoard",
    "Playing",
    "Presentation",
    "Rules",
    "Status",
    "options_from_mapping",
]

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
            f"{game}: unknown option {excerpt(unknown[0])}; "
            f"known options are {', '.join(sorted(fields))}"
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
                    f"not {type(value).__name__} {excerpt(value)}"
                )
        values[key] = value
    return cls(**values)


# one concern a line; mypy takes a method's type from the first base that
# declares it, so a concern that stubs another's methods comes after it
class Engine(
    Rules[S, A],
    Notation[S, A],
    PhysicalBoard[S, A],
    Presentation[S, A],
    Playing[S, A],
):
    """One game with its options fixed: every concern at once, one base each.

    Subclasses set :attr:`name` and implement the abstract methods of every
    concern. They validate their options in ``__init__`` and raise
    :class:`BadOptions` for bad ones. What the computer opponent asks of a
    game (:class:`~.playing.Playing`: ``evaluate``, ``determinize``) comes
    with defaults an engine may override.
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
