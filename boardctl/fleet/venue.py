"""A venue's boards on one screen: what every board on the broker says.

Each board publishes, retained, its state (``boardctl/<id>/state``), whether
it is online (``availability``) and the games it finished today
(``results``: :func:`results_payload`). :class:`Venue` subscribes to the three
for every board and keeps the latest of each, bounded: at most
:data:`MAX_BOARDS` boards, each message read only when it is one. The web
server's ``/venue`` page reads :meth:`Venue.snapshot`: every board (its game,
whose turn, the scores, a fault), today's results newest first with the
winner named, and a leaderboard (wins by player colour, per game).

Called from the broker client's thread (``received``) and the web server's
(``snapshot``): a lock guards the little it keeps.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any

from boardctl.fleet import topics
from boardctl.fleet.settings import BOARD_ID
from boardctl.stats import merge

#: boards kept; a venue's further boards are not shown (and logged once)
MAX_BOARDS = 64
#: finished games a board says for today, and the venue shows
MAX_RESULTS = 100
#: the state's fields the venue shows
_SHOWN = (
    "game",
    "phase",
    "turn",
    "scores_text",
    "players",
    "winner",
    "fault",
    "last_winner",
    "moves",
)

_LEAVES = ("state", "availability", "results", "stats")
SUBSCRIPTIONS = tuple(topics.topic("+", leaf) for leaf in _LEAVES)


def results(board_id: str) -> str:
    return topics.topic(board_id, "results")


def stats(board_id: str) -> str:
    """The board's statistics (:func:`boardctl.stats.summary`), retained."""
    return topics.topic(board_id, "stats")


def result_of(
    game: str, ended: str, winner: Any, players: list[str], scores: Any, moves: int
) -> dict[str, Any]:
    """One finished game as the results say it: the winner named (``draw``)."""
    return {
        "game": game,
        "ended": ended,
        "winner": winner,
        "winner_name": topics.player_name(players, winner) if winner is not None else "draw",
        "scores": scores,
        "moves": moves,
    }


def results_payload(board_id: str, day: date, games: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The retained results of ``board_id``: its games finished on ``day`` (its
    local date), newest first, at most :data:`MAX_RESULTS`."""
    return {"board": board_id, "day": day.isoformat(), "games": list(games)[:MAX_RESULTS]}


def _utc(text: Any) -> datetime | None:
    try:
        when = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def local_day(text: Any) -> date | None:
    """The local date of a UTC time written ``2026-11-26T18:02:11Z``, or None."""
    when = _utc(text)
    return when.astimezone().date() if when is not None else None


class Venue:
    """The latest state, availability and results of every board on the broker."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._boards: dict[str, dict[str, Any]] = {}
        self.ignored = 0

    def received(self, topic: str, payload: bytes) -> bool:
        """Take a message if it is a board's state, availability or results;
        whether it was one."""
        parts = topic.split("/")
        if len(parts) != 3 or parts[0] != topics.ROOT or not BOARD_ID.fullmatch(parts[1]):
            return False
        board, leaf = parts[1], parts[2]
        if leaf not in _LEAVES:
            return False
        value: Any
        if leaf == "availability":
            value = payload.strip() == topics.ONLINE.encode()
        elif not payload:
            value = None  # a retained message cleared
        else:
            try:
                value = json.loads(payload)
            except (UnicodeDecodeError, ValueError):
                return True
            if not isinstance(value, dict):
                return True
        with self._lock:
            known = self._boards.get(board)
            if known is None:
                if len(self._boards) >= MAX_BOARDS:
                    self.ignored += 1
                    return True
                known = self._boards[board] = {}
            if leaf == "state" and value is not None:
                value = {k: value.get(k) for k in _SHOWN}
            known[leaf] = value
        return True

    def stats(self, today: date) -> dict[str, Any]:
        """The statistics of every board added up (the venue's plots)."""
        with self._lock:
            said = [b.get("stats") for b in self._boards.values()]
        return merge((s for s in said if isinstance(s, dict)), today)

    def snapshot(self, today: date | None = None) -> dict[str, Any]:
        """Every board, today's results across them (``today``, the local date:
        a board off since yesterday still has yesterday's retained), and the
        leaderboard of those."""
        day = today if today is not None else date.today()
        with self._lock:
            boards = {k: dict(v) for k, v in self._boards.items()}
        shown = []
        finished: list[dict[str, Any]] = []
        for board_id in sorted(boards):
            known = boards[board_id]
            state = known.get("state") or {}
            moves = state.get("moves")
            shown.append(
                {
                    "board": board_id,
                    "online": bool(known.get("availability")),
                    "game": state.get("game"),
                    "phase": state.get("phase"),
                    "turn": state.get("turn"),
                    "scores": state.get("scores_text") or "",
                    "moves": len(moves) if isinstance(moves, list) else 0,
                    "fault": state.get("fault"),
                }
            )
            said = known.get("results") or {}
            games = said.get("games") if isinstance(said, dict) else None
            for game in games if isinstance(games, list) else []:
                if isinstance(game, dict) and local_day(game.get("ended")) == day:
                    finished.append({**game, "board": board_id})
        finished.sort(key=lambda g: _utc(g["ended"]) or datetime.min, reverse=True)
        return {
            "boards": shown,
            "results": finished[:MAX_RESULTS],
            "leaderboard": leaderboard(finished),
        }


def leaderboard(finished: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Wins by player (colour) in each game, most first; draws apart."""
    wins: dict[tuple[str, str], int] = {}
    played: dict[str, int] = {}
    for game in finished:
        name = str(game.get("game"))
        played[name] = played.get(name, 0) + 1
        if game.get("winner") is not None:
            key = (name, str(game.get("winner_name")))
            wins[key] = wins.get(key, 0) + 1
    ranked = sorted(wins.items(), key=lambda item: (item[0][0], -item[1], item[0][1]))
    return [{"game": g, "player": p, "wins": n, "games": played[g]} for (g, p), n in ranked]
