"""The board's buttons: ``new``, ``undo``, ``mode`` and ``choose``.

A press wakes a dozing board. While the mover chooses, ``mode`` (or
``choose``) steps the cursor through the options and ``undo`` lets go of the
one picked (:mod:`.cursor`); ``choose`` asks the computer for another move
while it shows one, and draws chance's outcomes when they wait for a press.
Otherwise ``new``, ``undo`` and ``mode`` are the operator's commands of those
names (:mod:`.commands`), but ``new`` and ``mode`` end a game under way only
at a second press within a few seconds: the first asks (:mod:`.confirming`),
the LEDs counting the time down and the status saying what a second press
does; any other press lets the question go. A press that cannot do anything
now is logged with the reason, never raised: a button has no one to answer.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from boardctl.controller import commands
from boardctl.controller.commands import ControllerError
from boardctl.controller.confirming import Asking, ask, confirms
from boardctl.controller.view import Phase

if TYPE_CHECKING:
    from boardctl.controller.machine import Controller

log = logging.getLogger(__name__)

#: the buttons that step through the options of a choice
STEPPERS = ("mode", "choose")
#: the buttons that end a game under way, asking first
ENDING = ("new", "mode")


def press(c: Controller, name: str, now: float) -> None:
    """The button ``name`` pressed at ``now``."""
    c.now = now
    if c.state is Phase.ATTRACT:
        c.fire("wake")
    asked, c.asking = c.asking, None  # a press answers the question, or lets it go
    try:
        if name == "choose" and c.computer_shows_move():
            commands.another(c, now)
        elif c.state is Phase.CHOOSING and name in STEPPERS:
            _step_cursor(c, now)
        elif c.state is Phase.CHOOSING and name == "undo" and c.choice.cursor is not None:
            c.choice.let_go()
        elif name in ENDING and _under_way(c) and not confirms(asked, name, now):
            c.asking = _ask(c, name, now)
            log.info("button %s: %s", name, c.asking.words)
        elif name == "new":
            commands.new(c, None, None, now)
        elif name == "undo":
            commands.undo(c, now)
        elif name == "mode":
            commands.next_variant(c, now)
        elif name == "choose" and c.draws.on_button:
            # chance's next outcomes, drawn once chance acts and the board is right
            c.draws.ask()
        elif name == "choose":
            raise ControllerError("there is nothing to choose now")
        else:
            log.warning("button %r does nothing: the buttons are new, undo, mode and choose", name)
    except ControllerError as exc:
        log.warning("button %s: %s", name, exc)
    c.update(now)


def lapse(c: Controller, now: float) -> None:
    """Time passed: a question no second press answered in time is let go."""
    if c.asking is not None and c.asking.lapsed(now):
        log.info("button %s: not pressed again, the game goes on", c.asking.button)
        c.asking = None


def _under_way(c: Controller) -> bool:
    """A game that a new one would end: an action played, not over."""
    return bool(c.match.actions) and not c.match.outcome().over


def _ask(c: Controller, name: str, now: float) -> Asking:
    if name != "mode":
        return ask(name, now)
    variant = commands.next_options(c)["variant"]  # refused where there is none
    return ask(name, now, f"a game of {c.engine.title or c.engine.name} {variant}")


def _step_cursor(c: Controller, now: float) -> None:
    options = c.offers()
    offer = c.choice.step(options, now)
    if offer is None:
        raise ControllerError("there is nothing to choose now")
    log.info("option %d of %d: %s", (c.choice.cursor or 0) + 1, len(options), offer.text)
