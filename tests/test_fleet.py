"""Each board on the broker, without a broker: the [mqtt] settings refused as
the configuration refuses every bad setting, the password file kept private,
Home Assistant's discovery read as Home Assistant reads it (its templates
rendered by Jinja against the state a board publishes), the events of a game,
no secret on any topic, and a broker client that never holds up its caller."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import jinja2
import pytest
from controller_support import Table, profile_for
from tiny_games import dice_profile, engines

from boardctl import config
from boardctl.controller.machine import Controller
from boardctl.engines import create
from boardctl.errors import ConfigError
from boardctl.fleet import discovery, topics
from boardctl.fleet.board import BoardOnBroker
from boardctl.fleet.client import BrokerClient, jittered, refusal, waits
from boardctl.fleet.settings import Broker, Connection, board_id_of, connection


def _load(*sets: str) -> config.Config:
    return config.load("/dev/null", list(sets))


@pytest.mark.parametrize(
    ("setting", "said"),
    [
        ("mqtt.broker=http://hub:1883", "begins mqtt:// or mqtts://"),
        ("mqtt.broker=hub:1883", "begins mqtt:// or mqtts://"),
        ('mqtt.broker="mqtt://user:secret@hub:1883"', "never in the address"),
        ('mqtt.broker="mqtt://hub:99999"', "not a broker's address"),
        ('mqtt.broker="mqtt://hub/boards"', "has no path"),
    ],
)
def test_a_broker_that_is_no_address_is_refused_naming_the_key(setting: str, said: str) -> None:
    with pytest.raises(ConfigError, match=r"\[mqtt\] broker") as refused:
        _load(setting)
    assert said in str(refused.value)
    assert "secret" not in str(refused.value) or "never in the address" in str(refused.value)


def test_the_mqtt_settings_are_checked_together() -> None:
    on = 'mqtt.broker="mqtt://hub:1883"'
    with pytest.raises(ConfigError, match=r"\[mqtt\] board_id.*letters, digits"):
        _load(on, 'mqtt.board_id="table/3"')
    with pytest.raises(ConfigError, match=r"\[mqtt\] password_file.*user"):
        _load(on, 'mqtt.password_file="/etc/boardctl/mqtt.pass"')
    with pytest.raises(ConfigError, match=r"\[mqtt\] ca_file.*mqtts://"):
        _load(on, 'mqtt.ca_file="/etc/ssl/ca.pem"')
    with pytest.raises(ConfigError, match=r"\[mqtt\] discovery.*true or false"):
        _load(on, 'mqtt.discovery="yes"')
    assert _load().mqtt.broker == ""  # off by default
    tls = Broker.from_url("mqtts://broker.example.org")
    assert (tls.port, tls.tls, str(tls)) == (8883, True, "mqtts://broker.example.org:8883")
    assert BoardOnBroker  # the module imports without a broker


def test_the_board_id_defaults_to_the_host_name_made_fit_for_a_topic() -> None:
    assert board_id_of("table-3") == "table-3"
    made = board_id_of("")
    assert made and "/" not in made and "+" not in made and "#" not in made


def test_the_password_file_must_be_the_services_alone(tmp_path: Path) -> None:
    secret = tmp_path / "mqtt.pass"
    secret.write_text("s3cret\n")
    secret.chmod(0o644)
    cfg = _load(
        'mqtt.broker="mqtt://hub:1883"', 'mqtt.user="table-3"', f'mqtt.password_file="{secret}"'
    )
    place = lambda key: f"[mqtt] {key}"  # noqa: E731
    with pytest.raises(ConfigError, match=r"\[mqtt\] password_file.*chmod 600"):
        connection(cfg.mqtt, place)
    secret.chmod(0o600)
    made = connection(cfg.mqtt, place)
    assert made.password == "s3cret" and "s3cret" not in repr(made)
    assert "s3cret" not in cfg.to_toml()


def _state_after_a_game() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A Shiftago board's published state and events after a few moves."""
    engine = create("shiftago")
    c = Controller(profile_for(engine))
    table = Table(c)
    board = BoardOnBroker(Connection(Broker("127.0.0.1", 1), "table-3"), "shiftago-colour", _none)
    board(c, c.view(), ())
    c.new(None, None, table.now)
    board(c, c.view(), ())
    for track, piece in (("W1", "p0"), ("E1", "p1"), ("W2", "p0")):
        table.hands(f"insert {track}", piece)
        board(c, c.view(), ())
    return _published(board)


def _none(body: Any, timeout: float) -> dict[str, Any]:
    return {"ok": True}


def _published(board: BoardOnBroker) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    state: dict[str, Any] = {}
    events: list[dict[str, Any]] = []
    for message in board.client.pending():
        if message.topic == topics.state(board.board_id):
            state = json.loads(message.payload)
        elif message.topic == topics.events(board.board_id):
            events.append(json.loads(message.payload))
    return state, events


def test_a_game_is_told_on_the_events_topic_and_the_state_is_retained() -> None:
    state, events = _state_after_a_game()
    assert [e["event"] for e in events] == ["game_started", "action", "action", "action"]
    assert [e["action"] for e in events[1:]] == ["W1", "E1", "W2"]
    assert [e["player"] for e in events[1:]] == [0, 1, 0]
    assert all(e["board"] == "table-3" and e["at"].endswith("Z") for e in events)
    assert state["game"] == "shiftago" and state["moves"] == ["W1", "E1", "W2"]
    assert state["board_id"] == "table-3" and "picture" not in state


