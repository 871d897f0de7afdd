"""What the controller presents: the :class:`~.view.View` built once per turn
of the loop, from the phase, the game and the tracked board, for the LED
scenes and the status alike.

Everything shown to the room is public: the moves in the engine's public
notation (:meth:`~boardctl.engines.notation.Notation.public_action`), the
board drawn by :meth:`~boardctl.engines.presentation.Presentation.public_render`,
the state as :meth:`~boardctl.engines.presentation.Presentation.public_view`.
A game with secrets lights no legal-move hints (which sites are legal may tell
a secret). Pure.
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, KeysView, Mapping, Sequence, ValuesView
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from boardctl import __version__
from boardctl.controller.chance import chance_acts
from boardctl.controller.choosing import Offer
from boardctl.controller.confirming import Asking
from boardctl.controller.opponent import ComputerView
from boardctl.controller.reconcile import (
    Ambiguous,
    InProgress,
    Played,
    Reconciler,
    Takeback,
    Verdict,
    Wrong,
)
from boardctl.controller.tracking import BoardTracker
from boardctl.controller.view import PLAYING, Fault, Phase, View
from boardctl.engines import CHANCE, Engine, Match, Outcome
from boardctl.engines.describe import PlayerSites
from boardctl.engines.presentation import Presentation
from boardctl.message import M_
from boardctl.seats import ALL_HANDS, PHONE, REMOTE, Seats


@dataclass(frozen=True, slots=True)
class Scene:
    """What the controller holds that the view is built from, besides the
    game and the board."""

    phase: Phase
    since: float
    board_name: str
    #: the sites the last action touched
    last_move: frozenset[str]
    #: the options of a choice, or the candidates of an ambiguous board
    offers: tuple[Offer, ...] = ()
    cursor: int | None = None
    #: why the controller is (or was last) in FAULT, and which kind of fault
    #: that is; shown only in that phase
    fault: str | None = None
    fault_kind: Fault | None = None
    #: who gives chance's outcome now: "random" (drawn by the controller), "button"
    #: (drawn at a press of the choose button), "operator" (told by a person) or
    #: "none" (secret, and nothing draws it)
    chance: str = "random"
    #: the moves so far in public notation
    public_moves: tuple[str, ...] = ()
    #: told actions the board took back with a move (it cannot show them):
    #: to be told again once the move is made again
    told_undone: tuple[str, ...] = ()
    #: who plays each seat
    seats: Seats = ALL_HANDS
    #: the computer's seat to act: thinking, its move shown, or failed
    computer: ComputerView | None = None
    #: a button that would end the game under way, waiting for its second press
    asking: Asking | None = None


def _sites_of(path: Sequence[Any]) -> frozenset[str]:
    return frozenset(s for o in path for s in o.changed)


def build_view(
    scene: Scene,
    engine: Engine[Any, Any],
    match: Match[Any, Any],
    board: BoardTracker,
    reconciler: Reconciler,
    previous: Status | None = None,
) -> View:
    """The view of ``scene`` for the game ``match`` on ``board``: the sites
    to light for every legal action (each one's highlight, as reconciliation
    works them out once per state) while a player at this board acts.
    ``previous``: the last view's status, kept when this one would say the
    same (a watcher that reads the status every turn builds it once)."""
    phase = scene.phase
    verdict = board.verdict
    state = match.state
    applied = len(match.actions)
    position = previous.position if previous is not None else None
    if (
        position is None
        or position.state is not state
        or position.engine is not engine
        or position.applied != applied
    ):
        position = Position(engine, state, applied)  # a move, an undo, another game
    secret, hinted, outcome, to_move, won = position.shown()
    playing = phase in PLAYING
    legal: frozenset[str] = frozenset()
    if phase is Phase.CHOOSING:
        legal = frozenset(s for o in scene.offers for s in o.sites)
    elif playing and hinted and scene.computer is None:
        legal = reconciler.expect(state).highlights
    fault, fault_kind = None, None
    if phase is Phase.FAULT:
        fault, fault_kind = scene.fault, scene.fault_kind or Fault.SENSORS
    destinations: frozenset[str] = frozenset()
    lifted: frozenset[str] = frozenset()
    ambiguous = False
    offending: frozenset[str] = frozenset()
    restore: frozenset[str] = frozenset()
    takeback: frozenset[str] = frozenset()
    if isinstance(verdict, InProgress):
        lifted = verdict.lifted
        if not secret:
            destinations = verdict.destinations
    elif isinstance(verdict, Ambiguous):
        destinations, ambiguous = verdict.sites, True
    elif isinstance(verdict, Played):
        destinations = _sites_of(verdict.path)
    elif isinstance(verdict, Wrong):
        offending, restore = verdict.offending, frozenset(verdict.restore)
    elif isinstance(verdict, Takeback):
        takeback = board.restore_hints(reconciler, state)
    winning: frozenset[str] = frozenset()
    if outcome.over:
        winning = won or scene.last_move
    status = Status(scene, position, verdict, winning, fault, fault_kind)
    if previous is not None and previous.key == status.key:
        status = previous
    player_sites, shown = position.sites() if playing else ((), frozenset())
    return View(
        phase=phase,
        players=engine.players,
        to_move=to_move,
        player_sites=player_sites,
        shown=shown,
        legal=legal,
        last_move=scene.last_move,
        destinations=destinations,
        lifted=lifted,
        ambiguous=ambiguous,
        offending=offending,
        restore=restore,
        takeback=takeback,
        winner=outcome.winner,
        winning=winning,
        since=scene.since,
        offers=tuple(o.sites for o in scene.offers) if phase is Phase.CHOOSING else (),
        cursor=scene.cursor if phase is Phase.CHOOSING else None,
        status=status,
        fault=fault_kind,
        computer=scene.computer,
        asking=scene.asking,
    )


def computer_fault(error: str) -> str:
    """What a failed computer player means, for a person at the board."""
    return M_(
        "the computer player stopped ({error}): it is asked again by itself; "
        "undo and a new game work meanwhile",
        error=error,
    )


def remote_fault(board: str, error: str) -> str:
    """Why the game with another board cannot go on (its moves do not fit
    this board's record, or it has left), for a person at the board."""
    return M_(
        "the game with {board} cannot go on ({error}): start a new game", board=board, error=error
    )


@lru_cache(maxsize=16)
def _public(engine: Presentation[Any, Any], state: Any) -> tuple[dict[str, Any], str]:
    """The state as the room may see it and the board drawn for them: worked
    out once per state (states are immutable), not on every turn of the loop.
    Shared between views: read, never changed."""
    return engine.public_view(state), engine.public_render(state)


@lru_cache(maxsize=16)
def _summary(engine: Engine[Any, Any], state: Any, applied: int) -> dict[str, Any]:
    """The summary of a match standing at ``state`` after ``applied`` actions
    (:meth:`~boardctl.engines.match.Match.summary`): a function of those alone
    (the engine's task may look at every legal action), worked out once."""
    summary = Match(engine, state).summary()
    summary["moves_applied"] = applied
    return summary


class Position:
    """What the status says of a position, asked of the engine: the game's
    summary, the state as the room sees it and drawn, who acts, chance's
    outcomes. Worked out once per position and shared by the statuses of the
    turns that show it. An engine is asked on the loop's thread only (it
    keeps tables of its own as it lists actions): a status to be read on
    another thread is :meth:`Status.prepare` d first."""

    __slots__ = ("_got", "_shown", "_sites", "applied", "engine", "state")

    def __init__(self, engine: Engine[Any, Any], state: Any, applied: int) -> None:
        self.engine = engine
        self.state = state
        self.applied = applied
        self._got: tuple[Mapping[str, Any], dict[str, Any], str, Any, list[str] | None] | None = (
            None
        )
        self._shown: tuple[bool, bool, Outcome, int | None, frozenset[str]] | None = None
        self._sites: tuple[tuple[PlayerSites, ...], frozenset[str]] | None = None

    def shown(self) -> tuple[bool, bool, Outcome, int | None, frozenset[str]]:
        """What every view of the position asks of the engine, asked once:
        (the legal actions are secret, they may be lit (not secret, and no
        chance to act), the outcome, the player to move, the engine's
        winning sites when the game is over)."""
        shown = self._shown
        if shown is None:
            engine, state = self.engine, self.state
            secret = not engine.hints_public(state)
            outcome = engine.outcome(state)
            won = engine.winning_sites(state) if outcome.over else frozenset()
            hinted = not secret and not chance_acts(engine, state)
            shown = self._shown = (secret, hinted, outcome, engine.to_move(state), won)
        return shown

    def sites(self) -> tuple[tuple[PlayerSites, ...], frozenset[str]]:
        """The sites each player owns and the display sites shown, while playing."""
        sites = self._sites
        if sites is None:
            sites = self._sites = (
                self.engine.player_sites(self.state),
                self.engine.shown(self.state),
            )
        return sites

    def get(self) -> tuple[Mapping[str, Any], dict[str, Any], str, Any, list[str] | None]:
        """(summary, the state as the room sees it, the board drawn, who
        acts, chance's outcomes or None)."""
        got = self._got
        if got is None:
            engine, state = self.engine, self.state
            summary = _summary(engine, state, self.applied)
            position, picture = _public(engine, state)
            actor = engine.actor(state)
            outcomes = None
            if actor is CHANCE:
                outcomes = sorted(
                    {engine.public_action(state, a) for a, _ in engine.chance_outcomes(state)}
                )
            got = self._got = (summary, position, picture, actor, outcomes)
        return got


class Status(Mapping[str, Any]):
    """What ``boardctl status`` answers for a view, built the first time it
    is read (by ``boardctl status``, the web pages, the broker, the sound),
    not on every turn of the loop. It is built from values that never change
    (the position, the verdict, the scene), so it says what the view saw
    whenever, and on whichever thread, it is read; what it asks of the engine
    is asked on the loop's thread (:meth:`prepare`, or the first read there)."""

    __slots__ = ("_built", "key", "position")

    def __init__(
        self,
        scene: Scene,
        position: Position,
        verdict: Verdict,
        winning: frozenset[str],
        fault: str | None,
        fault_kind: Fault | None,
    ) -> None:
        self.position = position
        #: what it is built from: a status with an equal key says the same
        self.key: tuple[Any, ...] = (
            scene,
            position.engine,
            position.state,
            position.applied,
            verdict,
            winning,
            fault,
            fault_kind,
        )
        self._built: MappingProxyType[str, Any] | None = None

    def prepare(self) -> None:
        """Ask the engine now (on the loop's thread) what the status needs of
        it, so that it may be built on another thread (once per position)."""
        self.position.get()

    def _get(self) -> MappingProxyType[str, Any]:
        built = self._built
        if built is None:
            scene, _, _, _, verdict, winning, fault, fault_kind = self.key
            built = self._built = _status(scene, self.position, verdict, winning, fault, fault_kind)
        return built

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def get(self, key: str, default: Any = None) -> Any:
        # the watchers read a few keys every turn: straight from the built
        # mapping, not through Mapping's __getitem__ and KeyError
        return self._get().get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._get()

    # read whole by the web pages' publisher every turn: the built mapping's
    # own views, not Mapping's, which look every key up through __getitem__
    def keys(self) -> KeysView[str]:
        return self._get().keys()

    def items(self) -> ItemsView[str, Any]:
        return self._get().items()

    def values(self) -> ValuesView[Any]:
        return self._get().values()

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Status):
            return other is self or self._get() == other._get()
        return self._get() == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Status({dict(self._get())!r})"


