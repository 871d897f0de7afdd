"""Putting the board on its broker beside the daemon's loop (``[mqtt] broker``)."""

from __future__ import annotations

import logging
from typing import Any

from boardctl.board import BoardProfile
from boardctl.config import Config
from boardctl.controller.loop import Loop
from boardctl.fleet import topics
from boardctl.fleet.board import BoardOnBroker
from boardctl.fleet.settings import Connection, connection

log = logging.getLogger(__name__)


def connection_of(config: Config) -> Connection:
    """``[mqtt]`` with its password read; ConfigError naming the key."""
    return connection(config.mqtt, lambda key: config.where.get(("mqtt", key), f"[mqtt] {key}"))


def last_winner(store: Any) -> dict[str, Any] | None:
    """The winner of the last finished game in ``store``, as the state says it."""
    from boardctl.engines import create

    try:
        record = store.record_of()
    except LookupError:
        return None
    result = record.get("result") or {}
    winner = result.get("winner")
    try:
        players = [p.name for p in create(record["game"], record["options"]).board().players]
    except Exception:  # a game this version no longer plays: its seat number alone
        players = []
    return {
        "game": record["game"],
        "winner": winner,
        "name": topics.player_name(players, winner) if winner is not None else "draw",
        "scores": result.get("scores"),
        "at": record.get("ended"),
    }


def start_fleet(
    conn: Connection, profile: BoardProfile, loop: Loop, store: Any = None
) -> BoardOnBroker:
    """The board on the broker of ``conn``, watching ``loop``; ``boardctl
    status`` says whether the broker is reached."""
    board = BoardOnBroker(
        conn,
        profile.name,
        loop.submit,
        last_winner=last_winner(store) if store is not None else None,
    )
    loop.watchers.append(board)
    loop.reports["broker"] = board.health
    board.start()
    log.info(
        "on the broker %s as %s%s",
        conn.broker,
        conn.board_id,
        "" if conn.signed_in else " (anonymous: no commands taken)",
    )
    return board
