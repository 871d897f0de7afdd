"""The rules engines, looked up by game name.

``create("shiftago", players=3, variant="expert")`` builds an engine. Each
engine module is imported only when its game is asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from boardctl.engines.base import Engine, Outcome, Status
from boardctl.engines.match import Match, ReplayError
from boardctl.errors import UnknownGame

__all__ = ["GAMES", "Engine", "Match", "Outcome", "ReplayError", "Status", "create"]


def _duploline(options: Mapping[str, Any]) -> Engine[Any, Any]:
    from boardctl.engines.duploline import DuploLine

    return DuploLine.from_options(options)


def _shiftago(options: Mapping[str, Any]) -> Engine[Any, Any]:
    from boardctl.engines.shiftago import Shiftago

    return Shiftago.from_options(options)


#: game name -> factory taking the options mapping
GAMES: Mapping[str, Callable[[Mapping[str, Any]], Engine[Any, Any]]] = {
    "duploline": _duploline,
    "shiftago": _shiftago,
}


def create(game: str, options: Mapping[str, Any] | None = None, **kwargs: Any) -> Engine[Any, Any]:
    """The engine for ``game`` with the given options (a mapping, keywords or both)."""
    try:
        factory = GAMES[game]
    except KeyError:
        raise UnknownGame(
            f"unknown game {game!r}; the games are {', '.join(sorted(GAMES))}"
        ) from None
    merged = dict(options or {})
    merged.update(kwargs)
    return factory(merged)
