"""The demo games: derived from the rules, with mistakes, played to the end
through the real daemon on the simulated board."""

import io

import pytest

from boardctl.engines import Match, create
from boardctl.sim.console import run_demo
from boardctl.sim.demo import demo_games, script
from boardctl.sim.session import Simulation

#: no amend window: the demo's hands then go on as soon as an action is recorded
FAST = ["controller.grace_ms=300", "controller.settle_ms=80", "controller.amend_ms=0"]


@pytest.mark.parametrize("game", demo_games())
def test_the_scripts_are_legal_games_that_end_with_a_win(game: str) -> None:
    s = script(game)
    match = Match.from_moves(create(s.game, s.options), s.moves)
    assert match.outcome().winner == s.winner
    said = " ".join(step.say for step in s.steps)
    commands = [step.command for step in s.steps]
    assert any("wrong_board" in step.expect.phases for step in s.steps)  # a mistake shown
    assert any("takeback_offered" in step.expect.phases for step in s.steps)
    assert any(c.startswith("lift") for c in commands)
    if game == "shiftago":
        assert "may score a1-e1 or a1-a5" in said  # a choice of lines


@pytest.mark.parametrize("game", demo_games())
def test_the_demo_plays_to_the_winner_through_the_daemon(game: str) -> None:
    s = script(game)
    out = io.StringIO()
    with Simulation(s.game, overrides=[*s.settings, *FAST], options=s.options) as sim:
        assert run_demo(sim, s, delay=0, out=out) == 0
        record = sim.request({"cmd": "export"})["record"]
    text = out.getvalue()
    assert "took back" not in text
    assert "wins" in text.splitlines()[-1]
    # a colour board without light gates records the first of equal insertions
    # (W1 for Sa on an empty corner), so the count is what must match
    assert len(record["moves"]) == len(s.moves)
    assert record["result"]["winner"] == s.winner


def test_a_kept_state_resumes_the_game_with_its_pieces_on_the_board(tmp_path) -> None:
    with Simulation("shiftago", overrides=FAST, state_dir=tmp_path) as sim:
        sim.wait_status(lambda s: s["phase"] == "awaiting_move", 10)
        sim.hands("insert Sb")
        sim.wait_status(lambda s: s["moves"] == ["Sb"], 10)
    with Simulation("shiftago", overrides=FAST, state_dir=tmp_path) as sim:
        assert sim.layout == {"b1": "p0"}
        status = sim.wait_status(lambda s: s["phase"] == "awaiting_move", 10)
        assert status["moves"] == ["Sb"] and status["to_move"] == 1