def test_home_assistant_reads_the_discovery_as_one_device() -> None:
    state, _ = _state_after_a_game()
    state["last_winner"] = {"game": "shiftago", "winner": 1, "name": "red", "scores": None}
    found = discovery.messages("homeassistant", "table-3", "shiftago-colour", "1.2.3", True)
    by_object = {}
    env = jinja2.Environment(undefined=jinja2.StrictUndefined)
    for topic, payload in found:
        parts = topic.split("/")
        assert parts[0] == "homeassistant" and parts[-1] == "config" and len(parts) == 5
        assert parts[1] in ("sensor", "binary_sensor", "button")
        assert parts[2] == "boardctl_table_3"
        assert payload["availability_topic"] == "boardctl/table-3/availability"
        assert payload["device"]["identifiers"] == ["boardctl_table_3"]
        assert payload["device"]["sw_version"] == "1.2.3"
        assert payload["unique_id"].startswith("boardctl_table_3_")
        if parts[1] == "button":
            assert payload["command_topic"] == "boardctl/table-3/command"
            assert json.loads(payload["payload_press"])["cmd"] in topics.COMMANDS
            by_object[parts[3]] = payload["payload_press"]
            continue
        assert payload["state_topic"] == "boardctl/table-3/state"
        shown = env.from_string(payload["value_template"]).render(value_json=state)
        by_object[parts[3]] = shown
        if "json_attributes_template" in payload:
            attrs = env.from_string(payload["json_attributes_template"]).render(value_json=state)
            assert isinstance(json.loads(attrs), dict)
    assert len({p["unique_id"] for _, p in found}) == len(found)
    assert by_object["game"] == "shiftago"
    assert by_object["turn"] == "red"  # Shiftago's second player, after three moves
    assert by_object["last_winner"] == "red"
    assert by_object["fault"] == "OFF"
    assert json.loads(by_object["new_game"]) == {"cmd": "new"}
    assert json.loads(by_object["undo"]) == {"cmd": "undo"}
    anonymous = discovery.messages("homeassistant", "table-3", "m", "1", commands=False)
    assert not [t for t, _ in anonymous if "/button/" in t]


def test_a_fault_shows_in_home_assistant() -> None:
    state, _ = _state_after_a_game()
    faulty = {**state, "fault": "the sensors stopped answering", "problem": True}
    payload = dict(discovery.messages("homeassistant", "table-3", "m", "1", True))[
        "homeassistant/binary_sensor/boardctl_table_3/fault/config"
    ]
    env = jinja2.Environment()
    assert env.from_string(payload["value_template"]).render(value_json=faulty) == "ON"


def _secret_game(cards: tuple[int, int]) -> list[bytes]:
    """What a board of a game with secrets publishes: three stones placed."""
    from test_controller_secrets import Script

    profile = dice_profile(secret=True)
    c = Controller(profile, engines=engines, chance=Script(cards))
    table = Table(c)
    board = BoardOnBroker(Connection(Broker("127.0.0.1", 1), "t"), "dice", _none, clock=lambda: "T")
    table.settle()
    board(c, c.view(), ())
    for cell in ("c2", "c5", "c3"):
        table.hands(f"place {cell} s{c.match.to_move()}")
        board(c, c.view(), ())
    assert c.match.moves_text()[:2] == [f"deal:{cards[0]}", f"deal:{cards[1]}"]
    return [m.payload for m in board.client.pending()]


def test_no_secret_reaches_any_topic() -> None:
    """Two games that differ only in the cards dealt publish the same bytes."""
    assert _secret_game((0, 1)) == _secret_game((2, 0))


def test_publishing_never_waits_for_the_broker() -> None:
    """A broker that is never reached: ten thousand events are queued at once,
    the oldest dropped and counted; the latest state waits alone."""
    client = BrokerClient(Connection(Broker("127.0.0.1", 1), "t"), max_outbox=100)
    t0 = time.perf_counter()
    for n in range(10_000):
        client.publish("boardctl/t/events", b"{}", qos=1)
        client.publish("boardctl/t/state", str(n), retain=True, key="state")
    assert time.perf_counter() - t0 < 2.0
    pending = client.pending()
    assert len(pending) == 101 and pending[0].payload == b"9999"
    assert client.health()["dropped"] == 9_900


def test_the_waits_between_tries_double_up_to_a_minute() -> None:
    import itertools
    import random

    assert list(itertools.islice(waits(1.0, 60.0), 8)) == [1, 2, 4, 8, 16, 32, 60, 60]
    rng = random.Random(1)
    assert all(45.0 <= jittered(60.0, rng) <= 60.0 for _ in range(100))


def test_a_refusal_says_what_to_check() -> None:
    said = refusal(Exception("Connection Refused: Not authorised."))
    assert "[mqtt] user and password_file" in said
    assert "is it running" in refusal(ConnectionRefusedError(111, "Connection refused"))


def test_a_port_that_never_answers_is_said_and_publishing_goes_on() -> None:
    """Something listens where the broker should be and says nothing (a broker
    stalled): the client gives up after its timeout, says so, tries again, and
    a message handed to it meanwhile is only queued."""
    from broker_support import Silent

    silent = Silent()
    client = BrokerClient(
        Connection(Broker("127.0.0.1", silent.port), "t"), timeout=0.3, first_wait=0.05
    )
    try:
        client.start()
        t0 = time.perf_counter()
        client.publish("boardctl/t/events", b"{}", qos=1)
        assert time.perf_counter() - t0 < 0.1
        said = threading.Event()
        deadline = time.monotonic() + 10
        while not said.is_set() and time.monotonic() < deadline:
            if "did not answer in time" in client.health().get("error", ""):
                said.set()
            said.wait(0.05)
        health = client.health()
        assert said.is_set(), health
        assert health["reached"] is False and health["next_try"].endswith("Z")
        assert [m.topic for m in client.pending()] == ["boardctl/t/events"]
    finally:
        client.close()
        silent.close()
