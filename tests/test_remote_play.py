"""Two boards play one game through a broker (Mosquitto on loopback): each
board's hands play their own seat; the other board's move is lit on this one,
made by its hands and checked, as the computer's is. The broker is restarted
and one board cut off mid-game as by a power cut and started again on its
database; the game resumes where it was and both boards keep the same record."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from broker_support import Listener, Mosquitto, brokers, needs_mosquitto

from boardctl.cli.control_cmds import remote_lines
from boardctl.cli.main import main
from boardctl.sim.hands import Change
from boardctl.sim.session import Simulation

pytestmark = needs_mosquitto

FAST = ["controller.settle_ms=60", "controller.grace_ms=300"]
WAIT = 30.0
PAGE_WAIT = 15000  # ms
#: a short game of Shiftago Express: the first player's five in row 1
GAME = ["W1", "E7", "W1", "E7", "W1", "E7", "W1", "E7", "W1"]


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[Any]:
    yield from brokers(tmp_path)


class Boards:
    """Simulated boards on one broker, each with a state folder of its own."""

    def __init__(self, broker: Mosquitto, folder: Path) -> None:
        self.broker = broker
        self.folder = folder
        self.sims: dict[str, Simulation] = {}

    def start(self, board_id: str, *more: str) -> Simulation:
        sim = Simulation(
            "shiftago",
            overrides=[
                *FAST,
                f'mqtt.broker="{self.broker.url}"',
                f'mqtt.board_id="{board_id}"',
                *more,
            ],
            state_dir=self.folder / board_id,
        )
        self.sims[board_id] = sim
        sim.start()
        sim.wait_status(lambda s: s["broker"]["reached"], WAIT)
        return sim

    def power_cut(self, board_id: str) -> None:
        """Gone without a goodbye: the broker loses it (its last will says
        ``offline``); what it holds is what its database holds."""
        sim = self.sims.pop(board_id)
        sim.daemon.fleet.client.crash()
        sim.close()

    def close(self) -> None:
        for sim in self.sims.values():
            sim.close()


@pytest.fixture
def boards(mosquitto: Any, tmp_path: Path) -> Iterator[Boards]:
    made = Boards(mosquitto(), tmp_path)
    yield made
    made.close()


def _remote(status: dict[str, Any]) -> dict[str, Any]:
    return status.get("remote") or {}


def _lit(sim: Simulation, moves: int) -> dict[str, Any]:
    """The other board's move, lit on ``sim`` once ``moves`` are played."""
    return sim.wait_status(
        lambda s: len(s["moves"]) == moves and _remote(s).get("doing") == "ready", WAIT
    )


