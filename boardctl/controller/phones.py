"""The seats played on a phone: a player away from the board chooses their
move on their private page, and the board shows it for the hands there to
make, as it shows the computer's or another board's. Pure.

:class:`Phones` is the :class:`~boardctl.controller.opponent.Thinker` of the
``phone`` seats: the controller asks it for a seat's turn; the player's page
asks :meth:`Phones.turn` whether it is theirs and which moves they may choose;
their choice comes back as :meth:`Phones.chosen`, an answer to the request
under way, which the loop hands to the controller like the other board's.
"""

from __future__ import annotations

from typing import Any

from boardctl.controller.opponent import RemoteMoved, Think


class NotYourTurn(LookupError):
    """A move chosen on a phone when that seat is not to choose one."""


class Phones:
    """The request for a phone seat's turn under way, if any."""

    def __init__(self) -> None:
        self.pending: Think | None = None

    def ask(self, request: Think) -> None:
        self.pending = request

    def cancel(self) -> None:
        self.pending = None

    def turn(self, seat: int) -> dict[str, Any]:
        """For the page of ``seat``: whether it chooses now, and among which moves."""
        request = self.pending
        if request is None or request.seat != seat:
            return {"seat": seat, "turn": False, "moves": []}
        engine, state = request.engine, request.state
        moves = sorted(engine.format_action(a) for a in engine.legal_actions(state))
        return {"seat": seat, "turn": True, "ply": request.ply, "moves": moves}

    def chosen(self, seat: int, text: str, ply: int | None = None) -> RemoteMoved:
        """``seat``'s move ``text``, as the answer to the request under way;
        :class:`NotYourTurn` when it is not that seat's to choose (or the
        game has moved on since the page was drawn: ``ply``)."""
        request = self.pending
        if request is None or request.seat != seat or (ply is not None and ply != request.ply):
            raise NotYourTurn("it is not your turn to choose a move now")
        engine, state = request.engine, request.state
        legal = {engine.format_action(a) for a in engine.legal_actions(state)}
        if text not in legal:
            raise ValueError(
                f"{text!r} is not a move you may make now; choose one of "
                f"{', '.join(sorted(legal)[:12])}{' ...' if len(legal) > 12 else ''}"
            )
        self.pending = None
        return RemoteMoved(request.id, (text,))
