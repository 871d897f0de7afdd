"""The computer's seat through the controller, with the thinking scripted: what
the board shows while it thinks and once it has chosen, that the board then
takes only its move (at the visitor's pace, and with a quick reply), another
move, undo, a new game while it thinks, and a thinker that fails."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from controller_support import Table, profile_for

from boardctl.controller.machine import Controller, ControllerError
from boardctl.controller.opponent import ComputerFailed, ComputerMoved, Think
from boardctl.controller.scenes import Palette, render, scale
from boardctl.controller.store import Store
from boardctl.controller.view import Phase
from boardctl.daemon.chance import RandomChance
from boardctl.engines import create
from boardctl.records import GameRecord
from boardctl.seats import Seats
from boardctl.sim import hands


class ScriptedThinker:
    """Keeps the requests; a test answers them when it likes, with the
    ``pick``-th legal action not excluded, then (while the same seat acts)
    the first legal action."""

    def __init__(self) -> None:
        self.asked: list[Think] = []
        self.cancelled = 0

    def ask(self, request: Think) -> None:
        self.asked.append(request)

    def cancel(self) -> None:
        self.cancelled += 1

    @staticmethod
    def turn(request: Think, pick: int = 0) -> tuple[str, ...]:
        engine, state = request.engine, request.state
        first = [
            a for a in engine.legal_actions(state) if engine.format_action(a) not in request.exclude
        ][pick]
        actions = [first]
        state = engine.apply(state, first)
        while engine.actor(state) == request.seat and not engine.outcome(state).over:
            action = next(iter(engine.legal_actions(state)))
            actions.append(action)
            state = engine.apply(state, action)
        return tuple(engine.format_action(a) for a in actions)

    def answer(self, table: Table, pick: int = 0) -> tuple[str, ...]:
        request = self.asked[-1]
        turn = self.turn(request, pick)
        table.controller.computer_answered(ComputerMoved(request.id, turn), table.now)
        return turn


SEEDS = itertools.count(1000)


def _controller(game: str, seats: str, **kwargs: Any) -> tuple[Controller, ScriptedThinker]:
    engine = create(game)
    thinker = ScriptedThinker()
    c = Controller(
        profile_for(engine),
        seats=Seats.from_str(seats),
        thinker=thinker,
        seeds=lambda: next(SEEDS),
        **kwargs,
    )
    return c, thinker


def _make(table: Table, text: str) -> None:
    """Hands make the action ``text`` on the board, then let it settle."""
    c = table.controller
    engine, state = c.engine, c.match.state
    action = engine.parse_action(text)
    after = table.profile.projected_layout(engine.layout(engine.apply(state, action)))
    table.apply(_changes(table, engine, state, action, after))
    table.settle()


def _changes(table: Table, engine: Any, state: Any, action: Any, after: Any) -> list[Any]:
    from controller_support import through_track

    track = through_track(engine, state, action)
    if track is not None:
        piece = engine.layout(engine.apply(state, action))[track.path[0]]
        return hands.insert(engine.board(), table.layout, track.name, piece)
    lifts = [hands.Change(s, after.get(s)) for s in sorted(table.layout) if s not in after]
    puts = [hands.Change(s, p) for s, p in sorted(after.items()) if table.layout.get(s) != p]
    return lifts + puts


def _shade_of(led: tuple[int, int, int], colour: tuple[int, int, int]) -> bool:
    """Whether ``led`` is ``colour`` dimmed (within rounding)."""
    if max(led) == 0:
        return False
    f = max(led) / max(colour)
    return all(abs(a - b * f) <= 2 for a, b in zip(led, colour, strict=True))


def _colour_of(c: Controller, site: str, now: float) -> tuple[int, int, int]:
    frame = render(c.view(), c.profile, Palette(), now)
    return frame[c.profile.site(site).leds[0]]


def test_the_computer_thinks_then_shows_its_move_in_its_colour_and_takes_only_it() -> None:
    c, thinker = _controller("shiftago", "hands,computer:2")
    table = Table(c)
    table.settle()
    assert not thinker.asked, "hands play seat 1: nothing to think about yet"
    _make(table, "W3")
    assert len(thinker.asked) == 1
    request = thinker.asked[0]
    assert (request.seat, request.level, request.ply, request.attempt) == (1, 2, 1, 0)
    status = c.status()
    assert status["computer"] == {"seat": 1, "level": 2, "doing": "thinking", "moves": []}
    assert status["seats"] == ["hands", "computer:2"]
    # while it thinks a light runs round the board in its colour (frames differ)
    blue = Palette().player(1)
    frames = {render(c.view(), c.profile, Palette(), table.now + t / 10) for t in range(8)}
    assert len(frames) > 1
    assert any(_shade_of(led, blue) and max(led) > 120 for f in frames for led in f)
    (move,) = thinker.answer(table)
    status = c.status()
    assert status["computer"]["doing"] == "ready"
    assert status["computer"]["moves"] == [move]
    track = move  # a Shiftago insertion is named by its track
    lit = {_colour_of(c, track, table.now + t / 10) for t in range(12)}
    assert len(lit) > 1 and all(max(x) > 0 for x in lit), "the track breathes"
    assert all(_shade_of(col, blue) for col in lit), "in the computer's colour (sky blue)"
    others = [s for s in c.engine.sites() if s[0] in "NSEW" and s not in (track, "W3")]
    assert {_colour_of(c, s, table.now) for s in others} == {scale(blue, 0.2)}, (
        "no other track is offered: only the tint of whose turn it is"
    )
    # another legal insertion is a wrong board, with what to fix lit
    other = next(
        c.engine.format_action(a)
        for a in c.engine.legal_actions(c.match.state)
        if c.engine.format_action(a) != move
    )
    before = dict(table.layout)
    _make(table, other)
    table.wait(c.timing.grace)
    assert c.state is Phase.WRONG_BOARD
    assert c.match.moves_text() == ["W3"]
    wrong = c.status()
    assert wrong["offending"] or wrong["restore"]
    # put right, then made as shown
    table.apply(
        [
            hands.Change(s, before.get(s))
            for s in sorted(set(before) | set(table.layout))
            if before.get(s) != table.layout.get(s)
        ]
    )
    table.settle()
    assert c.state is Phase.AWAITING_MOVE
    _make(table, move)
    assert c.match.moves_text() == ["W3", move]
    assert "computer" not in c.status(), "the visitor's turn again"


def test_a_reply_made_before_the_board_settles_on_the_computers_move_is_read_with_it() -> None:
    c, thinker = _controller("shiftago", "hands,computer:3")
    table = Table(c)
    table.settle()
    _make(table, "W3")
    (move,) = thinker.answer(table)
    engine = c.engine
    after = engine.apply(c.match.state, engine.parse_action(move))
    reply = next(
        engine.format_action(a)
        for a in engine.legal_actions(after)
        if engine.format_action(a) not in (move,) and not engine.format_action(a).startswith("W")
    )
    # the computer's move, then at once the visitor's reply: no settling between
    state = c.match.state
    first = _changes(
        table,
        engine,
        state,
        engine.parse_action(move),
        table.profile.projected_layout(engine.layout(after)),
    )
    table.apply(first)
    second_after = engine.apply(after, engine.parse_action(reply))
    table.apply(
        _changes(
            table,
            engine,
            after,
            engine.parse_action(reply),
            table.profile.projected_layout(engine.layout(second_after)),
        )
    )
    table.settle()
    assert c.match.moves_text() == ["W3", move, reply]


def test_another_move_is_asked_for_by_the_button_and_never_the_same_again() -> None:
    c, thinker = _controller("shiftago", "computer:1")
    table = Table(c)
    table.settle()
    assert len(thinker.asked) == 1, "the computer plays seat 1: it thinks at once"
    (first,) = thinker.answer(table)
    c.button("choose", table.now)
    assert len(thinker.asked) == 2
    again = thinker.asked[-1]
    assert (again.attempt, again.exclude) == (1, (first,))
    assert c.status()["computer"]["doing"] == "thinking"
    (second,) = thinker.answer(table)
    assert second != first
    assert c.another(table.now) == second
    assert thinker.asked[-1].exclude == (first, second)
    (third,) = thinker.answer(table)
    _make(table, third)
    assert c.match.moves_text() == [third]


def test_undo_takes_back_the_computers_move_with_the_visitors_before_it() -> None:
    c, thinker = _controller("shiftago", "hands,computer:3")
    table = Table(c)
    table.settle()
    _make(table, "W3")
    (move,) = thinker.answer(table)
    _make(table, move)
    assert c.match.moves_text() == ["W3", move]
    c.undo(table.now)
    assert c.match.moves_text() == []
    assert c.match.to_move() == 0


def test_undo_while_the_computer_thinks_stops_it_and_a_late_answer_is_dropped() -> None:
    c, thinker = _controller("shiftago", "hands,computer:3")
    table = Table(c)
    table.settle()
    _make(table, "W3")
    request = thinker.asked[-1]
    c.undo(table.now)
    assert c.match.moves_text() == []
    assert thinker.cancelled == 1
    late = ScriptedThinker.turn(request)
    c.computer_answered(ComputerMoved(request.id, late), table.now)
    assert "computer" not in c.status(), "the answer to a position left behind is dropped"


def test_a_new_game_while_the_computer_thinks_stops_the_thinking() -> None:
    c, thinker = _controller("shiftago", "hands,computer:3")
    table = Table(c)
    table.settle()
    _make(table, "W3")
    request = thinker.asked[-1]
    c.new(None, None, table.now)
    assert thinker.cancelled == 1
    c.computer_answered(ComputerMoved(request.id, ScriptedThinker.turn(request)), table.now)
    assert c.match.moves_text() == []
    assert c.seats.any_computer, "the next game keeps the seats"
    c.new(None, None, table.now, Seats())
    assert not c.seats.any_computer


def test_a_computer_that_fails_is_shown_as_such_and_asked_again() -> None:
    c, thinker = _controller("shiftago", "computer:2")
    table = Table(c)
    table.settle()
    request = thinker.asked[-1]
    c.computer_answered(
        ComputerFailed(request.id, "its process stopped (exit status -9)"), table.now
    )
    status = c.status()
    assert status["computer"]["doing"] == "failed"
    assert status["fault_kind"] == "computer"
    assert "exit status -9" in status["fault"]
    frames = {render(c.view(), c.profile, Palette(), table.now + t / 4) for t in range(4)}
    assert len(frames) > 1, "the failure blinks"
    asked = len(thinker.asked)
    table.wait(c.timing.retry_think + 0.1)
    assert len(thinker.asked) == asked + 1, "asked again after the retry time"
    thinker.answer(table)
    assert c.status()["computer"]["doing"] == "ready"
    assert "fault" not in c.status()


def test_telling_an_action_for_the_computer_is_refused() -> None:
    c, _ = _controller("shiftago", "computer:2")
    table = Table(c)
    table.settle()
    with pytest.raises(ControllerError, match="the computer plays this turn"):
        c.play("W3", table.now)


def test_seats_that_do_not_fit_the_game_are_refused() -> None:
    with pytest.raises(ControllerError, match="has 2 players"):
        _controller("shiftago", "hands,computer:2,computer:3")
    engine = create("shiftago")
    with pytest.raises(ControllerError, match="no computer player"):
        Controller(profile_for(engine), seats=Seats.from_str("computer:2"))


def test_a_seat_of_hands_more_than_the_game_has_is_refused_not_dropped() -> None:
    """A third seat for a game of two is a mistake of the one who wrote it,
    hands or not: it is named, not left out without a word."""
    with pytest.raises(ControllerError, match=r"'hands,computer:2,hands' name 3 seats.*2 players"):
        _controller("shiftago", "hands,computer:2,hands")
    # the hands listed last within the game's seats are still the default
    assert Seats.from_str("computer:2,hands") == Seats.from_str("computer:2")


def test_the_computers_whole_turn_of_two_actions_is_shown_and_taken_made_at_once() -> None:
    c, thinker = _controller("duploline", "hands,computer:3")
    table = Table(c)
    table.settle()
    engine = c.engine
    opening = engine.format_action(next(iter(engine.legal_actions(c.match.state))))
    _make(table, opening)
    turn = thinker.answer(table)
    assert len(turn) == 2, "a disc action and a ring action"
    status = c.status()
    assert status["computer"]["moves"] == list(turn)
    first, second = (engine.parse_action(t) for t in turn)
    state = c.match.state
    mid = engine.apply(state, first)
    end = engine.apply(mid, second)
    after = table.profile.projected_layout(engine.layout(end))
    table.apply(_changes(table, engine, state, first, after))
    table.settle()
    assert c.match.moves_text() == [opening, *turn]


def test_the_computers_two_pieces_put_down_at_once_are_read_in_the_order_it_chose() -> None:
    """A Beeline MARK and, on the cell it points at, a NODE of its colour: in
    that order the NODE continues the line; the NODE first, the line runs
    into it (rule 7 tells them apart). The board shows the same either way,
    and the computer chose the first."""
    c, thinker = _controller("beeline", "hands,computer:3")
    table = Table(c)
    engine = c.engine
    start = table.profile.projected_layout(engine.layout(c.match.state))
    table.apply([hands.Change(s, p) for s, p in sorted(start.items())])
    table.settle()
    _make(table, "Sc4nw")
    request = thinker.asked[-1]
    turn = ("Sl11e", "NRl12")
    state = c.match.state
    planned = engine.apply(
        engine.apply(state, engine.parse_action(turn[0])), engine.parse_action(turn[1])
    )
    other = engine.apply(
        engine.apply(state, engine.parse_action(turn[1])), engine.parse_action(turn[0])
    )
    assert planned != other and engine.layout(planned) == engine.layout(other)
    c.computer_answered(ComputerMoved(request.id, turn), table.now)
    after = table.profile.projected_layout(engine.layout(planned))
    table.apply(_changes(table, engine, state, engine.parse_action(turn[0]), after))
    table.settle()
    assert c.state is Phase.AWAITING_MOVE, c.status().get("choices")
    assert c.match.moves_text() == ["Sc4nw", *turn]
    assert c.match.state == planned


def test_the_record_names_the_computers_seat_level_seed_and_plans(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        c, thinker = _controller("shiftago", "hands,computer:4", recorder=store)
        table = Table(c)
        table.settle()
        _make(table, "W3")
        thinker.answer(table)
        c.another(table.now)
        (move,) = thinker.answer(table)
        _make(table, move)
        record = store.record_of(1)
        seats, plans = store.seats(), store.plans(1)
    assert record["seats"][0] == {"player": "hands"}
    assert record["seats"][1]["player"] == "computer"
    assert record["seats"][1]["level"] == 4
    assert isinstance(record["seats"][1]["seed"], int)
    first = thinker.asked[1].exclude[0]
    assert record["plans"] == {"2": [first]}, "move 2 began the computer's turn, after another"
    parsed = GameRecord.from_json(record)
    assert parsed.seats == seats and dict(parsed.plans) == {1: (first,)}
    assert plans == {1: (first,)}
    assert GameRecord.from_json(parsed.to_json()) == parsed


def test_the_computer_is_not_seated_in_a_game_whose_engine_gives_it_no_evaluation() -> None:
    from tiny_games import TinyDice

    from boardctl.controller.opponent import unplayable

    assert "gives no evaluation" in (unplayable(TinyDice()) or "")
    linie1 = create("linie1")
    assert "with the line and route cards on the table" in (unplayable(linie1) or "")


def test_linie1_with_the_cards_on_the_table_deals_the_computers_own_and_no_one_elses() -> None:
    c, _ = _controller("linie1", "hands,computer:1")
    assert c.engine.options_json()["dealt_to"] == "2"
    assert c.engine.task(c.match.state) == "deal a line card to player 2"
    # the computer in the first seat is dealt that seat's
    c, _ = _controller("linie1", "computer:1,hands")
    assert c.engine.options_json()["dealt_to"] == "1"
    # and every seat by hands: every card on the table
    c, _ = _controller("linie1", "hands,hands")
    assert c.engine.options_json()["dealt_to"] == ""
    assert c.engine.task(c.match.state) == "lay two tiles or start the trip"


def _beside_the_computer_on_a_line(clash: bool) -> tuple[Controller, Table, int, int]:
    """Linie 1, a person beside the computer, its cards on the table: the
    controller, its table, the line dealt the computer, and the line the
    person drew (the computer's on a ``clash``, else another)."""
    c, _ = _controller("linie1", "hands,computer:1", chance=RandomChance(random.Random(20)))
    table = Table(c)
    table.settle()
    dealt = int(c.engine.private_view(c.match.state, 1)["line"])
    return c, table, dealt, dealt if clash else dealt % 6 + 1


def test_linie1_a_person_who_drew_the_computers_line_card_starts_their_trip_as_any_other() -> None:
    """With the cards on the table the person draws their line card from the
    table, and it may be the one the game dealt the computer: telling their
    start (`boardctl play`) is taken, and nothing the room sees tells that
    it was the computer's (before it, the LEDs light every line's terminals);
    the computer's line is dealt again, privately."""
    for clash in (True, False):
        c, table, dealt, line = _beside_the_computer_on_a_line(clash)
        # the LEDs light where the person may lay and start: every line's
        # terminals alike, the computer's among them
        lit = c.view().legal
        assert {f"t{n}{end}" for n in range(1, 7) for end in "ab"} <= lit, sorted(lit)
        assert c.play(f"start:t{line}a/B2", table.now) == f"start:t{line}a/B2"
        status = c.status()
        assert status["moves"][-1] == f"start:t{line}a/B2"
        assert status["position"]["lines"] == [line, None]
        assert "refused" not in json.dumps(status) and "dealt" not in str(status.get("fault"))
        mine = int(c.engine.private_view(c.match.state, 1)["line"])
        assert (mine != dealt) is clash and mine != line


def test_linie1_beside_the_computer_a_streetcar_set_in_is_answered_with_every_start_to_tell() -> (
    None
):
    """A person sets their streetcar in a terminal, their cards on the table:
    the board names the starts they may tell there, every route card alike,
    and the same whether that terminal's line is the one the game dealt the
    computer or not (before, beside the computer it named none)."""
    for clash in (True, False):
        c, table, _, line = _beside_the_computer_on_a_line(clash)
        table.hands(f"place t{line}a car{line}")
        table.wait(c.timing.grace + 0.5)
        assert c.state is Phase.WRONG_BOARD
        assert c.status()["to_tell"] == [f"start:t{line}a/B{n}" for n in range(1, 7)]
    # a tile told where it cannot go is refused with the rules' reason, as without the computer
    with pytest.raises(ControllerError, match="a rail would lead off the board"):
        c.play("a1:1N", table.now)


def test_a_configuration_that_seats_the_computer_where_it_cannot_play_names_the_line(
    tmp_path: Path,
) -> None:
    from boardctl import config
    from boardctl.errors import ConfigError
    from hardware.profiles import load_profile

    path = tmp_path / "boardctl.toml"
    path.write_text('[board]\nprofile = "linie1"\n\n[game]\nseats = "computer:2"\n')
    # Linie 1 with its cards on the table: the game deals the computer's own
    config.load(path).check_board(load_profile("linie1"))
    path.write_text('[game]\nseats = "hands,computer:9"\n')
    with pytest.raises(ConfigError, match=r"boardctl.toml:2: \[game\] seats: .*1 to 5"):
        config.load(path)


#: a Shiftago Expert game where the computer (red) has a line to make and score
EXPERT = ["Ng", "E6", "Nd", "E7", "W2", "E2", "Sc", "Sb", "E6", "Ne", "Nf", "E3", "Sb", "E5"]
EXPERT += ["Se", "W7", "Sc", "W5", "E3", "W5", "Nd", "W4", "Sf", "Ne", "E2", "Sd", "Nb", "Ne"]
EXPERT += ["Sf", "W5", "E3"]


def test_the_computers_insertion_and_the_line_it_scores_are_shown_and_made_as_one_turn() -> None:
    options = {"variant": "expert"}
    c, thinker = _controller(
        "shiftago",
        "hands,computer:3",
        options=options,
        resume=("shiftago", options, list(EXPERT)),
        resume_seats=Seats.from_str("hands,computer:3").seeded(lambda: 1),
    )
    table = Table(c)
    engine = c.engine
    start = table.profile.projected_layout(engine.layout(c.match.state))
    table.apply([hands.Change(s, p) for s, p in sorted(start.items())])
    table.settle()
    assert c.state is Phase.AWAITING_MOVE
    turn = ("W5", "x:a5-g5")
    request = thinker.asked[-1]
    c.computer_answered(ComputerMoved(request.id, turn), table.now)
    status = c.status()
    assert status["computer"]["moves"] == list(turn)
    # the visitor pushes the marble in: the score is still the computer's to make
    _make(table, "W5")
    assert c.match.moves_text()[-1] == "W5"
    assert c.state is Phase.CHOOSING
    assert c.status()["choices"] == ["x:a5-g5"], "only the computer's line is offered"
    assert c.status()["computer"]["moves"] == ["x:a5-g5"]
    _make(table, "x:a5-g5")
    assert c.match.moves_text()[-2:] == list(turn)


def test_a_game_resumed_after_a_restart_keeps_its_computer_and_its_seed(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        c, thinker = _controller("shiftago", "hands,computer:4", recorder=store)
        table = Table(c)
        table.settle()
        _make(table, "W3")
        before = thinker.asked[-1]
    # the power comes back: the daemon resumes the game from the store
    with Store(tmp_path / "g.db") as store:
        resume = store.current()
        assert resume is not None
        again, thinker2 = _controller(
            "shiftago", "", recorder=store, resume=resume, resume_seats=store.seats()
        )
        table = Table(again)
        layout = table.profile.projected_layout(again.engine.layout(again.match.state))
        table.apply([hands.Change(s, p) for s, p in sorted(layout.items())])
        table.settle()
        after = thinker2.asked[-1]
    assert str(again.seats) == "hands,computer:4"
    assert (after.seed, after.ply, after.level) == (before.seed, before.ply, before.level)


class RealThinker(ScriptedThinker):
    """Answers as the daemon's thinking process would (the same seeding)."""

    @staticmethod
    def turn(request: Think, pick: int = 0) -> tuple[str, ...]:
        from boardctl.daemon.thinking import turn_at

        return turn_at(
            request.engine,
            request.state,
            level=request.level,
            seed=request.seed,
            ply=request.ply,
            exclude=request.exclude,
        )


def _duploline_turn(pick_both_orders: bool = True) -> tuple[Controller, ScriptedThinker, Table]:
    """A DuploLine game whose computer (seat 2) shows a turn of two actions
    that may be made in either order."""
    c, thinker = _controller("duploline", "hands,computer:3")
    table = Table(c)
    table.settle()
    _make(table, "D+d4")
    request = thinker.asked[-1]
    engine = request.engine
    for pick in range(40):
        second = engine.parse_action(ScriptedThinker.turn(request, pick)[1])
        if not pick_both_orders or engine.why_illegal(request.state, second) is None:
            break
    thinker.answer(table, pick)
    return c, thinker, table


def test_the_computers_two_actions_are_taken_one_at_a_time_in_either_order() -> None:
    for reverse in (False, True):
        c, _, table = _duploline_turn()
        turn = c.status()["computer"]["moves"]
        made = list(reversed(turn)) if reverse else list(turn)
        _make(table, made[0])
        assert c.state is Phase.AWAITING_MOVE, (reverse, c.status().get("offending"))
        assert c.status()["computer"]["moves"] == [made[1]], "what is left of its move"
        table.wait(c.timing.grace)
        assert c.state is Phase.AWAITING_MOVE, "no part of the computer's move is a mistake"
        _make(table, made[1])
        assert c.match.moves_text() == ["D+d4", *made]
        assert "computer" not in c.status()


def test_a_second_computer_seat_chooses_its_own_move() -> None:
    c, thinker = _controller("shiftago", "computer:1,computer:2")
    table = Table(c)
    table.settle()
    (move,) = thinker.answer(table)
    engine, state = c.engine, c.match.state
    after = engine.apply(state, engine.parse_action(move))
    other = engine.format_action(list(engine.legal_actions(after))[5])
    # the computer's move made, and at once a move for the second computer: not taken
    table.apply(
        _changes(
            table,
            engine,
            state,
            engine.parse_action(move),
            table.profile.projected_layout(engine.layout(after)),
        )
    )
    end = engine.apply(after, engine.parse_action(other))
    table.apply(
        _changes(
            table,
            engine,
            after,
            engine.parse_action(other),
            table.profile.projected_layout(engine.layout(end)),
        )
    )
    table.wait(c.timing.in_progress + 0.1)
    assert c.state is Phase.WRONG_BOARD, "the second seat's move was never the computer's"
    assert c.match.moves_text() == []
    # the extra marble taken back out: the first computer's move alone is read
    made = table.profile.projected_layout(engine.layout(after))
    table.apply(
        [
            hands.Change(s, made.get(s))
            for s in sorted(set(made) | set(table.layout))
            if made.get(s) != table.layout.get(s)
        ]
    )
    table.settle()
    assert c.match.moves_text() == [move]
    assert c.status()["computer"] == {"seat": 1, "level": 2, "doing": "thinking", "moves": []}


def test_a_computers_move_taken_back_on_the_board_is_shown_again_not_another() -> None:
    c, thinker = _controller("shiftago", "hands,computer:3")
    table = Table(c)
    table.settle()
    _make(table, "W3")
    before = dict(table.layout)
    (move,) = thinker.answer(table)
    _make(table, move)
    assert c.match.moves_text() == ["W3", move]
    table.apply(
        [
            hands.Change(s, before.get(s))
            for s in sorted(set(before) | set(table.layout))
            if before.get(s) != table.layout.get(s)
        ]
    )
    table.settle()
    table.wait(c.timing.takeback_hold + 0.1)
    assert c.match.moves_text() == ["W3"]
    again = thinker.asked[-1]
    assert (again.attempt, again.exclude) == (0, ()), "nobody asked for another move"


def test_a_failure_does_not_hold_back_a_new_position() -> None:
    c, thinker = _controller("shiftago", "hands,computer:3")
    table = Table(c)
    table.settle()
    _make(table, "W3")
    c.computer_answered(ComputerFailed(thinker.asked[-1].id, "its process stopped"), table.now)
    assert c.status()["computer"]["doing"] == "failed"
    c.undo(table.now)
    table.apply([hands.Change("a3", None)])
    table.settle()
    asked = len(thinker.asked)
    _make(table, "E5")
    assert len(thinker.asked) == asked + 1, "a new position is asked for at once"
    assert c.status()["computer"]["doing"] == "thinking"


def test_a_restart_halfway_through_the_computers_turn_shows_the_rest_of_the_same_turn(
    tmp_path: Path,
) -> None:
    with Store(tmp_path / "g.db") as store:
        engine = create("duploline")
        thinker = RealThinker()
        c = Controller(
            profile_for(engine),
            seats=Seats.from_str("hands,computer:2"),
            thinker=thinker,
            seeds=lambda: 11,
            recorder=store,
        )
        table = Table(c)
        table.settle()
        _make(table, "D+d4")
        turn = thinker.answer(table)
        assert len(turn) == 2
        _make(table, turn[0])
    with Store(tmp_path / "g.db") as store:
        again, thinker2, table = _restarted(store, engine)
        assert thinker2.asked[-1].ply == 1, "asked from where its turn began"
        thinker2.answer(table)
        assert again.status()["computer"]["moves"] == [turn[1]], "the rest of the turn shown"


def _restarted(store: Store, engine: Any) -> tuple[Controller, RealThinker, Table]:
    """The controller after a restart, resuming the store's game, its
    pieces on the board as they were."""
    thinker = RealThinker()
    resume = store.current()
    assert resume is not None
    c = Controller(
        profile_for(engine),
        thinker=thinker,
        seeds=lambda: 99,
        recorder=store,
        resume=resume,
        resume_seats=store.seats(),
        resume_plans=store.resume_plans(),
    )
    table = Table(c)
    layout = table.profile.projected_layout(engine.layout(c.match.state))
    table.apply([hands.Change(s, p) for s, p in sorted(layout.items())])
    table.settle()
    return c, thinker, table


@pytest.mark.parametrize("halfway", [False, True], ids=["turn-start", "halfway"])
def test_another_move_asked_for_is_kept_across_a_restart(tmp_path: Path, halfway: bool) -> None:
    engine = create("duploline")
    with Store(tmp_path / "g.db") as store:
        thinker = RealThinker()
        c = Controller(
            profile_for(engine),
            seats=Seats.from_str("hands,computer:2"),
            thinker=thinker,
            seeds=lambda: 7,
            recorder=store,
        )
        table = Table(c)
        table.settle()
        _make(table, "D+d4")
        turn = thinker.answer(table)
        if halfway:
            _make(table, turn[0])
        c.another(table.now)
        instead = thinker.answer(table)
        assert c.status()["computer"]["moves"] == list(instead) != list(turn[halfway:])
    with Store(tmp_path / "g.db") as store:
        again, thinker2, table = _restarted(store, engine)
        thinker2.answer(table)
        assert again.status()["computer"]["moves"] == list(instead), "the move asked for instead"
        for move in instead:
            _make(table, move)
        record = GameRecord.from_json(store.record_of(1))
    given_up = (turn[1],) if halfway else (turn[0],)
    assert dict(record.plans)[2 if halfway else 1] == given_up


def test_another_move_halfway_through_a_turn_replays_exactly(tmp_path: Path) -> None:
    from boardctl.daemon.thinking import rethink

    with Store(tmp_path / "g.db") as store:
        engine = create("duploline")
        thinker = RealThinker()
        c = Controller(
            profile_for(engine),
            seats=Seats.from_str("hands,computer:2"),
            thinker=thinker,
            seeds=lambda: 7,
            recorder=store,
        )
        table = Table(c)
        table.settle()
        _make(table, "D+d4")
        turn = thinker.answer(table)
        _make(table, turn[0])
        given_up = c.another(table.now)
        assert given_up == turn[1]
        (rest,) = thinker.answer(table)
        assert rest != turn[1]
        _make(table, rest)
        record = GameRecord.from_json(store.record_of(1))
    assert dict(record.plans) == {1: (), 2: (turn[1],)}
    turns = rethink(record)
    assert [t.same for t in turns] == [True, True]
    assert turns[0].cut and turns[0].recorded == (turn[0],)


def test_a_pass_of_the_computer_no_board_can_show_is_played_at_once() -> None:
    """Linie 1 on a small board, the cards dealt: the computer starts its
    trip on a route that is not complete (caught: no streetcar goes on the
    board) and no tile in its hand fits, so it passes. No board shows either
    and no person may tell the computer's move: the controller plays them as
    soon as they are shown."""
    import json
    from pathlib import Path

    record = Path(__file__).parent / "records" / "linie1"
    small = json.loads(
        (record / "pass_when_nothing_fits_then_trip_wins_without_exact_count.json").read_text()
    )
    options = {"board_data": small["options"]["board_data"], "secrets": "dealt"}
    deals = ["deal:L1", "deal:L2", "deal:X1", "deal:X2"]
    moves = [m for m in small["moves"] if not m.startswith("start:")]
    moves = [*deals, *moves[: moves.index("roll:H")], "start:t1a", "roll:H", ">a1-b1-c1"]
    engine = create("linie1", options)
    thinker = ScriptedThinker()
    c = Controller(
        profile_for(engine),
        options=options,
        resume=("linie1", options, moves),
        seats=Seats.from_str("hands,computer:1"),
        resume_seats=Seats.from_str("hands,computer:1").seeded(lambda: 1),
        thinker=thinker,
        seeds=lambda: next(SEEDS),
    )
    table = Table(c)
    start = table.profile.projected_layout(engine.layout(c.match.state))
    table.apply([hands.Change(s, p) for s, p in sorted(start.items())])
    table.settle()
    assert c.state is Phase.AWAITING_MOVE and c.status()["to_move"] == 1
    request = thinker.asked[-1]
    c.computer_answered(ComputerMoved(request.id, ("start:t2a", "pass")), table.now)
    # a start that is caught puts no streetcar on the board: both are told
    assert c.match.moves_text()[-2:] == ["start:t2a", "pass"], c.match.moves_text()
    assert c.status()["to_move"] == 0 and "computer" not in c.status()
    assert c.state is Phase.AWAITING_MOVE
