"""A game's secrets never reach the room: two games that differ only in a
hidden card show the same LEDs, the same status, the same simulator screen,
the same log lines, and export the same record while they are unfinished."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from controller_support import Table
from tiny_games import dice_profile, engines

from boardctl.controller.machine import Controller
from boardctl.controller.scenes import Palette, render
from boardctl.controller.store import Store
from boardctl.sim.screen import Layout, compose

#: action number -> the index of the outcome drawn (cards 0..2; faces d1, d2, d3)
ROLLS = {2: 2, 4: 0, 6: 1, 8: 2}


class Script:
    """Chance that deals ``cards`` and then throws the same faces every game."""

    def __init__(self, cards: tuple[int, int]) -> None:
        self.draws = {0: cards[0], 1: cards[1], **ROLLS}

    def new_seed(self) -> int:
        return 1

    def draw(self, seed: int, ply: int, weights: Sequence[int]) -> int:
        return self.draws[ply]


def _game(
    cards: tuple[int, int], db: Path
) -> tuple[list[Any], list[Any], list[str], dict[str, Any]]:
    """Three stones placed; what the room saw after each, and the record exported."""
    profile = dice_profile(secret=True)
    frames, screens, statuses = [], [], []
    with Store(db) as store:
        c = Controller(profile, engines=engines, chance=Script(cards), recorder=store)
        table = Table(c)
        table.settle()
        for cell in ("c2", "c5", "c3"):
            table.hands(f"place {cell} s{c.match.to_move()}")
            status = c.status()
            frame = render(c.view(), profile, Palette(), table.now)
            frames.append(frame)
            statuses.append(status)
            screens.append(compose(status, frame, Layout(profile)))
        record = store.record_of(store.games()[0]["id"])
        full = c.match.moves_text()
    assert full[:2] == [f"deal:{cards[0]}", f"deal:{cards[1]}"]
    return frames, statuses, screens, {"record": record, "moves": full}


def test_two_games_that_differ_only_in_a_secret_look_the_same_to_the_room(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    one = _game((0, 2), tmp_path / "one.db")
    logged_one = [r.getMessage() for r in caplog.records if r.name.startswith("boardctl")]
    caplog.clear()
    two = _game((2, 1), tmp_path / "two.db")
    logged_two = [r.getMessage() for r in caplog.records if r.name.startswith("boardctl")]
    assert one[3]["moves"] != two[3]["moves"], "the games do differ, in the cards"
    assert one[0] == two[0], "LED frames"
    assert one[1] == two[1], "status"
    assert one[2] == two[2], "simulator screens"
    assert logged_one == logged_two and "played deal:?" in logged_one
    assert one[3]["record"]["moves"] == two[3]["record"]["moves"]
    status = one[1][-1]
    assert status["moves"][:2] == ["deal:?", "deal:?"]
    assert "cards" not in status["position"] and "cards" not in status["picture"]
    assert "scores 5 1, die 3" in one[2][-1]  # the public board is on the screen


def test_a_finished_secret_game_keeps_its_whole_record(tmp_path: Path) -> None:
    profile = dice_profile(secret=True)
    with Store(tmp_path / "g.db") as store:
        c = Controller(profile, engines=engines, chance=Script((1, 0)), recorder=store)
        c.chance.draws.update({10: 0, 12: 1})  # type: ignore[union-attr]
        table = Table(c)
        table.settle()
        for cell in ("c1", "c2", "c3", "c4", "c5", "c6"):
            table.hands(f"place {cell} s{c.match.to_move()}")
        assert c.match.outcome().over
        assert store.record_of()["moves"][:2] == ["deal:1", "deal:0"]
