"""Putting the board on its broker beside the daemon's loop (``[mqtt] broker``)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from boardctl.board import BoardProfile
from boardctl.config import Config
from boardctl.controller.loop import Loop
from boardctl.controller.machine import ControllerError
from boardctl.fleet import topics
from boardctl.fleet.board import BoardOnBroker
from boardctl.fleet.remote import RemoteLink
from boardctl.fleet.settings import Connection, connection
from boardctl.fleet.venue import SUBSCRIPTIONS as VENUE_SUBSCRIPTIONS
from boardctl.fleet.venue import Venue, local_day, result_of

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


def today_results(store: Any, limit: int = 100) -> list[dict[str, Any]]:
    """The games of ``store`` finished today (local date), newest first, as the
    retained results say them."""
    from datetime import date

    from boardctl.engines import create

    out = []
    for game in store.games(limit):
        if game.get("status") != "finished" or local_day(game.get("ended")) != date.today():
            continue
        try:
            record = store.record_of(game["id"])
            players = [p.name for p in create(record["game"], record["options"]).board().players]
        except Exception:  # a game this version no longer plays: its seat numbers alone
            record, players = {"result": None}, []
        result = record.get("result") or {}
        out.append(
            result_of(
                str(game["game"]),
                str(game["ended"]),
                result.get("winner"),
                players,
                result.get("scores"),
                int(game.get("moves") or 0),
            )
        )
    return out


def start_fleet(
    conn: Connection,
    profile: BoardProfile,
    loop: Loop,
    store: Any = None,
    remote: RemoteLink | None = None,
    stats: Any = None,
) -> BoardOnBroker:
    """The board on the broker of ``conn``, watching ``loop``; ``boardctl
    status`` says whether the broker is reached. With ``remote`` (the
    controller's link for the seats played at other boards), remote play:
    its messages, its report, ``accept`` and ``decline``."""
    venue = Venue()

    def other(topic: str, payload: bytes) -> None:
        if not venue.received(topic, payload) and remote is not None:
            remote.received(topic, payload)

    board = BoardOnBroker(
        conn,
        profile.name,
        loop.submit,
        last_winner=last_winner(store) if store is not None else None,
        results=today_results(store) if store is not None else None,
        stats=stats,
        extra_subscriptions=(
            *VENUE_SUBSCRIPTIONS,
            *((remote.subscription,) if remote is not None else ()),
        ),
        on_other=other,
        on_connect=remote.on_connect if remote is not None else None,
    )
    board.venue = venue
    loop.watchers.append(board)
    loop.reports["broker"] = board.health
    if remote is not None:
        _remote_play(remote, board, loop)
    board.start()
    log.info(
        "on the broker %s as %s%s",
        conn.broker,
        conn.board_id,
        "" if conn.signed_in else " (anonymous: no commands taken)",
    )
    return board


def _remote_play(remote: RemoteLink, board: BoardOnBroker, loop: Loop) -> None:
    """Remote play beside the loop: the link's records go out retained, one
    topic each (the latest replaces one still waiting), the other boards'
    turns come in as the loop's events."""

    def publish(topic: str, payload: bytes) -> None:
        board.client.publish(topic, payload, qos=1, retain=True, key=topic)

    def board_named(body: Mapping[str, Any]) -> str | None:
        name = body.get("board")
        if name is not None and not isinstance(name, str):
            raise ControllerError("'board' must be the inviting board's id, e.g. \"table-2\"")
        return name

    def accept(body: Mapping[str, Any], now: float) -> dict[str, Any]:
        try:
            game, options, seats = remote.accept(board_named(body))
        except LookupError as exc:
            raise ControllerError(str(exc)) from None
        loop.controller.new(game, dict(options), now, seats)
        return loop.controller.status()

    def decline(body: Mapping[str, Any], now: float) -> dict[str, Any]:
        name = board_named(body)
        if name is None:
            raise ControllerError("name the board whose invitation to decline")
        try:
            remote.decline(name)
        except LookupError as exc:
            raise ControllerError(str(exc)) from None
        return {"declined": name}

    remote.attach(loop.emit, publish)
    loop.watchers.append(remote)
    loop.reports["remote_play"] = remote.report
    loop.commands["accept"] = accept
    loop.commands["decline"] = decline
    loop.adopt = remote.adopt
