"""How the levels differ in style, as a player notices it: the weakest judges
by a beginner's glance (its own lines, the sticks counted), and alpha-beta
reads exact sequences that a glance or a short look misses."""

from __future__ import annotations

import random
from typing import Any

from computer_support import play_randomly, winning_actions

from boardctl.computer import level, plan_turn, think
from boardctl.computer.alphabeta import AlphaBeta
from boardctl.computer.levels import Level, Method, Sight
from boardctl.engines import Engine, create

#: Black to play; White (three discs on a3 a4 b3, rings on c5 c6 d4 d6) can
#: finish a line in its next turn unless Black closes it
DUPLOLINE_OPEN_LINE = {
    "cells": {
        "a3": "white-disc",
        "a4": "white-disc",
        "b3": "white-disc",
        "b5": "black-disc+black-ring",
        "c4": "black-disc",
        "c5": "white-ring",
        "c6": "white-ring",
        "d4": "white-ring",
        "d6": "white-ring",
        "e5": "black-disc+white-ring",
        "e6": "white-disc+black-ring",
        "e7": "black-ring",
        "f5": "black-disc+white-ring",
        "f7": "white-disc",
        "g5": "white-disc",
        "g6": "black-ring",
        "g7": "black-disc",
    },
    "in_hand": {"white": {"discs": 12, "rings": 12}, "black": {"discs": 13, "rings": 14}},
    "player": 1,
    "phase": "either",
    "end": "playing",
    "winner": None,
}

#: Blue to play: of five moves only B:b6-a6 wins, five actions deep
BIDILINE_DEEP_WIN = {
    "segments": {
        "d1-e1": "A", "e1-f1": "A", "d1-d2": "A", "c2-d2": "A", "d2-e2": "A", "c2-c3": "A",
        "d2-d3": "A", "e2-e3": "A", "a3-b3": "B", "b3-c3": "B", "c3-d3": "B", "d3-e3": "A",
        "e3-f3": "B", "a3-a4": "B", "c3-c4": "A", "d3-d4": "B", "e3-e4": "B", "f3-f4": "B",
        "a4-b4": "B", "b4-c4": "A", "d4-e4": "B", "f4-f5": "B", "f5-f6": "B", "e6-f6": "B",
        "b6-b7": "B", "e6-e7": "B", "b7-c7": "B", "c7-d7": "B", "d7-e7": "B",
    },
    "ends": {"A": "f1", "B": "b6"},
    "moves": 29,
}  # fmt: skip


def _after_turn(engine: Engine[Any, Any], state: Any, number: int) -> Any:
    for action in plan_turn(engine, state, level(number), random.Random(1)):
        state = engine.apply(state, action)
    return state


def _wins_within_turn(engine: Engine[Any, Any], state: Any) -> bool:
    """The player to act can win with this turn's actions."""
    me = engine.actor(state)
    for action in engine.legal_actions(state):
        after = engine.apply(state, action)
        if engine.actor(after) is None:
            if engine.outcome(after).winner == me:
                return True
        elif engine.actor(after) == me and winning_actions(engine, after):
            return True
    return False


def test_levels_1_and_2_build_their_own_lines_and_leave_yours_open() -> None:
    engine = create("duploline")
    state = engine.state_from_json(DUPLOLINE_OPEN_LINE)
    assert not _wins_within_turn(engine, state)
    for number in (1, 2):
        assert _wins_within_turn(engine, _after_turn(engine, state, number)), number
    for number in (3, 4, 5):
        assert not _wins_within_turn(engine, _after_turn(engine, state, number)), number


def test_the_bidiline_glance_counts_the_sticks_and_does_not_see_the_race() -> None:
    engine = create("bidiline")
    state = engine.state_from_json(BIDILINE_DEEP_WIN)
    blue_sticks = [
        engine.apply(state, a)
        for a in engine.legal_actions(state)
        if a.colour.value == "B" and engine.actor(engine.apply(state, a)) is not None
    ]
    assert len(blue_sticks) > 1
    assert len({engine.glance(after) for after in blue_sticks}) == 1, "a stick is a stick"
    assert len({engine.evaluate(after) for after in blue_sticks}) > 1, "the race differs"
    amber, blue = engine.scores(state) or (0, 0)
    assert (engine.glance(state)[0] > 0.5) == (amber > blue)


def _solve(engine: Engine[Any, Any], state: Any, seat: int, depth: int) -> float | None:
    """The exact value for ``seat`` within ``depth`` actions, None if unknown."""
    actor = engine.actor(state)
    if actor is None:
        winner = engine.outcome(state).winner
        return 0.5 if winner is None else float(winner == seat)
    if depth == 0:
        return None
    values = [
        _solve(engine, engine.apply(state, a), seat, depth - 1) for a in engine.legal_actions(state)
    ]
    sure = [v for v in values if v is not None]
    if actor == seat:
        return 1.0 if 1.0 in sure else (max(sure) if len(sure) == len(values) else None)
    return 0.0 if 0.0 in sure else (min(sure) if len(sure) == len(values) else None)


