"""The sound hears the loop's turns on a thread of its own: every turn, in
order, after a turn it failed to hear too; and when it falls behind by more
than its line holds, the loop does not wait, and what still matters is said
(the turn again after a fault, an action accepted) while a wrong board that
came and went is not."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

import pytest

from boardctl.controller.view import Phase
from boardctl.daemon.hearing import WAITING
from boardctl.daemon.sound import Sounder
from boardctl.engines import Engine, create
from boardctl.sound.settings import SoundSettings
from hardware.audio import Speaker, Utterance

WAIT = 30.0


class _Line:
    """The audio worker as the sounder uses it, recording what it is handed
    (in order) and on which thread; ``gate`` shut holds the hearing inside
    ``say`` (an audio worker's lock held long, a starved thread)."""

    fault = None

    def __init__(self) -> None:
        self.said: list[tuple[str | None, str | None]] = []
        self.threads: set[str] = set()
        self.gate = threading.Event()
        self.gate.set()
        self.held = threading.Event()

    def prepare(self, volume: int) -> None:
        pass

    def withdraw(self, slots: Any) -> None:
        pass

    def say(self, *utterances: Utterance) -> None:
        self.threads.add(threading.current_thread().name)
        self.said.extend((u.cue, u.text) for u in utterances)
        if not self.gate.is_set():
            self.held.set()
            assert self.gate.wait(WAIT), "the test never opened the gate"


@dataclass
class _Sensed:
    sensed: dict[str, str] = field(default_factory=dict)


@dataclass
class _Controller:
    engine: Engine[Any, Any]
    board: _Sensed


@dataclass
class _View:
    status: dict[str, Any]
    phase: Phase


def _status(phase: str = "awaiting_move", moves: tuple[str, ...] = (), **kw: Any) -> dict[str, Any]:
    status: dict[str, Any] = {
        "game": "shiftago",
        "options": {"players": 2},
        "phase": phase,
        "moves": list(moves),
        "to_move": len(moves) % 2,
        "status": "playing",
        "winner": None,
        "scores": None,
    }
    status.update(kw)
    return status


@pytest.fixture
def board() -> Iterator[tuple[Sounder, _Line, Any]]:
    line = _Line()
    sounder = Sounder(
        SoundSettings(voice=True), cast(Speaker, line), local=lambda: datetime(2026, 1, 1, 12)
    )
    controller = _Controller(create("shiftago", {"players": 2}), _Sensed({"d4": "p0"}))

    def turn(status: dict[str, Any]) -> None:
        """The loop's turn showing ``status`` (the watcher called as the loop does)."""
        sounder(controller, _View(status, Phase(status["phase"])), None)

    with sounder:
        try:
            yield sounder, line, turn
        finally:
            line.gate.set()


def test_every_turn_is_heard_in_order_off_the_loops_thread(board: Any) -> None:
    sounder, line, turn = board
    told: list[str] = []  # the pages' publisher is told of each turn's new sounds
    sounder.told.append(lambda: told.append(threading.current_thread().name))
    turn(_status("setup"))
    moves: tuple[str, ...] = ()
    expected: list[tuple[str | None, str | None]] = [("your_turn", "Blue to play")]
    turn(_status(moves=moves))
    for n in range(60):
        moves = (*moves, f"W{n}")
        turn(_status("move_in_progress", moves[:-1]))
        turn(_status(moves=moves))
        expected += [("accepted", None), ("your_turn", ("Blue", "Red")[n % 2 == 0] + " to play")]
        if n % 10 == 0:  # the sensors lost a moment: the turn is said again after
            turn(_status("fault", moves))
            turn(_status(moves=moves))
            expected.append(expected[-1])
        if n % 5 == 4:  # handed over as a busy loop does, never more than the line holds
            assert sounder.hearing.idle(WAIT)
    assert sounder.hearing.idle(WAIT)
    assert sounder.hearing.folded == 0
    assert line.said == expected
    assert line.threads == {"boardctl-hearing"}, "heard on the hearing's thread, not the loop's"
    assert told == ["boardctl-hearing"] * (1 + 60 + 6)  # once a turn with something new


def test_a_turn_that_cannot_be_heard_costs_that_turn_only(board: Any) -> None:
    sounder, line, turn = board
    languages = iter(["en", "no such language, a bug", "en"])

    def language() -> str:
        chosen = next(languages, "en")
        if chosen != "en":
            raise RuntimeError(chosen)
        return chosen

    sounder.language = language
    turn(_status("setup"))
    turn(_status())
    turn(_status(moves=("W1",)))  # hearing it fails
    turn(_status(moves=("W1", "E1")))
    turn(_status(moves=("W1", "E1", "W2")))
    assert sounder.hearing.idle(WAIT)
    assert line.said == [
        ("your_turn", "Blue to play"),
        ("accepted", None),
        ("your_turn", "Blue to play"),
        ("accepted", None),
        ("your_turn", "Red to play"),
    ]


def _handed_apart(turn: Any, statuses: list[dict[str, Any]]) -> None:
    """Hand ``statuses`` over as the loop would, on a thread of its own; it
    must be done while the hearing is held (the loop never waits for it)."""
    done = threading.Event()

    def hand() -> None:
        for status in statuses:
            turn(status)
        done.set()

    threading.Thread(target=hand, daemon=True).start()
    assert done.wait(WAIT), "the loop waited for the hearing"


def test_a_hearing_held_up_never_holds_up_the_loop_and_says_what_still_matters(
    board: Any,
) -> None:
    sounder, line, turn = board
    turn(_status("setup"))
    line.gate.clear()
    turn(_status())  # "Blue to play": the hearing is held inside say
    assert line.held.wait(WAIT)
    _handed_apart(
        turn,
        [_status()] * WAITING
        # more than the line holds: folded into its newest
        + [_status("wrong_board", offending=["d4"]), _status(), _status("fault"), _status()],
    )
    assert sounder.hearing.folded == 4
    line.gate.set()
    assert sounder.hearing.idle(WAIT)
    # the turn said again after the fault; the wrong board came and went unsaid
    assert line.said == [("your_turn", "Blue to play"), ("your_turn", "Blue to play")]

    line.said.clear()
    line.held.clear()
    line.gate.clear()
    turn(_status(moves=("W1",)))
    assert line.held.wait(WAIT)
    _handed_apart(
        turn,
        [_status(moves=("W1",))] * (WAITING + 3)
        + [
            _status("move_in_progress", ("W1",)),
            _status(moves=("W1", "E1")),
            _status("wrong_board", ("W1", "E1"), offending=["d4"]),
        ],
    )
    line.gate.set()
    assert sounder.hearing.idle(WAIT)
    assert line.said == [
        ("accepted", None),
        ("your_turn", "Red to play"),
        ("accepted", None),  # the action accepted among the turns folded
        ("wrong", "Take the blue marble off d4"),  # the board wrong still
    ]


def test_the_hearing_never_asks_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """A controller's status is heard on the hearing's thread; what it needs
    of the engine (which keeps tables of its own as it lists actions) was
    asked on the loop's thread, when the turn was handed over."""
    from controller_support import Table, profile_for

    from boardctl.controller.machine import Controller, Timing

    engine = create("shiftago", {"players": 2})
    table = Table(Controller(profile_for(engine), timing=Timing(attract_after=0)))
    c = table.controller
    asked_apart: list[str] = []
    for name in ("task", "outcome", "to_move", "actor", "public_view", "public_render"):
        method = getattr(type(c.engine), name)

        def watched(*args: Any, _method: Any = method, **kw: Any) -> Any:
            if threading.current_thread().name == "boardctl-hearing":
                asked_apart.append(_method.__name__)
            return _method(*args, **kw)

        monkeypatch.setattr(type(c.engine), name, watched)
    line = _Line()
    with Sounder(
        SoundSettings(voice=True), cast(Speaker, line), local=lambda: datetime(2026, 1, 1, 12)
    ) as sounder:
        sounder(c, c.view(), None)
        for move, piece in (("insert W1", "p0"), ("insert E7", "p1")):
            table.hands(move, piece)
            sounder(c, c.view(), None)
        assert sounder.hearing.idle(WAIT)
    assert asked_apart == []
    assert line.said[-2:] == [("accepted", None), ("your_turn", "Blue to play")]
