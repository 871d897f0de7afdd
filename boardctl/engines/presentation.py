"""What a game shows people: the task in words, the board drawn as text, the
sites lit for the players, and what may be shown at all.

``boardctl.controller.present`` reads it once a turn to build the view (for the
LED scenes) and the status (for ``boardctl status``, the simulator's screen and
the web pages); ``boardctl rules show`` prints :meth:`Presentation.render`; the
control socket answers a player's own :meth:`Presentation.private_view`.

Terms:

* **public view**: what every player may see. A game with secrets (hidden
  cards) sets :attr:`Presentation.has_secrets` and answers
  :meth:`Presentation.public_view`, :meth:`Presentation.public_render` and
  :meth:`~.notation.Notation.public_action` without them; everything shown to
  the room (LEDs, status, screens, logs, records of unfinished games) is built
  from those.
"""

from __future__ import annotations

import abc
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from boardctl.engines.describe import PlayerSites

if TYPE_CHECKING:
    from boardctl.engines.rules import Outcome

S = TypeVar("S")
A = TypeVar("A")


class Presentation(abc.ABC, Generic[S, A]):
    """What a game shows the room, and what it keeps from it."""

    def task(self, state: S) -> str:
        """What the actor must do next, in words that follow "player 1 to"
        ("insert a marble", "play a disc or a ring action"); an engine names
        its own phases here."""
        return "nothing" if self.outcome(state).over else "act"

    @abc.abstractmethod
    def render(self, state: S) -> str:
        """The board drawn as plain text for a terminal."""

    def player_sites(self, state: S) -> tuple[PlayerSites, ...]:
        """Per seat, the sites to show in that player's colour whatever move
        is awaited (where their line goes on, the line itself); empty by
        default. Public: it must not tell a secret."""
        return ()

    def winning_sites(self, state: S) -> frozenset[str]:
        """The sites to light for the winner once the game is over (their
        line); empty when the game names none (the controller then lights the
        last move)."""
        return frozenset()

    def shown(self, state: S) -> frozenset[str]:
        """The display sites to light now (kind ``"display"``: LEDs only),
        public information such as the die's face, lit in the colour of the
        player to act; empty by default. Public: it must not tell a secret."""
        return frozenset()

    #: the game's name as people write it ("Linie 1"); empty: its ``name``
    title: ClassVar[str] = ""
    #: the game in a sentence or two for a visitor, shown by the pages
    summary: ClassVar[str] = ""

    # -- hidden information -------------------------------------------------
    #: whether any state of this game holds something not every player may see
    has_secrets: ClassVar[bool] = False

    def hints_public(self, state: S) -> bool:
        """Whether the room may see where the player to act may act in
        ``state`` (the legal actions' highlights, the destinations of a move
        under way): false where they would tell a secret. By default, in any
        game without secrets."""
        return not self.has_secrets

    def public_view(self, state: S) -> dict[str, Any]:
        """The state as every player may see it, JSON-ready. Two states that
        differ only in a secret give equal public views."""
        return self.state_to_json(state)

    def private_view(self, state: S, player: int) -> dict[str, Any]:
        """What ``player`` alone may see (their cards), JSON-ready; empty for
        a game without secrets."""
        return {}

    def public_render(self, state: S) -> str:
        """The board drawn as text with no secret in it (:meth:`render` may
        draw everything)."""
        return self.render(state)

    if TYPE_CHECKING:
        # of another concern, used by the defaults above (see boardctl.engines.base)
        @abc.abstractmethod
        def outcome(self, state: S) -> Outcome: ...

        @abc.abstractmethod
        def state_to_json(self, state: S) -> dict[str, Any]: ...