def test_two_boards_play_one_game(boards: Boards, capsys: pytest.CaptureFixture[str]) -> None:
    a = boards.start("table-a")
    b = boards.start("table-b")
    reply = a.request({"cmd": "new", "seats": "hands,remote:table-b"})
    assert reply["ok"], reply
    assert reply["seats"] == ["hands", "remote:table-b"]
    # the invitation reaches the other board, which accepts it
    invited = b.wait_status(lambda s: bool(s["remote_play"]["invitations"]), WAIT)["remote_play"]
    assert [(i["board"], i["game"], i["seats"]) for i in invited["invitations"]] == [
        ("table-a", "shiftago", ["remote:table-a", "hands"])
    ]
    said = "\n".join(remote_lines(b.status()))
    assert "table-a invites this board to shiftago" in said
    assert "boardctl accept table-a" in said
    # the operator types what the status says
    assert main(["accept", "--socket", str(b.config.control.socket), "table-a"]) == 0
    out = capsys.readouterr().out
    assert "seats: remote:table-a, hands" in out
    assert "blue (player 1) at table-a is to play, there" in out
    a.wait_status(lambda s: s["remote_play"]["game"]["joined"], WAIT)
    assert not b.status()["remote_play"]["invitations"]

    for ply, text in enumerate(GAME):
        here, there = ("table-a", "table-b") if ply % 2 == 0 else ("table-b", "table-a")
        # the other board waits for this one's player: its light runs
        waiting = boards.sims[there].status()
        assert _remote(waiting).get("doing") == "waiting", waiting
        boards.sims[here].hands(f"insert {text}")
        boards.sims[here].wait_status(lambda s, n=ply: len(s["moves"]) == n + 1, WAIT)
        if ply == 2:
            boards.broker.restart()  # before the other board saw the move; retained lost
        if ply == 5:
            boards.power_cut(here)  # its move perhaps never sent
            assert len(boards.start(here).status()["moves"]) == 6  # resumed from its database
        if ply == 7:
            boards.power_cut(there)  # before it saw the other's move
            assert len(boards.start(there).status()["moves"]) == 7
        shown = _lit(boards.sims[there], ply)
        assert shown["remote"]["moves"] == [text]
        # a move the other board did not make is not taken here
        refused = boards.sims[there].request({"cmd": "play", "action": "W4"})
        assert not refused["ok"] and "plays this turn" in refused["error"]
        if ply == 1:
            # the hands there push the marble in elsewhere: shown wrong, not played
            sim = boards.sims[there]
            before = dict(sim.layout)
            sim.hands("insert W4")
            wrong = sim.wait_status(lambda s: s["phase"] == "wrong_board", WAIT)
            assert len(wrong["moves"]) == ply and (wrong.get("offending") or wrong.get("restore"))
            sim.apply(
                [
                    Change(site, before.get(site))
                    for site in sorted(set(before) | set(sim.layout))
                    if before.get(site) != sim.layout.get(site)
                ]
            )
            _lit(sim, ply)
        boards.sims[there].hands(f"insert {text}")
        boards.sims[there].wait_status(lambda s, n=ply: len(s["moves"]) == n + 1, WAIT)
        if ply == 6:
            refused = boards.sims["table-a"].request({"cmd": "undo"})
            assert not refused["ok"] and "not undone" in refused["error"]

    a, b = boards.sims["table-a"], boards.sims["table-b"]
    done_a = a.wait_status(lambda s: s["phase"] == "game_over", WAIT)
    done_b = b.wait_status(lambda s: s["phase"] == "game_over", WAIT)
    assert done_a["moves"] == done_b["moves"] == GAME
    assert done_a["winner"] == done_b["winner"] == 0
    record_a = a.request({"cmd": "export"})["record"]
    record_b = b.request({"cmd": "export"})["record"]
    assert record_a["moves"] == record_b["moves"] == GAME
    assert record_a["result"]["winner"] == record_b["result"]["winner"] == 0
    assert record_a["seats"][1] == {"player": "remote", "board": "table-b", "game": _number(a)}
    assert record_b["seats"][0]["board"] == "table-a"
    assert record_a["seats"][1]["game"] == record_b["seats"][0]["game"]


def _number(sim: Simulation) -> int:
    return int(sim.status()["remote_play"]["game"]["number"])


def test_an_invitation_declined_is_said_on_the_inviting_board(boards: Boards) -> None:
    a = boards.start("table-a")
    b = boards.start("table-b")
    assert a.request({"cmd": "new", "seats": "hands,remote:table-b"})["ok"]
    b.wait_status(lambda s: bool(s["remote_play"]["invitations"]), WAIT)
    assert main(["decline", "--socket", str(b.config.control.socket), "table-a"]) == 0
    assert not b.status()["remote_play"]["invitations"]
    a.hands("insert W1")  # the player here moves; nobody there will answer
    said = a.wait_status(lambda s: "error" in _remote(s), WAIT)
    assert said["fault"] == (
        "the game with table-b cannot go on (table-b has left it: declined, or began another "
        "game): start a new game"
    )
    assert said["remote_play"]["game"]["left"] is True


