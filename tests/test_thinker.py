"""The computer player's process: answers come back as events, a request the
game left is cancelled, and a process that dies or hangs is a failure the
controller is told about, never a stuck board."""

from __future__ import annotations

import io
import json
import queue
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from boardctl.controller.opponent import ComputerFailed, ComputerMoved, Think
from boardctl.daemon.think_worker import MAX_LINE, serve
from boardctl.daemon.thinker import ProcessThinker
from boardctl.daemon.thinking import hidden, turn_at
from boardctl.engines import Match, create

WAIT = 30.0


@pytest.fixture
def answers() -> queue.SimpleQueue[Any]:
    return queue.SimpleQueue()


@pytest.fixture
def thinker(answers: queue.SimpleQueue[Any]) -> Iterator[ProcessThinker]:
    with ProcessThinker(answers.put, max_seconds=5.0) as t:
        yield t


def _request(number: int, moves: list[str], level: int = 1, **kw: Any) -> Think:
    engine = create("shiftago")
    match = Match.from_moves(engine, moves)
    actor = engine.actor(match.state)
    assert isinstance(actor, int)
    return Think(number, engine, match.state, actor, level, 7, len(moves), **kw)


def test_the_process_answers_with_the_turn_the_same_thinking_gives_here(
    thinker: ProcessThinker, answers: queue.SimpleQueue[Any]
) -> None:
    request = _request(1, ["W3", "E3"], level=2)
    thinker.ask(request)
    got = answers.get(timeout=WAIT)
    assert isinstance(got, ComputerMoved) and got.id == 1
    expected = turn_at(request.engine, request.state, level=2, seed=7, ply=2)
    assert got.actions == expected, "the daemon's computer and `rules think` agree"
    # another move: never the one suggested before
    thinker.ask(_request(2, ["W3", "E3"], level=2, attempt=1, exclude=expected[:1]))
    again = answers.get(timeout=WAIT)
    assert isinstance(again, ComputerMoved) and again.actions[0] != expected[0]
    assert thinker.started == 1, "one process serves request after request"


def test_a_cancelled_request_is_never_answered_and_the_process_goes_on(
    thinker: ProcessThinker, answers: queue.SimpleQueue[Any]
) -> None:
    thinker.ask(_request(1, [], level=5))
    thinker.cancel()
    thinker.ask(_request(2, ["W4"], level=1))
    got = answers.get(timeout=WAIT)
    assert isinstance(got, ComputerMoved) and got.id == 2
    assert answers.empty()
    assert thinker.started == 1


def test_a_process_killed_while_it_thinks_is_a_failure_and_the_next_request_starts_another(
    thinker: ProcessThinker, answers: queue.SimpleQueue[Any]
) -> None:
    thinker.ask(_request(1, [], level=5))
    process = thinker._process
    assert process is not None
    process.kill()
    got = answers.get(timeout=WAIT)
    assert isinstance(got, ComputerFailed) and got.id == 1
    assert "its process stopped" in got.reason
    thinker.ask(_request(2, [], level=1))
    assert isinstance(answers.get(timeout=WAIT), ComputerMoved)
    assert thinker.started == 2


def test_a_process_that_never_answers_is_stopped_and_reported(
    answers: queue.SimpleQueue[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    import boardctl.daemon.thinker as module

    monkeypatch.setattr(module, "GRACE", 0.2)
    hang = [sys.executable, "-c", "import time; time.sleep(60)"]
    with ProcessThinker(answers.put, max_seconds=0.3, command=hang) as t:
        t.ask(_request(1, []))
        got = answers.get(timeout=WAIT)
    assert isinstance(got, ComputerFailed)
    assert "thought longer than" in got.reason


def test_a_process_that_cannot_start_is_a_failure(answers: queue.SimpleQueue[Any]) -> None:
    with ProcessThinker(answers.put, command=["/nonexistent/python"]) as t:
        t.ask(_request(1, []))
        got = answers.get(timeout=WAIT)
    assert isinstance(got, ComputerFailed) and "could not be started" in got.reason


def test_the_worker_answers_bad_requests_with_an_error_and_goes_on() -> None:
    good = {
        "id": 3,
        "game": "bidiline",
        "options": {},
        "state": create("bidiline").state_to_json(create("bidiline").initial()),
        "level": 1,
        "seed": 1,
        "ply": 0,
    }
    lines = [
        "not json\n",
        "[1, 2]\n",
        json.dumps({"id": 1, "game": "nosuchgame", "state": {}, "level": 1}) + "\n",
        "x" * (MAX_LINE + 10) + "\n",
        json.dumps(good) + "\n",
    ]
    out = io.StringIO()
    serve(io.StringIO("".join(lines)), out)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [("error" in r) for r in replies] == [True, True, True, True, False]
    assert "nosuchgame" in replies[2]["error"]
    assert replies[4]["id"] == 3 and replies[4]["actions"]


def test_only_the_position_the_seat_may_know_leaves_the_daemon() -> None:
    """The daemon sends the thinking process the position with every other
    player's secret drawn again: two games that differ in the other player's
    card send the same position."""
    from test_computer_secrets import SecretDice

    engine = SecretDice()
    state = engine.apply(engine.initial(), engine.parse_action("deal:0"))
    a = engine.apply(state, engine.parse_action("deal:2"))
    b = engine.apply(state, engine.parse_action("deal:1"))
    assert a != b
    seen_a = hidden(engine, a, 0, 5, 2, 0)
    seen_b = hidden(engine, b, 0, 5, 2, 0)
    assert seen_a == seen_b
    assert engine.private_view(seen_a, 0) == engine.private_view(a, 0), "its own card is kept"


@pytest.mark.parametrize(
    "answer",
    [
        '{"id": 1, "actions": ["W3"], "seconds": "soon"}',
        '{"id": 1, "actions": []}',
        '{"id": 1, "actions": [3]}',
        '{"id": 1, "error": "out of memory"}',
    ],
)
def test_an_answer_that_is_not_a_move_is_a_failure_not_a_board_thinking_forever(
    answers: queue.SimpleQueue[Any], answer: str
) -> None:
    script = f"import sys; sys.stdin.readline(); print({answer!r}, flush=True); sys.stdin.read()"
    with ProcessThinker(answers.put, command=[sys.executable, "-c", script]) as t:
        t.ask(_request(1, []))
        got = answers.get(timeout=WAIT)
    assert isinstance(got, ComputerFailed) and got.id == 1


def test_a_level_written_with_other_digits_is_refused_in_words() -> None:
    from boardctl.seats import SeatError, Seats

    for text in ("computer:³", "computer:٣", "computer:0", "computer:6", "robot"):
        with pytest.raises(SeatError, match="seat"):
            Seats.from_str(text)
