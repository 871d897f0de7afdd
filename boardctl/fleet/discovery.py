"""Home Assistant's MQTT discovery: the board as one device. Pure.

Home Assistant reads a retained config message per entity under
``<prefix>/<component>/<node>/<object>/config``; each entity reads the board's
retained ``state`` through a template and is unavailable while the board's
``availability`` says ``offline``. The buttons publish the control socket's
commands on the board's command topic (taken only from a signed-in user).
"""

from __future__ import annotations

from typing import Any

from boardctl.fleet import topics

#: the entities: object id, component, name, and the component's own keys
_SENSORS: tuple[tuple[str, str, str, dict[str, Any]], ...] = (
    (
        "game",
        "sensor",
        "Game",
        {
            "value_template": "{{ value_json.game }}",
            "json_attributes_topic": "",  # filled in: the state itself
            "json_attributes_template": (
                "{{ {'phase': value_json.phase, 'moves': value_json.moves | count, "
                "'options': value_json.options} | tojson }}"
            ),
            "icon": "mdi:checkerboard",
        },
    ),
    (
        "phase",
        "sensor",
        "Phase",
        {"value_template": "{{ value_json.phase }}", "icon": "mdi:state-machine"},
    ),
    (
        "turn",
        "sensor",
        "Whose turn",
        {"value_template": "{{ value_json.turn }}", "icon": "mdi:account-arrow-right"},
    ),
    (
        "scores",
        "sensor",
        "Scores",
        {"value_template": "{{ value_json.scores_text }}", "icon": "mdi:scoreboard"},
    ),
    (
        "last_winner",
        "sensor",
        "Last winner",
        {
            "value_template": (
                "{{ value_json.last_winner.name if value_json.last_winner else 'none' }}"
            ),
            "icon": "mdi:trophy",
        },
    ),
    (
        "fault",
        "binary_sensor",
        "Fault",
        {
            "device_class": "problem",
            "value_template": "{{ 'ON' if value_json.problem else 'OFF' }}",
            "payload_on": "ON",
            "payload_off": "OFF",
            "json_attributes_topic": "",
            "json_attributes_template": "{{ {'fault': value_json.fault} | tojson }}",
        },
    ),
)
_BUTTONS: tuple[tuple[str, str, str, str], ...] = (
    ("new_game", "New game", '{"cmd":"new"}', "mdi:restart"),
    ("undo", "Undo", '{"cmd":"undo"}', "mdi:undo"),
)


def node(board_id: str) -> str:
    """The board's node id in discovery topics (an id may hold ``-``, a node id not)."""
    return "boardctl_" + board_id.replace("-", "_")


def device(board_id: str, model: str, version: str) -> dict[str, Any]:
    return {
        "identifiers": [node(board_id)],
        "name": f"boardctl {board_id}",
        "manufacturer": "boardctl",
        "model": model,
        "sw_version": version,
    }


def messages(
    prefix: str, board_id: str, model: str, version: str, commands: bool
) -> list[tuple[str, dict[str, Any]]]:
    """Every discovery message ``(topic, payload)`` of the board; the buttons
    only where the board takes ``commands``."""
    state = topics.state(board_id)
    common = {
        "availability_topic": topics.availability(board_id),
        "payload_available": topics.ONLINE,
        "payload_not_available": topics.OFFLINE,
        "device": device(board_id, model, version),
    }
    out: list[tuple[str, dict[str, Any]]] = []
    for object_id, component, name, extra in _SENSORS:
        payload = {
            "name": name,
            "unique_id": f"{node(board_id)}_{object_id}",
            "object_id": f"{node(board_id)}_{object_id}",
            "state_topic": state,
            **common,
            **extra,
        }
        if "json_attributes_topic" in payload:
            payload["json_attributes_topic"] = state
        out.append((f"{prefix}/{component}/{node(board_id)}/{object_id}/config", payload))
    for object_id, name, press, icon in _BUTTONS:
        config_topic = f"{prefix}/button/{node(board_id)}/{object_id}/config"
        if not commands:
            continue
        out.append(
            (
                config_topic,
                {
                    "name": name,
                    "unique_id": f"{node(board_id)}_{object_id}",
                    "object_id": f"{node(board_id)}_{object_id}",
                    "command_topic": topics.command(board_id),
                    "payload_press": press,
                    "icon": icon,
                    **common,
                },
            )
        )
    return out


def button_topics(prefix: str, board_id: str) -> list[str]:
    """The buttons' config topics (emptied when the board takes no commands)."""
    return [f"{prefix}/button/{node(board_id)}/{b[0]}/config" for b in _BUTTONS]
