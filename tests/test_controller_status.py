"""What ``boardctl status`` prints about the board and the game, read from a
controller through the control socket."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from controller_support import Table, profile_for

from boardctl.cli.main import main
from boardctl.controller.control import ControlServer
from boardctl.controller.machine import Controller, Timing
from boardctl.controller.present import Position, Status
from boardctl.engines import create


def _table(game: str) -> Table:
    engine = create(game)
    return Table(Controller(profile_for(engine), timing=Timing(attract_after=0)))


def _status(table: Table, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    def answer(body: Any) -> dict[str, Any]:
        return {"ok": True, **table.controller.status()}

    with ControlServer(tmp_path / "control.sock", answer) as server:
        assert main(["status", "--socket", str(server.path)]) == 0
    return capsys.readouterr().out.splitlines()


def test_status_after_an_undo_says_to_take_the_undone_move_off_the_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = _table("shiftago")
    c = table.controller
    table.hands("insert W1", "p0")
    table.hands("insert E7", "p1")
    c.undo(table.now)
    table.wait(c.timing.grace + 0.1)
    lines = _status(table, tmp_path, capsys)
    assert "undone: take E7 back off the board" in lines
    assert "remove: g7" in lines
    assert not [line for line in lines if line.startswith("restore:")]
    table.hands("lift g7")
    lines = _status(table, tmp_path, capsys)
    assert not [line for line in lines if line.startswith(("undone", "remove", "restore"))]
    assert "red (player 2) to insert a marble" in lines


def test_two_undos_on_a_board_that_still_shows_both_moves_name_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = _table("shiftago")
    c = table.controller
    table.hands("insert W1", "p0")
    table.hands("insert E7", "p1")
    c.undo(table.now)
    c.undo(table.now)
    lines = _status(table, tmp_path, capsys)
    assert "undone: take E7 then W1 back off the board" in lines


def test_status_says_in_words_what_the_player_must_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = _table("duploline")
    table.settle()
    assert "white (player 1) to open with a disc or a ring" in _status(table, tmp_path, capsys)
    table.hands("place d4 white-disc")
    assert "black (player 2) to play a disc or a ring action" in _status(table, tmp_path, capsys)
    table.hands("place d5 black-ring")
    lines = _status(table, tmp_path, capsys)
    assert "black (player 2) to play a disc action" in lines
    assert not [line for line in lines if line.startswith(("remove", "restore"))]


def test_status_names_both_what_to_remove_and_what_to_put_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = _table("duploline")
    c = table.controller
    table.hands("place d4 white-disc")
    table.hands("move d4 c2")
    table.wait(c.timing.grace + 0.1)
    lines = _status(table, tmp_path, capsys)
    assert "remove: c2" in lines and "restore: d4=white-disc" in lines


def test_status_on_a_fault_says_what_is_wrong_and_what_to_do(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from boardctl.cli.control_cmds import _print_status

    _print_status(
        {
            "board": "shiftago-colour",
            "phase": "fault",
            "fault": "serial port /dev/boardctl-mcu does not exist",
            "fault_kind": "sensors",
            "game": "shiftago",
            "options": {},
            "status": "playing",
            "to_move": 0,
            "task": "insert a marble",
            "moves": [],
        }
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "board shiftago-colour: fault"
    assert "fault: serial port /dev/boardctl-mcu does not exist" in lines
    assert any("check the cable" in line and "by itself" in line for line in lines)


@pytest.mark.parametrize(
    ("phase", "words"),
    [
        ("awaiting_move", "waiting for a move"),
        ("wrong_board", "the board differs from the game"),
        ("takeback_offered", "a takeback is offered"),
    ],
)
def test_status_names_the_phase_in_words(
    phase: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardctl.cli.control_cmds import _print_status

    _print_status({"board": "b", "phase": phase, "game": "shiftago", "moves": []})
    assert capsys.readouterr().out.splitlines()[0] == f"board b: {words}"


def test_new_with_options_only_keeps_the_boards_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardctl.cli import control_cmds

    sent: list[dict[str, Any]] = []

    def send(args: Any, body: dict[str, Any]) -> dict[str, Any]:
        sent.append(body)
        return {"ok": True, "board": "b", "phase": "awaiting_move", "moves": []}

    monkeypatch.setattr(control_cmds, "_send", send)
    assert main(["new", "players=3", "variant=expert"]) == 0
    assert sent == [{"cmd": "new", "game": None, "options": {"players": 3, "variant": "expert"}}]


@pytest.mark.parametrize(
    ("game", "hands", "why"),
    [
        ("shiftago", ["place d4 p0"], "pushed in from the side through a track"),
        ("shiftago", ["place d4 p1"], "that is a red marble, and blue is to insert"),
        (
            "duploline",
            ["place d4 white-disc", "place d5 black-ring", "place a1 black-disc"],
            "a1 is not next to an opponent piece",
        ),
        (
            "bidiline",
            ["place d4-d5 A", "place d5-d6 B", "place d6-d7 A"],
            "so it is blue, not amber",
        ),
        ("linie1", ["place a1 9N"], "player 1 holds no tile of kind 9"),
        ("linie1", ["place a1 2N"], "a rail would lead off the board"),
        (
            "beeline",
            ["place b4 node-black", "place l10 node-red", "place c5 red-sharp-w"],
            "that is a red MARK, and black is to play",
        ),
    ],
)
def test_a_wrong_board_says_why_where_the_rules_know(
    game: str, hands: list[str], why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = _table(game)
    table.settle()
    for hand in hands:
        table.hands(hand)
        table.settle()
    table.wait(table.controller.timing.grace + 0.1)
    status = table.controller.status()
    assert status["phase"] == "wrong_board"
    assert why in status["why"]
    assert any(
        line.startswith("why: ") and why in line for line in _status(table, tmp_path, capsys)
    )


def test_a_view_read_after_the_game_moved_on_still_says_what_it_showed() -> None:
    """The status is built when it is first read, and says what the view
    saw then, not what the game became since (a web page reads it later)."""
    table = _table("shiftago")
    c = table.controller
    table.hands("insert W1", "p0")
    before = c.view()
    table.hands("insert E7", "p1")
    after = c.view()
    assert after.status["moves"] == ["W1", "E7"]
    assert before.status["moves"] == ["W1"]
    assert before.status["moves_applied"] == 1 and before.status["to_move"] == 1
    assert after.status["moves_applied"] == 2 and after.status["to_move"] == 0
    assert before.status != after.status
    assert after.status == c.view().status


def test_a_status_read_key_by_key_says_what_it_says_whole() -> None:
    """The watchers read a few keys of the status every turn (``get``, ``in``),
    the web pages' publisher the whole status (its items)."""
    table = _table("shiftago")
    c = table.controller
    table.hands("insert W1", "p0")
    table.hands("place d4 p1")  # a wrong board: what to take away is named
    status = c.view().status
    whole = dict(status.items())
    assert whole["offending"] == ["d4"]
    for key, value in whole.items():
        assert key in status and status.get(key) == value == status[key]
    assert "no such key" not in status
    assert status.get("no such key") is None and status.get("no such key", 7) == 7
    one_by_one = {key: status[key] for key in iter(status)}
    assert len(one_by_one) == len(status)
    assert whole == {**status} == one_by_one
    assert list(status.keys()) == list(one_by_one) and list(status.values()) == list(whole.values())


