"""What the controller shows: the phases of its state machine and a snapshot
of everything the LED scenes and the status need, as plain values."""

from __future__ import annotations

import copy
import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from boardctl.controller.confirming import Asking
from boardctl.controller.opponent import ComputerView
from boardctl.engines.describe import PlayerSites
from boardctl.message import M_, then_list


class Phase(enum.Enum):
    """The controller's states, as an operator names them."""

    STARTING = "starting"
    LINKING = "linking"
    SETUP = "setup"
    AWAITING_MOVE = "awaiting_move"
    MOVE_IN_PROGRESS = "move_in_progress"
    WRONG_BOARD = "wrong_board"
    CHOOSING = "choosing"
    TAKEBACK_OFFERED = "takeback_offered"
    GAME_OVER = "game_over"
    ATTRACT = "attract"
    FAULT = "fault"

    # a member is itself only (Enum compares by identity): hashed by identity,
    # in C, not by its name in Python (the loop looks phases up in sets often)
    __hash__ = object.__hash__

    @property
    def playing(self) -> bool:
        return self in PLAYING


class Fault(enum.Enum):
    """Why the controller is in :attr:`Phase.FAULT`: each kind has its own
    words and its own LED sign, and ends by itself when its cause does."""

    #: the sensors stopped answering (the cable, the microcontroller)
    SENSORS = "sensors"
    #: a game or an action cannot be saved (the card full or read-only)
    STORAGE = "storage"


_FAULT_WORDS = {
    Fault.SENSORS: M_(
        "the sensors stopped answering: check the cable to the microcontroller; "
        "play resumes by itself once they answer"
    ),
    Fault.STORAGE: M_(
        "the games cannot be saved (the card is full or read-only): free space on it; "
        "play resumes by itself once the move can be saved"
    ),
}


def fault_words(fault: Fault) -> str:
    """What a fault means and what to do, for a person at the board."""
    return _FAULT_WORDS[fault]


#: each phase as people say it (the status's ``phase`` keeps the stable name)
_PHASE_WORDS = {
    Phase.STARTING: M_("starting"),
    Phase.LINKING: M_("waiting for the board's sensors"),
    Phase.SETUP: M_("setting up: the board must show the start of the game"),
    Phase.AWAITING_MOVE: M_("waiting for a move"),
    Phase.MOVE_IN_PROGRESS: M_("a move is under way"),
    Phase.WRONG_BOARD: M_("the board differs from the game"),
    Phase.CHOOSING: M_("waiting for a choice"),
    Phase.TAKEBACK_OFFERED: M_("a takeback is offered"),
    Phase.GAME_OVER: M_("the game is over"),
    Phase.ATTRACT: M_("resting until someone plays"),
    Phase.FAULT: M_("fault"),
}


def phase_words(phase: str | None) -> str:
    """``"awaiting_move"`` -> ``"waiting for a move"``; an unknown name as it is."""
    try:
        return _PHASE_WORDS[Phase(phase)]
    except ValueError:
        return str(phase)


#: the phases of a game under way (the "playing" group)
PLAYING = frozenset(
    {
        Phase.AWAITING_MOVE,
        Phase.MOVE_IN_PROGRESS,
        Phase.WRONG_BOARD,
        Phase.CHOOSING,
        Phase.TAKEBACK_OFFERED,
    }
)

_EMPTY: frozenset[str] = frozenset()


def take_off(undone: list[str] | tuple[str, ...]) -> str:
    """What the players must do when the board still shows actions an
    operator undid: ``undone: take W3 back off the board``."""
    return M_("undone: take {moves} back off the board", moves=then_list(undone))


def tell_again(told: list[str] | tuple[str, ...]) -> str:
    """What the players must do when the board took back told actions with a
    move: ``taken back with the move: pass (told): tell it again if it
    still holds``."""
    return M_(
        "taken back with the move: {moves} (told): tell it again if it still holds",
        moves=then_list(told),
    )


def tell_it(told: list[str] | tuple[str, ...]) -> str:
    """What the players may do when a board no action explains might show an
    action a person must tell: ``if this is start:t2a/B1 (or the like), tell
    it: play ACTION``."""
    if len(told) > 1:
        return M_("if this is {action} (or the like), tell it: play ACTION", action=told[0])
    return M_("if this is {action}, tell it: play ACTION", action=told[0])


@dataclass(frozen=True, slots=True)
class View:
    """Everything a scene is drawn from. Sites are the profile's site names."""

    phase: Phase
    players: int = 2
    #: the player to act, or None
    to_move: int | None = None
    #: per seat, the sites the engine says that player owns for now
    #: (:meth:`~boardctl.engines.base.Engine.player_sites`: a RUT, a line)
    player_sites: tuple[PlayerSites, ...] = ()
    #: display sites showing public information now (a die's face: the
    #: engine's :meth:`~boardctl.engines.base.Engine.shown`), while playing
    shown: frozenset[str] = _EMPTY
    #: sites where the player to act may act (tracks, cells); while choosing,
    #: the sites of every option
    legal: frozenset[str] = _EMPTY
    #: sites the last action touched
    last_move: frozenset[str] = _EMPTY
    #: sites still to change for a move under way, or the candidates of an ambiguity
    destinations: frozenset[str] = _EMPTY
    #: sites a piece was lifted from
    lifted: frozenset[str] = _EMPTY
    #: several actions explain the board: the players must make it clear
    ambiguous: bool = False
    #: sites holding what they must not: blink red
    offending: frozenset[str] = _EMPTY
    #: sites that must get their piece back: amber
    restore: frozenset[str] = _EMPTY
    #: sites that differ from the earlier position a takeback would go back to
    takeback: frozenset[str] = _EMPTY
    winner: int | None = None
    #: sites of the winning line (or the last move when the engine names none)
    winning: frozenset[str] = _EMPTY
    #: when the current phase began, in the loop's clock
    since: float = 0.0
    #: while choosing: the sites of each option, in the order they are offered
    offers: tuple[frozenset[str], ...] = ()
    #: while choosing: the option the buttons picked (an index of ``offers``), if any
    cursor: int | None = None
    #: what ``boardctl status`` answers (JSON-ready, built with the view)
    status: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    #: in :attr:`Phase.FAULT`: which kind (the sensors' when not known)
    fault: Fault | None = None
    #: the computer's seat to act: thinking, its move to make shown, or failed
    computer: ComputerView | None = None
    #: a button that would end the game under way, waiting for its second press
    asking: Asking | None = None


def status_of(view: View) -> dict[str, Any]:
    """The status a view was built with, as a fresh JSON-ready dict."""
    return copy.deepcopy(dict(view.status))
