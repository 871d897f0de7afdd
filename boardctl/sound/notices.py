"""What the players must hear, from the status the loop publishes each turn.

:func:`listen` compares the status of this turn with what was heard before
(:class:`Heard`) and answers the :class:`Notice` s due: a cue, a sentence,
or both. It notices

- an action accepted (the moves grew), and a score that rose with it;
- a wrong board (the phase turned ``wrong_board``), said as what to do:
  take a piece off a site, or put one back;
- a player at this board (or on a phone) to act (again after a fault);
- a choice to make;
- the computer's (or another board's) move lit for the hands to make;
- the end of the game: who won, or a draw.

Each notice has a ``slot``: a newer notice of the same slot makes an older,
unsaid one stale (a newer "your turn" replaces the older), and when what a
slot speaks of is over (the board is right again) the slot is in
:attr:`Heard.over`, for the worker to drop what it has not said yet.

Turns the hearing could not keep up with are folded (:class:`Unheard`):
:func:`passed` makes what was heard before them what hearing them would
have left for the comparisons with the next turn (its phase, and the turn
to announce forgotten after a fault), so what still matters is said.

The sentences are made later, in the board's language (:class:`Phrase`).
Players are named as everywhere else: by the ``name`` of their seat
(:class:`~boardctl.engines.describe.PlayerSpec`: ``blue``, ``player 2``).
Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from boardctl.sound import phrases
from boardctl.sound.cues import Cue

#: the slots of notices: one of each may wait to be said
TURN = "turn"
ACCEPTED = "accepted"
SCORE = "score"
WRONG = "wrong"
CHOICE = "choice"
COMPUTER = "computer"
END = "end"

#: at most this many sites are named in one sentence
MAX_SITES = 3
#: the phases in which the board does not follow play (the sensors lost)
_FAULTS = frozenset({"fault", "linking"})


@dataclass(frozen=True, slots=True)
class Phrase:
    """A sentence to be made later (in the board's language): one of
    :mod:`.phrases`' functions and its arguments."""

    say: Callable[..., str]
    args: tuple[Any, ...] = ()

    def text(self) -> str:
        return self.say(*self.args)


@dataclass(frozen=True, slots=True)
class Notice:
    """What the players must hear now: a ``cue``, a ``phrase``, or both."""

    slot: str
    cue: Cue | None = None
    phrase: Phrase | None = None


@dataclass(frozen=True, slots=True)
class Board:
    """What the sentences name, besides the status: the players' names by
    seat, the pieces' names by code, and what the sensors see on each site."""

    players: tuple[str, ...] = ()
    pieces: Mapping[str, str] = field(default_factory=dict)
    sensed: Mapping[str, str] = field(default_factory=dict)

    def player(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.players):
            return self.players[seat]
        return f"player {seat + 1}" if isinstance(seat, int) else "player"

    def piece(self, code: str | None) -> str:
        return self.pieces.get(code or "", "piece")


@dataclass(frozen=True, slots=True)
class Heard:
    """What was heard of the game so far (what :func:`listen` compares with)."""

    game: str = ""
    options: Any = None
    moves: int = 0
    phase: str = ""
    #: (moves, seat) of the turn last announced (kept while a move is under way)
    turn: tuple[int, int] | None = None
    #: the computer's (or other board's) move last announced
    computer: tuple[str, ...] = ()
    scores: tuple[Any, ...] = ()
    ended: bool = False
    #: slots whose subject is over: what waits in them is stale
    over: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Unheard:
    """Turns that passed without being heard: the ``phase`` of the last of
    them, and whether the board was not followed (a fault) in any."""

    phase: str
    fault: bool = False

    @classmethod
    def folded(cls, earlier: Unheard | None, phase: str) -> Unheard:
        """``earlier`` unheard turns, then one more in ``phase``."""
        return cls(phase, phase in _FAULTS or (earlier is not None and earlier.fault))


def passed(before: Heard | None, unheard: Unheard) -> Heard | None:
    """What was heard, after ``unheard`` turns: the next turn is compared
    with the phase they ended in (a wrong board after them is said again), and
    a fault among them forgot the turn announced (said anew when play
    resumes). What the next turn says by value (moves, scores, the computer's
    move, the end) is compared with what was heard before them: an action
    accepted meanwhile is still noticed, a wrong board come and gone is not
    (it would be stale)."""
    if before is None:
        return None
    return replace(before, phase=unheard.phase, turn=None if unheard.fault else before.turn)


def listen(
    before: Heard | None, status: Mapping[str, Any], board: Board
) -> tuple[Heard, tuple[Notice, ...]]:
    """What is heard in ``status`` after ``before`` (None: the board has just
    started, and nothing is said of what it finds)."""
    moves = len(status.get("moves") or ())
    phase = str(status.get("phase") or "")
    game, options = str(status.get("game") or ""), status.get("options")
    scores = tuple(status.get("scores") or ())
    ended = status.get("status") in ("won", "draw")
    computer = _computer_move(status)
    turn = _turn(status, moves)
    if before is None:
        return Heard(game, options, moves, phase, turn, computer, scores, ended), ()
    same_game = (game, options) == (before.game, before.options) and not (
        moves == 0 and before.moves > 0
    )
    # the turn last announced stays so while a move is under way or the board
    # is wrong: it is not announced again when the board comes back to it; a
    # fault forgets it (its unsaid words went stale): said anew when play resumes
    kept = turn if turn is not None else (before.turn if same_game else None)
    if phase in _FAULTS:
        kept = None
    notices: list[Notice] = []
    over: set[str] = set()
    if same_game and moves > before.moves:
        notices.append(Notice(ACCEPTED, Cue.ACCEPTED))
        notices.extend(_scored(before.scores, scores, board))
    if phase == "wrong_board" and before.phase != "wrong_board":
        notices.append(Notice(WRONG, Cue.WRONG, _what_is_wrong(status, board)))
    elif phase != "wrong_board":
        over.add(WRONG)
    if phase == "choosing" and before.phase != "choosing":
        count = len(status.get("choices") or ())
        notices.append(Notice(CHOICE, Cue.CHOOSE, Phrase(phrases.choose, (max(count, 2),))))
    elif phase != "choosing":
        over.add(CHOICE)
    if computer and computer != (before.computer if same_game else ()):
        notices.append(Notice(COMPUTER, Cue.COMPUTER, _computer_phrase(status, computer)))
    elif not computer:
        over.add(COMPUTER)
    if turn is not None and turn != before.turn and not ended:
        notices.append(
            Notice(TURN, Cue.YOUR_TURN, Phrase(phrases.to_play, (board.player(turn[1]),)))
        )
    elif turn is None:
        over.add(TURN)
    if ended and not (before.ended and same_game):
        notices.append(Notice(END, Cue.WIN, _end_phrase(status, board)))
    elif not ended:
        over.add(END)
    heard = Heard(game, options, moves, phase, kept, computer, scores, ended, frozenset(over))
    return heard, tuple(notices)


def _turn(status: Mapping[str, Any], moves: int) -> tuple[int, int] | None:
    """(moves, seat) when a player at this board, or on a phone, is to act."""
    seat = status.get("to_move")
    if status.get("phase") != "awaiting_move" or not isinstance(seat, int):
        return None
    if status.get("computer") is not None:
        return None  # the computer's seat: its move is announced when it is lit
    remote = status.get("remote")
    if remote is not None and not remote.get("phone"):
        return None  # a player at another board: their move is announced when it comes
    return moves, seat


def _computer_move(status: Mapping[str, Any]) -> tuple[str, ...]:
    """The computer's (or other board's) move lit for the hands, if any."""
    seat = status.get("computer") or status.get("remote")
    if not isinstance(seat, Mapping) or seat.get("doing") != "ready" or seat.get("phone"):
        return ()
    return tuple(str(m) for m in seat.get("moves") or ())


_FROM_TO = re.compile(r"^(.*?)([A-Za-z]+\d+)-([A-Za-z]+\d+)$")


def spoken(move: str) -> str:
    """A move as it is said: ``e3-e4`` is ``e3 to e4`` (in the board's language)."""
    m = _FROM_TO.match(move)
    if m is None:
        return move
    return m.group(1) + phrases.move_from_to(m.group(2), m.group(3))


def _say_moves(moves: Sequence[str]) -> str:
    said = spoken(moves[0])
    for move in moves[1:]:
        said = phrases.then(said, spoken(move))
    return said


def _computer_phrase(status: Mapping[str, Any], moves: tuple[str, ...]) -> Phrase:
    remote = status.get("remote")
    if isinstance(remote, Mapping) and remote.get("board"):
        return Phrase(_board_plays, (str(remote["board"]), moves))
    return Phrase(_computer_plays, (moves,))


def _computer_plays(moves: tuple[str, ...]) -> str:
    return phrases.computer_plays(_say_moves(moves))


def _board_plays(board: str, moves: tuple[str, ...]) -> str:
    return phrases.board_plays(board, _say_moves(moves))


def _scored(before: tuple[Any, ...], after: tuple[Any, ...], board: Board) -> list[Notice]:
    if len(before) != len(after):
        return []
    out = []
    for seat, (old, new) in enumerate(zip(before, after, strict=True)):
        if isinstance(old, int) and isinstance(new, int) and new > old:
            out.append(Notice(SCORE, None, Phrase(phrases.scores, (board.player(seat), new - old))))
    return out


def _what_is_wrong(status: Mapping[str, Any], board: Board) -> Phrase:
    offending = sorted(str(s) for s in status.get("offending") or ())
    restore = status.get("restore") or {}
    if offending:
        sites = offending[:MAX_SITES]
        pieces = {board.sensed.get(s) for s in sites}
        if len(pieces) == 1:
            return Phrase(_take_off, (board.piece(pieces.pop()), tuple(sites)))
        return Phrase(_take_pieces_off, (tuple(sites),))
    if isinstance(restore, Mapping) and restore:
        site = sorted(restore)[0]
        return Phrase(phrases.put_back, (board.piece(str(restore[site])), str(site)))
    return Phrase(phrases.board_differs)


def _take_off(piece: str, sites: tuple[str, ...]) -> str:
    return phrases.take_off(piece, phrases.listed(sites))


def _take_pieces_off(sites: tuple[str, ...]) -> str:
    return phrases.take_pieces_off(phrases.listed(sites))


def _end_phrase(status: Mapping[str, Any], board: Board) -> Phrase:
    winner = status.get("winner")
    if isinstance(winner, int):
        return Phrase(phrases.wins, (board.player(winner),))
    if status.get("status") == "draw":
        return Phrase(phrases.draw)
    return Phrase(phrases.game_over)