#: what a status asks of the engine (the summary, the public view, who acts)
_ASKED = (
    "task",
    "outcome",
    "scores",
    "to_move",
    "expects",
    "actor",
    "public_view",
    "public_render",
    "chance_outcomes",
    "public_action",
    "legal_actions",
)


def _built_on_a_thread(status: Any) -> dict[str, Any] | BaseException:
    out: list[dict[str, Any] | BaseException] = []

    def build() -> None:
        try:
            out.append(dict(status.items()))
        except BaseException as exc:  # what the thread met, for the test to read
            out.append(exc)

    thread = threading.Thread(target=build)
    thread.start()
    thread.join(30)
    return out[0]


def test_a_prepared_status_is_built_on_another_thread_without_asking_the_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The sound hears the status on a thread of its own; the engine (which
    keeps tables of its own as it lists actions) is asked on the loop's
    thread only, once per position, when the status is prepared there."""
    table = _table("shiftago")
    c = table.controller
    table.hands("insert W1", "p0")
    table.hands("place d4 p1")
    status = c.view().status
    scene, engine, state, applied, verdict, winning, fault, fault_kind = status.key

    def fresh() -> Status:
        return Status(scene, Position(engine, state, applied), verdict, winning, fault, fault_kind)

    said = dict(fresh().items())
    status.prepare()
    unprepared = fresh()

    def asked(*args: Any, **kw: Any) -> Any:
        raise AssertionError(f"the engine was asked on {threading.current_thread().name}")

    for name in _ASKED:
        monkeypatch.setattr(type(engine), name, asked)
    assert _built_on_a_thread(status) == said
    assert isinstance(_built_on_a_thread(unprepared), AssertionError)
    monkeypatch.undo()
    # the next turn on the same position shares what was asked
    table.hands("lift d4")
    assert c.view().status.position is status.position


def test_games_lists_who_won_each_finished_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardctl.controller.store import Store

    with Store(tmp_path / "g.db") as store:
        store.begin("shiftago", {})
        store.record("W1")
        store.finish({"status": "won", "winner": 1, "reason": "red made a line of 5"})
        store.begin("shiftago", {})
        store.finish({"status": "draw", "winner": None, "reason": "the board is full"})
        store.begin("shiftago", {})
        listed = store.games()

        def answer(body: Any) -> dict[str, Any]:
            return {"ok": True, "games": store.games()}

        with ControlServer(tmp_path / "control.sock", answer) as server:
            assert main(["games", "--socket", str(server.path)]) == 0
    assert [(g["status"], g["winner"]) for g in listed] == [
        ("playing", None),
        ("finished", None),
        ("finished", 1),
    ]
    assert listed[2]["reason"] == "red made a line of 5"
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("0 moves")
    assert lines[1].endswith("0 moves, a draw")
    assert lines[2].endswith("1 move, red won")


def test_a_status_that_says_the_same_is_built_once_for_every_turn_that_reads_it() -> None:
    """A watcher that hears the status on every turn of the loop (the sound)
    gets the one built before while nothing it says has changed."""
    table = _table("shiftago")
    c = table.controller
    table.hands("insert W1", "p0")
    first = c.view().status
    assert first["moves"] == ["W1"]
    table.wait(0.5)  # the loop turns; nothing changes
    assert c.view().status is first
    table.hands("insert E7", "p1")
    assert c.view().status is not first and c.view().status["moves"] == ["W1", "E7"]


def test_the_moves_the_status_lists_follow_an_undo_another_move_and_a_new_game() -> None:
    table = _table("shiftago")
    c = table.controller
    table.hands("insert W1", "p0")
    table.hands("insert E7", "p1")
    assert c.view().status["moves"] == ["W1", "E7"]
    c.undo(table.now)
    assert c.view().status["moves"] == ["W1"]
    table.hands("lift g7")
    table.hands("insert E6", "p1")  # as many moves as before the undo, another one
    assert c.view().status["moves"] == ["W1", "E6"]
    c.new(None, None, table.now)
    assert c.view().status["moves"] == []
