"""The typed events that every sensor source hands the controller.

A source (the serial link to a microcontroller, GPIO pins, 74HC165 chains, the
control buttons) turns what it reads into these values and passes each one to
an ``emit`` callable. It never touches the controller's state: the controller's
loop takes events from a queue, one at a time.

Readings are raw: a *channel* is a sensor's index on its source and a *value*
is what that sensor reads (0 = nothing there, 1 = something there on a
presence-only sensor, any other number a piece code). The board profile maps
channels to sites and values to pieces.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class SensorChange:
    """One sensor changed its reading."""

    channel: int
    value: int


@dataclass(frozen=True, slots=True)
class SensorSnapshot:
    """Every sensor's reading at once; replaces whatever was known before."""

    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LinkUp:
    """The sensors answer; a snapshot follows (or came with it)."""

    description: str = ""


@dataclass(frozen=True, slots=True)
class LinkDown:
    """The sensors stopped answering; readings are unknown until the next LinkUp."""

    reason: str


@dataclass(frozen=True, slots=True)
class ButtonPress:
    """An operator's button: ``"new"``, ``"undo"``, ``"mode"``."""

    button: str


SensorEvent = SensorChange | SensorSnapshot | LinkUp | LinkDown | ButtonPress

#: what a source calls with each event; must be cheap and thread-safe
Emit = Callable[[SensorEvent], None]


class SensorSource(Protocol):
    """Anything that reads the board and emits :data:`SensorEvent` values.

    ``start`` begins reading (threads or callbacks of its own); ``close`` stops
    and releases pins or ports. Sources are context managers.
    """

    def start(self, emit: Emit) -> None: ...

    def close(self) -> None: ...
