"""Boards on a real broker: Mosquitto from Debian's package on loopback.

A simulated board announces itself to Home Assistant, keeps its state
retained and tells its moves; it is announced again when Home Assistant
starts; a broker restarted or killed never holds up its loop (a move made
meanwhile is told once the broker is back), and ``boardctl status`` says
whether the broker is reached; credentials refused are said as such; commands
are taken only from a signed-in user the broker's ACL lets write them; and a
daemon killed is ``offline`` by its last will."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from broker_support import Listener, Mosquitto, brokers, needs_mosquitto

from boardctl.sim.session import Simulation

pytestmark = needs_mosquitto

FAST = ["controller.settle_ms=60", "controller.grace_ms=300"]
WAIT = 20.0


def _on(broker: Mosquitto, board_id: str, *more: str) -> list[str]:
    return [*FAST, f'mqtt.broker="{broker.url}"', f'mqtt.board_id="{board_id}"', *more]


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[Any]:
    yield from brokers(tmp_path)


@pytest.fixture
def sims() -> Iterator[list[Simulation]]:
    made: list[Simulation] = []
    yield made
    for sim in made:
        sim.close()


def _sim(made: list[Simulation], *overrides: str, **kwargs: Any) -> Simulation:
    sim = Simulation("shiftago", overrides=list(overrides), **kwargs)
    made.append(sim)
    sim.start()
    return sim


def _broker_says(sim: Simulation, reached: bool) -> dict[str, Any]:
    return sim.wait_status(lambda s: s["broker"]["reached"] is reached, WAIT)["broker"]


def _mover(sim: Simulation) -> str:
    status = sim.status()
    return ("p0", "p1")[status["to_move"]]


def test_a_board_on_the_broker(mosquitto: Any, sims: list[Simulation]) -> None:
    broker: Mosquitto = mosquitto()
    sim = _sim(sims, *_on(broker, "t1"))
    said = _broker_says(sim, True)
    assert said["broker"] == broker.url and said["board_id"] == "t1"
    assert said["commands"] is False  # anonymous: no commands taken
    ha = Listener(broker, ("homeassistant/#", "boardctl/#"))
    try:
        # retained: a listener that comes later still reads the board
        ha.wait(lambda t, p: t == "boardctl/t1/availability" and p == b"online")
        state = ha.json_on("boardctl/t1/state")
        assert state["game"] == "shiftago" and state["board_id"] == "t1"
        configs = [t for t, p, _ in ha.messages if t.endswith("/config") and p]
        assert len(configs) == 6 and not [t for t in configs if "/button/" in t]
        mark = len(ha.messages)
        sim.hands("insert W3")
        event = ha.json_on("boardctl/t1/events", lambda e: e["event"] == "action", start=mark)
        assert (event["action"], event["player"], event["ply"]) == ("W3", 0, 1)
        ha.json_on("boardctl/t1/state", lambda s: s["moves"] == ["W3"], start=mark)
        # Home Assistant starts again: the board is announced again
        mark = len(ha.messages)
        ha.publish("homeassistant/status", "online")
        ha.wait(lambda t, p: t.endswith("/fault/config") and bool(p), start=mark)
    finally:
        ha.close()


def test_a_broker_restarted_or_killed_never_holds_up_the_board(
    mosquitto: Any, sims: list[Simulation]
) -> None:
    broker: Mosquitto = mosquitto()
    sim = _sim(sims, *_on(broker, "t2"))
    _broker_says(sim, True)
    broker.restart()
    _broker_says(sim, True)  # reconnected by itself
    broker.kill()
    down = sim.wait_status(lambda s: "is it running" in s["broker"].get("error", ""), WAIT)
    assert down["broker"]["reached"] is False and down["broker"]["next_try"].endswith("Z")
    # the loop goes on: answers at once, and a move is played and shown
    t0 = time.monotonic()
    sim.status()
    assert time.monotonic() - t0 < 1.0
    sim.hands("insert W1")
    sim.wait_status(lambda s: s["moves"] == ["W1"], WAIT)
    sim.hands("insert E1")
    sim.wait_status(lambda s: s["moves"] == ["W1", "E1"], WAIT)
    from boardctl.cli.control_cmds import broker_text

    assert "not reached" in broker_text(sim.status()["broker"])
    broker.start()
    listener = Listener(broker, ("boardctl/#",))
    try:
        # the moves made meanwhile are told once the broker is back, in order
        first = listener.json_on("boardctl/t2/events", lambda e: e["event"] == "action")
        assert first["action"] == "W1"
        second = listener.json_on(
            "boardctl/t2/events", lambda e: e.get("action") == "E1", timeout=WAIT
        )
        assert second["ply"] == 2
        state = listener.json_on("boardctl/t2/state", lambda s: s["moves"] == ["W1", "E1"])
        assert state["turn"]
        _broker_says(sim, True)
    finally:
        listener.close()


USERS = {"t3": "board-pass", "t5": "other-pass", "homeassistant": "ha-pass", "stranger": "guess"}
DOCS = Path(__file__).resolve().parent.parent / "docs" / "fleet.md"


def documented_acl() -> str:
    """The ACL docs/fleet.md tells a venue to write (the first text block after
    it names ``/etc/mosquitto/acl``), so that these tests hold the docs true."""
    text = DOCS.read_text()
    after = text[text.index("(`/etc/mosquitto/acl`)") :]
    start = after.index("```text\n") + len("```text\n")
    return after[start : after.index("```", start)]


ACL = documented_acl()


def _password_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mqtt.pass"
    path.write_text(text + "\n")
    path.chmod(0o600)
    return path


def test_credentials_refused_are_said_and_the_board_plays_on(
    mosquitto: Any, sims: list[Simulation], tmp_path: Path
) -> None:
    broker: Mosquitto = mosquitto(users=USERS, acl=ACL, anonymous=False)
    secret = _password_file(tmp_path, "wrong")
    sim = _sim(
        sims,
        *_on(broker, "t3", 'mqtt.user="t3"', f'mqtt.password_file="{secret}"'),
    )
    said = sim.wait_status(lambda s: "error" in s["broker"], WAIT)["broker"]
    assert "refused the board's sign-in" in said["error"]
    assert "wrong" not in json.dumps(sim.status())  # the password is never said
    sim.hands("insert W1")
    sim.wait_status(lambda s: s["moves"] == ["W1"], WAIT)


def test_commands_only_from_a_signed_in_user(
    mosquitto: Any, sims: list[Simulation], tmp_path: Path
) -> None:
    broker: Mosquitto = mosquitto(users=USERS, acl=ACL, anonymous=True)
    secret = _password_file(tmp_path, USERS["t3"])
    sim = _sim(
        sims,
        *_on(broker, "t3", 'mqtt.user="t3"', f'mqtt.password_file="{secret}"'),
    )
    assert _broker_says(sim, True)["commands"] is True
    sim.hands("insert W1")
    sim.wait_status(lambda s: s["moves"] == ["W1"], WAIT)
    watcher = Listener(
        broker, ("boardctl/#", "homeassistant/#"), "homeassistant", USERS["homeassistant"]
    )
    anonymous = Listener(broker, ())
    stranger = Listener(broker, (), "stranger", USERS["stranger"])
    ha = Listener(broker, (), "homeassistant", USERS["homeassistant"])
    try:
        # a signed-in board has its buttons
        watcher.wait(lambda t, p: t.endswith("/button/boardctl_t3/undo/config") and bool(p))
        mark = len(watcher.messages)
        anonymous.publish("boardctl/t3/command", '{"cmd": "undo"}')
        stranger.publish("boardctl/t3/command", '{"cmd": "undo"}')
        ha.publish("boardctl/t3/command", '{"cmd": "private", "player": 0}')
        ha.publish("boardctl/t3/command", '{"cmd": "status"}')
        seen = watcher.json_on("boardctl/t3/events", lambda e: e.get("cmd") == "status", start=mark)
        assert seen["ok"] is True
        commands = [
            json.loads(p)
            for t, p, _ in watcher.messages[mark:]
            if t == "boardctl/t3/events" and json.loads(p)["event"] == "command"
        ]
        # the ACL dropped the anonymous and the stranger's undo; a secret is never asked
        assert [c.get("cmd") for c in commands] == [None, "status"]
        assert commands[0]["ok"] is False and "the commands taken here" in commands[0]["error"]
        assert sim.status()["moves"] == ["W1"]
        ha.publish("boardctl/t3/command", '{"cmd": "undo"}')
        sim.wait_status(lambda s: s["moves"] == [], WAIT)
    finally:
        for client in (watcher, anonymous, stranger, ha):
            client.close()


def test_a_signed_in_board_reads_what_every_board_says_for_the_venue(mosquitto: Any) -> None:
    """With the documented ACL, a board signed in as itself sees the other
    boards' state, availability, results and statistics (its ``/venue``),
    not only its own."""
    from boardctl.fleet.venue import SUBSCRIPTIONS

    broker: Mosquitto = mosquitto(users=USERS, acl=ACL, anonymous=False)
    other = Listener(broker, (), "t5", USERS["t5"])
    board = Listener(broker, SUBSCRIPTIONS, "t3", USERS["t3"])
    try:
        leaves = ("state", "availability", "results", "stats")
        for leaf in leaves:
            other.publish(f"boardctl/t5/{leaf}", '{"said": "by t5"}', retain=True)
        for leaf in leaves:
            board.wait(lambda t, p, leaf=leaf: t == f"boardctl/t5/{leaf}")
    finally:
        other.close()
        board.close()


BOARDCTL = str(Path(sys.executable).with_name("boardctl"))


def test_a_daemon_killed_is_offline_by_its_last_will(mosquitto: Any, tmp_path: Path) -> None:
    from firmware_bridge.virtual import VirtualMicrocontroller, kinds_for
    from hardware.profiles import load_profile

    broker: Mosquitto = mosquitto()
    profile = load_profile("shiftago-colour")
    (tmp_path / "none.toml").write_text("")
    with VirtualMicrocontroller(
        channels=profile.channel_count, leds=profile.leds.count, kinds=kinds_for(profile)
    ) as mcu:
        command = [
            BOARDCTL,
            "run",
            "--profile",
            "shiftago-colour",
            "--config",
            str(tmp_path / "none.toml"),
            "--set",
            f'serial.port="{mcu.port}"',
            "--set",
            f'storage.state_dir="{tmp_path}"',
            "--set",
            f'control.socket="{tmp_path}/control.sock"',
            "--set",
            f'mqtt.broker="{broker.url}"',
            "--set",
            'mqtt.board_id="t4"',
        ]
        env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC")}
        listener = Listener(broker, ("boardctl/t4/availability",))
        daemon = subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL)
        try:
            listener.wait(lambda t, p: p == b"online", timeout=30)
            mark = len(listener.messages)
            daemon.send_signal(signal.SIGKILL)
            daemon.wait(10)
            listener.wait(lambda t, p: p == b"offline", timeout=WAIT, start=mark)
            assert listener.last("boardctl/t4/availability") == b"offline"
        finally:
            if daemon.poll() is None:
                daemon.kill()
                daemon.wait(10)
            listener.close()


def test_a_stalled_broker_never_holds_up_the_board(mosquitto: Any, sims: list[Simulation]) -> None:
    """The broker stops answering (its process stopped, its connections open):
    the board plays on and answers at once; the moves are told once it answers."""
    broker: Mosquitto = mosquitto()
    sim = _sim(sims, *_on(broker, "t5"))
    _broker_says(sim, True)
    listener = Listener(broker, ("boardctl/t5/events",))
    try:
        broker.pause()
        t0 = time.monotonic()
        sim.status()
        sim.hands("insert W1")
        sim.wait_status(lambda s: s["moves"] == ["W1"], WAIT)
        sim.hands("insert E1")
        sim.wait_status(lambda s: s["moves"] == ["W1", "E1"], WAIT)
        assert time.monotonic() - t0 < WAIT
        t0 = time.monotonic()
        sim.status()
        assert time.monotonic() - t0 < 1.0
        broker.resume()
        told = listener.json_on(
            "boardctl/t5/events", lambda e: e.get("action") == "E1", timeout=WAIT
        )
        assert told["ply"] == 2
    finally:
        listener.close()


def test_a_message_too_long_is_dropped_and_the_board_stays(
    mosquitto: Any, sims: list[Simulation]
) -> None:
    from boardctl.fleet.client import MAX_PAYLOAD

    broker: Mosquitto = mosquitto()
    sim = _sim(sims, *_on(broker, "t6"))
    _broker_says(sim, True)
    sender = Listener(broker, ())
    watcher = Listener(broker, ("homeassistant/#",))
    try:
        watcher.wait(lambda t, p: t.endswith("/fault/config") and bool(p))  # retained
        mark = len(watcher.messages)
        sender.publish("homeassistant/status", b"o" * (MAX_PAYLOAD + 1))
        sender.publish("homeassistant/status", "online")
        # the long one dropped, the board still connected: the next is taken
        watcher.wait(lambda t, p: t.endswith("/fault/config") and bool(p), start=mark)
        assert sim.daemon.fleet.client.refused == 1
        assert sim.status()["broker"]["reached"] is True
    finally:
        sender.close()
        watcher.close()
