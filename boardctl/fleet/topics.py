"""The board's topics on the broker and what is published on them. Pure.

Every topic of a board is under ``boardctl/<board id>/``:

- ``availability``: ``online`` while the board is connected; ``offline``, the
  broker's last will, when it is stopped or lost (retained);
- ``state``: the public status as JSON, on every change (retained);
- ``events``: a game started, an action recorded, a game over with the winner
  and the scores, an undo, a command taken or refused (QoS 1);
- ``command``: the control socket's commands, taken only when the board signs
  in as a user (the broker's ACL says who may write there, docs/fleet.md);
- ``results``: the games finished today (retained; :mod:`.venue`);
- ``remote/<other board>``: remote play with that board (:mod:`.remote`).

Nothing here holds a secret: the state is the status every player may read,
the actions are their public texts, the seats carry no seeds.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

ROOT = "boardctl"
ONLINE = "online"
OFFLINE = "offline"
#: the commands the command topic takes: an operator's, without a player's secrets
#: (``private``) and without the lists that answer nobody there (``games``, ``export``)
COMMANDS = frozenset({"status", "new", "undo", "another", "choose", "chance", "play", "press"})
#: the longest command payload taken, in bytes
MAX_COMMAND = 4096


def topic(board_id: str, leaf: str) -> str:
    return f"{ROOT}/{board_id}/{leaf}"


def availability(board_id: str) -> str:
    return topic(board_id, "availability")


def state(board_id: str) -> str:
    return topic(board_id, "state")


def events(board_id: str) -> str:
    return topic(board_id, "events")


def command(board_id: str) -> str:
    return topic(board_id, "command")


def encode(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, default=list).encode()


#: what the state leaves out: the board drawn as text (the pages draw it themselves)
_LEFT_OUT = frozenset({"picture"})


def state_payload(
    board_id: str,
    status: Mapping[str, Any],
    players: list[str],
    last_winner: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """The retained state: the public status, with the words Home Assistant
    shows (whose turn, the scores, the last winner) worked out once here."""
    out = {k: v for k, v in status.items() if k not in _LEFT_OUT}
    out["board_id"] = board_id
    out["players"] = list(players)
    out["turn"] = turn_text(status, players)
    out["scores_text"] = scores_text(status.get("scores"))
    out["last_winner"] = dict(last_winner) if last_winner else None
    # always there, so that a template reading them never meets an undefined value
    out["fault"] = status.get("fault")
    out["fault_kind"] = status.get("fault_kind")
    out["problem"] = bool(status.get("fault"))
    return out


def player_name(players: list[str], seat: Any) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players):
        return players[seat]
    return f"player {seat + 1}" if isinstance(seat, int) else "nobody"


def turn_text(status: Mapping[str, Any], players: list[str]) -> str:
    """Whose turn it is, in words: ``blue`` (its player's name), ``chance``, or ``none``."""
    if status.get("phase") == "game_over" or status.get("winner") is not None:
        return "none"
    if status.get("actor") == "chance":
        return "chance"
    seat = status.get("to_move")
    return player_name(players, seat) if seat is not None else "none"


def scores_text(scores: Any) -> str:
    """``3 : 2``, or ``""`` for a game without scores."""
    if not isinstance(scores, list | tuple) or not scores:
        return ""
    return " : ".join(str(s) for s in scores)


def event(kind: str, at: str, **fields: Any) -> dict[str, Any]:
    """An event: its kind, when (UTC, ISO 8601), and what it says."""
    return {"event": kind, "at": at, **fields}


def parse_command(payload: bytes) -> dict[str, Any]:
    """A command from the command topic: a JSON object naming one of
    :data:`COMMANDS`; ValueError saying what is wrong."""
    if len(payload) > MAX_COMMAND:
        raise ValueError(f"a command is at most {MAX_COMMAND} bytes")
    try:
        body = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ValueError('a command is a JSON object, e.g. {"cmd": "undo"}') from None
    if not isinstance(body, dict):
        raise ValueError('a command is a JSON object, e.g. {"cmd": "undo"}')
    cmd = body.get("cmd")
    if not isinstance(cmd, str) or cmd not in COMMANDS:
        raise ValueError(f"the commands taken here are {', '.join(sorted(COMMANDS))}")
    return body
