"""The board's buttons: ``new``, ``undo``, ``mode`` and ``choose``.

A press wakes a dozing board. While the mover chooses, ``mode`` (or
``choose``) steps the cursor through the options and ``undo`` lets go of the
one picked (:mod:`.cursor`); ``choose`` asks the computer for another move
while it shows one, and draws chance's outcomes when they wait for a press.
Otherwise ``new``, ``undo`` and ``mode`` are the operator's commands of those
names (:mod:`.commands`). A press that cannot do anything now is logged with
the reason, never raised: a button has no one to answer.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from boardctl.controller import commands
from boardctl.controller.commands import ControllerError
from boardctl.controller.view import Phase

if TYPE_CHECKING:
    from boardctl.controller.machine import Controller

log = logging.getLogger(__name__)

#: the buttons that step through the options of a choice
STEPPERS = ("mode", "choose")


def press(c: Controller, name: str, now: float) -> None:
    """The button ``name`` pressed at ``now``."""
    c.now = now
    if c.state is Phase.ATTRACT:
        c.fire("wake")
    try:
        if name == "choose" and c.computer_shows_move():
            commands.another(c, now)
        elif c.state is Phase.CHOOSING and name in STEPPERS:
            _step_cursor(c, now)
        elif c.state is Phase.CHOOSING and name == "undo" and c.choice.cursor is not None:
            c.choice.let_go()
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


def _step_cursor(c: Controller, now: float) -> None:
    options = c.offers()
    offer = c.choice.step(options, now)
    if offer is None:
        raise ControllerError("there is nothing to choose now")
    log.info("option %d of %d: %s", (c.choice.cursor or 0) + 1, len(options), offer.text)