def test_alphabeta_finds_the_only_win_five_actions_deep() -> None:
    engine = create("bidiline")
    state = engine.state_from_json(BIDILINE_DEEP_WIN)
    seat = engine.actor(state)
    actions = list(engine.legal_actions(state))
    winning = [a for a in actions if _solve(engine, engine.apply(state, a), seat, 4) == 1.0]
    assert len(winning) == 1 < len(actions), "one move of several wins"
    assert not winning_actions(engine, state), "not a win in one"
    search = AlphaBeta(engine, state, seat, actions, random.Random(3))
    search.run(2_000)
    action, value = search.best()
    assert action == winning[0]
    assert value > 0.99, "a sure win"
    assert search.nodes <= 2_000


def test_alphabeta_spends_no_more_than_its_budget_and_stops_when_asked() -> None:
    engine = create("duploline")
    state = play_randomly(engine, random.Random(4), 14)
    seat = engine.actor(state)
    actions = list(engine.legal_actions(state))
    search = AlphaBeta(engine, state, seat, actions, random.Random(1))
    search.run(500)
    assert 0 < search.nodes <= 500
    assert search.best()[0] in actions
    asked = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 2

    stopped = AlphaBeta(engine, state, seat, actions, random.Random(1))
    stopped.run(100_000, stop)
    assert stopped.nodes < 100 and stopped.best()[0] in actions


def test_alphabeta_levels_play_alphabeta_only_where_the_game_suits_it() -> None:
    deep = Level(0, "deep", 300, 0.5, "", Sight.FULL, Method.ALPHABETA)
    for game, suits in (("bidiline", True), ("duploline", True), ("shiftago", False)):
        engine = create(game)
        assert deep.alphabeta(engine) is suits
        state = play_randomly(engine, random.Random(2), 6)
        first = think(engine, state, deep, random.Random(5))
        assert first == think(engine, state, deep, random.Random(5)), "the seed decides"
        assert engine.why_illegal(state, first.action) is None


def test_alphabeta_searches_at_most_twice_its_budget_of_positions() -> None:
    """Later rounds walk again through positions valued before, without
    valuing them again: the positions searched are bounded too, so a
    position where many orders of actions meet cannot keep it thinking."""
    engine = create("bidiline")
    state = play_randomly(engine, random.Random(9), 20)
    while engine.actor(state) is None:
        state = play_randomly(engine, random.Random(len(str(state))), 20)
    seat = engine.actor(state)
    search = AlphaBeta(engine, state, seat, list(engine.legal_actions(state)), random.Random(1))
    search.run(300)
    assert search.nodes <= 300
    assert search._searched <= 2 * 300 + 1


def test_alphabeta_bounded_in_depth_misses_a_win_beyond_it() -> None:
    engine = create("bidiline")
    state = engine.state_from_json(BIDILINE_DEEP_WIN)
    seat = engine.actor(state)
    actions = list(engine.legal_actions(state))
    for depth, sure in ((3, False), (4, False), (5, True)):
        search = AlphaBeta(engine, state, seat, actions, random.Random(3), engine.glance, depth)
        search.run(100_000)
        assert search.iterations == depth, "it stops at its depth, not at its budget"
        assert (search.best()[1] > 0.99) is sure, depth


def test_bidiline_level_3_finds_a_win_5_actions_deep_that_level_2_misses_and_4_reads_it() -> None:
    bidiline = create("bidiline")
    depths = [level(n).reads(bidiline) for n in range(1, 6)]
    assert depths[0] is None and depths[4] is None, "level 1 looks once, level 5 reads the race"
    assert depths[1] <= depths[2] < depths[3]
    state = bidiline.state_from_json(BIDILINE_DEEP_WIN)
    seat = bidiline.actor(state)
    actions = list(bidiline.legal_actions(state))
    (win,) = [a for a in actions if _solve(bidiline, bidiline.apply(state, a), seat, 4) == 1.0]
    for seed in range(4):
        easy, medium, hard, master = (
            think(bidiline, state, level(n), random.Random(seed)) for n in (2, 3, 4, 5)
        )
        assert easy.action != win, "level 2 counts the sticks: every move looks alike"
        assert medium.action == win, "level 3 sees the blue end one move from a dead end"
        assert hard.action == win and master.action == win
        assert medium.value < 0.99 < hard.value, "level 4 reads the win to its end"
    for game in ("duploline", "shiftago"):
        engine = create(game)
        assert all(level(n).reads(engine) is None for n in range(1, 6)), game
        assert all(level(n).judge(engine) == engine.glance for n in (1, 2)), game
        assert all(level(n).judge(engine) == engine.evaluate for n in (3, 4, 5)), game


def test_bidiline_levels_2_to_4_read_their_whole_depth_from_the_empty_board() -> None:
    # the first stick has the most choices: a budget too small for the depth
    # made levels 3 and 4 open like the level below
    bidiline = create("bidiline")
    empty = bidiline.initial()
    for n in (2, 3, 4):
        thought = think(bidiline, empty, level(n), random.Random(n))
        assert thought.iterations == level(n).reads(bidiline), n
        assert level(n).budget(bidiline) <= level(5).budget(bidiline), "never longer than 5"