def test_no_secret_and_no_foreign_move_is_taken(boards: Boards) -> None:
    """A message on another board's topic in this board's name is ignored; a
    record that differs is shown as a fault, not played."""
    a = boards.start("table-a")
    reply = a.request({"cmd": "new", "seats": "remote:table-c"})
    assert reply["ok"], reply
    number = _number(a)
    intruder = Listener(boards.broker, ())
    try:
        body = {
            "v": 1,
            "type": "game",
            "from": "table-b",
            "to": "table-a",
            "game": number,
            "name": "shiftago",
            "options": a.status()["options"],
            "seats": ["hands", "remote:table-a"],
            "seq": 1,
            "moves": ["N1"],
            "ack": 0,
            "over": False,
            "left": False,
        }
        # said to be from table-b on table-c's topic: not taken
        intruder.publish("boardctl/table-c/remote/table-a", json.dumps(body), retain=True)
        # from table-c, but a move that is not shiftago's: a fault said as such
        intruder.publish(
            "boardctl/table-c/remote/table-a",
            json.dumps({**body, "from": "table-c", "moves": ["Q9"]}),
            retain=True,
        )
        faulty = a.wait_status(lambda s: "error" in _remote(s), WAIT)
        assert "table-c" in faulty["fault"] and faulty["moves"] == []
    finally:
        intruder.close()


@pytest.fixture(scope="module")
def chromium(browser: Any) -> Any:
    """The session's one Chromium (tests/conftest.py): Playwright's sync API
    drives one browser per process."""
    return browser