def _status(
    scene: Scene,
    at: Position,
    verdict: Verdict,
    winning: frozenset[str],
    fault: str | None,
    fault_kind: Fault | None,
) -> MappingProxyType[str, Any]:
    """What ``boardctl status`` answers: the game's summary and what the
    controller says about the board, all of it public."""
    engine = at.engine
    game, position, picture, actor, outcomes = at.get()
    summary = dict(game)
    summary.update(
        {
            "phase": scene.phase.value,
            "board": scene.board_name,
            "moves": list(scene.public_moves),
            "verdict": type(verdict).__name__.lower(),
            "actor": "chance" if actor is CHANCE else actor,
            "position": position,
            "picture": picture,
            "version": __version__,  # the daemon's own: it may differ from the CLI's
        }
    )
    if winning:
        summary["winning"] = sorted(winning)
    if isinstance(actor, int) and engine.tells:
        summary["told"] = True  # some actions are told: `boardctl play`
    if outcomes is not None:
        summary["chance"] = scene.chance
        summary["outcomes"] = list(outcomes)
    if scene.told_undone:
        summary["told_undone"] = list(scene.told_undone)
    if scene.seats.any_apart:
        summary["seats"] = [str(scene.seats[n]) for n in range(engine.players)]
    computer = scene.computer
    if computer is not None and computer.kind in (REMOTE, PHONE):
        summary["remote"] = {
            "seat": computer.seat,
            "board": computer.board,
            "doing": computer.doing,
            "moves": list(computer.texts),
        }
        if computer.kind == PHONE:
            summary["remote"]["phone"] = True
        if computer.error is not None:
            summary["remote"]["error"] = computer.error
            summary["fault"] = remote_fault(computer.board, computer.error)
            summary["fault_kind"] = "remote"
    elif computer is not None:
        summary["computer"] = {
            "seat": computer.seat,
            "level": computer.level,
            "doing": computer.doing,
            "moves": list(computer.texts),
        }
        if computer.error is not None:
            summary["computer"]["error"] = computer.error
            summary["fault"] = computer_fault(computer.error)
            summary["fault_kind"] = "computer"
    if scene.asking is not None:
        summary["confirm"] = {"button": scene.asking.button, "words": scene.asking.words}
    if fault is not None:
        summary["fault"] = fault
    if fault_kind is not None:
        summary["fault_kind"] = fault_kind.value
    if isinstance(verdict, Ambiguous):
        summary["candidates"] = [list(o.texts) for o in scene.offers]
    if scene.phase is Phase.CHOOSING:
        summary["choices"] = [o.text for o in scene.offers]
        summary["cursor"] = scene.cursor
    if isinstance(verdict, Wrong):
        summary["offending"] = sorted(verdict.offending)
        summary["restore"] = dict(verdict.restore)
        if verdict.undone:
            summary["undone_on_board"] = list(verdict.undone)
        if verdict.told:
            summary["to_tell"] = list(verdict.told)
        if verdict.why:
            summary["why"] = verdict.why
    return MappingProxyType(summary)
