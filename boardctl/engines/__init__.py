"""The rules engines, one package per game.

A game is a package ``boardctl/engines/<name>/`` whose ``__init__`` exports
``ENGINE``, its :class:`Engine` subclass (with ``name`` equal to the package's
name). :data:`GAMES` lists the packages found here without importing them, and
``create("shiftago", players=3, variant="expert")`` imports only the game asked
for. Adding a game adds a package; nothing here names one.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from collections.abc import Mapping
from typing import Any

from boardctl.engines.base import CHANCE, Actor, Chance, Engine, Outcome, Status
from boardctl.engines.describe import BoardSpec, PieceSpec, PlayerSpec, SiteSpec
from boardctl.engines.match import Match, ReplayError
from boardctl.errors import UnknownGame, excerpt

__all__ = [
    "CHANCE",
    "GAMES",
    "Actor",
    "BoardSpec",
    "Chance",
    "Engine",
    "Match",
    "Outcome",
    "PieceSpec",
    "PlayerSpec",
    "ReplayError",
    "SiteSpec",
    "Status",
    "create",
    "engine_class",
    "most_players",
]


def _discover() -> tuple[str, ...]:
    return tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg))


#: the name of every game with an engine, sorted
GAMES: tuple[str, ...] = _discover()


def engine_class(game: str) -> type[Engine[Any, Any]]:
    """The engine class of ``game``; :class:`UnknownGame` naming the games if
    there is none."""
    if game not in GAMES:
        raise UnknownGame(f"unknown game {excerpt(game)}; the games are {', '.join(GAMES)}")
    module = importlib.import_module(f"{__name__}.{game}")
    cls: type[Engine[Any, Any]] = module.ENGINE
    if cls.name != game:
        raise UnknownGame(f"the engine package {game!r} declares the game {cls.name!r}")
    return cls


def create(game: str, options: Mapping[str, Any] | None = None, **kwargs: Any) -> Engine[Any, Any]:
    """The engine for ``game`` with the given options (a mapping, keywords or both)."""
    merged = dict(options or {})
    merged.update(kwargs)
    return engine_class(game).from_options(merged)


#: the player counts tried when looking for the most a game seats
_SEATS = range(1, 9)


def most_players(game: str, options: Mapping[str, Any] | None = None) -> int:
    """The most players ``game`` seats with ``options`` otherwise: its
    ``players`` option tried up to 8 (a game without one seats what it
    declares). Raises what :func:`create` raises for options it refuses."""
    opts = dict(options or {})
    engine = create(game, opts)
    cls = getattr(type(engine), "Options", None)
    if cls is None or "players" not in {f.name for f in dataclasses.fields(cls)}:
        return engine.players
    most = engine.players
    for players in _SEATS:
        if players > most:
            try:
                create(game, {**opts, "players": players})
            except ValueError:
                continue
            most = players
    return most