def test_the_operator_page_accepts_an_invitation_and_invites(boards: Boards, chromium: Any) -> None:
    a = boards.start("table-a")
    b = boards.start("table-b", 'web.listen="127.0.0.1:0"')
    context = chromium.new_context(bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(str(b.daemon.web.url) + "/operator")
        page.wait_for_selector("#panel:not([hidden])", timeout=PAGE_WAIT)
        page.wait_for_selector("#broker", timeout=PAGE_WAIT)
        assert a.request({"cmd": "new", "seats": "hands,remote:table-b"})["ok"]
        invitation = page.wait_for_selector('.invitation[data-board="table-a"]', timeout=PAGE_WAIT)
        assert "table-a invites this board to shiftago" in invitation.inner_text()
        invitation.query_selector("button.accept").click()
        b.wait_status(lambda s: s.get("seats") == ["remote:table-a", "hands"], WAIT)
        a.wait_status(lambda s: s["remote_play"]["game"]["joined"], WAIT)
        page.wait_for_function(
            "document.getElementById('remote-game')?.textContent.includes('table-a plays it')",
            timeout=PAGE_WAIT,
        )
        # the room at table-b is told in words what the player at table-a does
        board = context.new_page()
        board.goto(str(b.daemon.web.url) + "/")
        said = "document.getElementById('{}').textContent.includes('{}')"
        board.wait_for_function(
            said.format("turn", "blue (player 1) at table-a to insert a marble"),
            timeout=PAGE_WAIT,
        )
        a.hands("insert W1")
        board.wait_for_function(
            said.format("problems", "blue (player 1) at table-a played W1: make it on the board"),
            timeout=PAGE_WAIT,
        )
        # and the other way: this board invites table-a from its page
        page.fill("#invite-board", "table-a")
        page.click("#invite")
        b.wait_status(lambda s: s.get("seats") == ["hands", "remote:table-a"], WAIT)
        invited = a.wait_status(lambda s: bool(s["remote_play"]["invitations"]), WAIT)
        assert invited["remote_play"]["invitations"][0]["board"] == "table-b"
    finally:
        context.close()


class Scanned:
    """Hands' changes on a virtual microcontroller whose daemon runs in
    another process: each waits for the firmware's scan only."""

    def __init__(self, mcu: Any) -> None:
        self.mcu = mcu

    def put(self, channel: int, value: int) -> None:
        if value:
            self.mcu.place(channel, value)
        else:
            self.mcu.lift(channel)
        assert self.mcu.wait_scanned(5)

    def pulse(self, channel: int) -> None:
        raise AssertionError("the colour board has no light gates")


def test_a_daemon_killed_mid_game_resumes_it_and_both_records_match(
    boards: Boards, tmp_path: Path
) -> None:
    """The second board is ``boardctl run`` in a process of its own, on its
    virtual microcontroller, killed with SIGKILL just after the first board's
    player moved; started again, it lights that move and the game goes on."""
    import os
    import signal
    import subprocess
    import sys

    from twin_support import Hands, wait_for

    from boardctl.controller.control import ControlError, request
    from firmware_bridge.virtual import VirtualMicrocontroller, kinds_for
    from hardware.profiles import load_profile

    profile = load_profile("shiftago-colour")
    folder = tmp_path / "killed"
    folder.mkdir()
    (folder / "none.toml").write_text("")
    socket_path = folder / "control.sock"
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC")}

    def status() -> dict[str, Any]:
        try:
            return request(socket_path, {"cmd": "status"}, timeout=2)
        except ControlError:
            return {}

    def wait(what: str, predicate: Any) -> dict[str, Any]:
        got: dict[str, Any] = {}

        def check() -> bool:
            got.clear()
            got.update(status())
            return bool(got.get("ok")) and bool(predicate(got))

        wait_for(check, WAIT, what)
        return got

    a = boards.start("table-a")
    with VirtualMicrocontroller(
        channels=profile.channel_count, leds=profile.leds.count, kinds=kinds_for(profile)
    ) as mcu:
        command = [sys.executable, "-m", "boardctl.cli.main", "run", "--profile", profile.name]
        for key, value in {
            "serial.port": f'"{mcu.port}"',
            "storage.state_dir": f'"{folder / "state"}"',
            "control.socket": f'"{socket_path}"',
            "controller.settle_ms": "60",
            "controller.grace_ms": "300",
            "mqtt.broker": f'"{boards.broker.url}"',
            "mqtt.board_id": '"table-b"',
        }.items():
            command += ["--set", f"{key}={value}"]
        command += ["--config", str(folder / "none.toml")]
        log = (folder / "daemon.log").open("ab")
        daemon = subprocess.Popen(command, env=env, stdout=log, stderr=log)
        try:
            hands = Hands(Scanned(mcu), profile)
            wait("table-b on the broker", lambda s: s["broker"]["reached"])
            assert a.request({"cmd": "new", "seats": "hands,remote:table-b"})["ok"]
            wait("the invitation", lambda s: bool(s["remote_play"]["invitations"]))
            assert request(socket_path, {"cmd": "accept", "board": "table-a"})["ok"]
            for ply, text in enumerate(GAME):
                if ply % 2 == 0:
                    a.hands(f"insert {text}")
                    a.wait_status(lambda s, n=ply: len(s["moves"]) == n + 1, WAIT)
                    if ply == 4:  # killed before it could light the move
                        daemon.send_signal(signal.SIGKILL)
                        assert daemon.wait(10) == -signal.SIGKILL
                        daemon = subprocess.Popen(command, env=env, stdout=log, stderr=log)
                    lit = wait(
                        f"{text} lit at table-b",
                        lambda s, n=ply: (
                            len(s["moves"]) == n and _remote(s).get("doing") == "ready"
                        ),
                    )
                    assert lit["remote"]["moves"] == [text]
                    hands.insert(text, "p0")
                    wait(f"{text} at table-b", lambda s, n=ply: len(s["moves"]) == n + 1)
                else:
                    hands.insert(text, "p1")
                    wait(f"{text} at table-b", lambda s, n=ply: len(s["moves"]) == n + 1)
                    assert _lit(a, ply)["remote"]["moves"] == [text]
                    a.hands(f"insert {text}")
                    a.wait_status(lambda s, n=ply: len(s["moves"]) == n + 1, WAIT)
            over = wait("the game over at table-b", lambda s: s["phase"] == "game_over")
            record_b = request(socket_path, {"cmd": "export"})["record"]
            record_a = a.request({"cmd": "export"})["record"]
            assert over["moves"] == record_a["moves"] == record_b["moves"] == GAME
            assert record_a["result"] == record_b["result"]
        finally:
            if daemon.poll() is None:
                daemon.kill()
                daemon.wait(10)
            log.close()
