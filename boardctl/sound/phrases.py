"""Every sentence the board's voice says, in one place for the translators.

Each function makes one sentence in the current language
(:func:`boardctl.i18n.language`: the board's, where the voice renders it). The
texts are English msgids with named placeholders; the names they are given
(players, pieces, games) are translated as they are filled in. Sites and
moves are the game's notation (``d4``, ``W3``, ``e3-e4``), which reads the
same in every language. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boardctl.i18n import N_, _, ngettext
from boardctl.message import Message


def sentence(text: str) -> str:
    """``text`` as it begins a sentence (the page shows what the voice says)."""
    return text[:1].upper() + text[1:]


def to_play(player: str) -> str:
    """A player at this board is to act: ``Red to play``."""
    return sentence(_("{player} to play").format(player=_(player)))


def scores(player: str, points: int) -> str:
    """``Blue scores 2 points``."""
    return sentence(
        ngettext(
            "{player} scores {points} point", "{player} scores {points} points", points
        ).format(player=_(player), points=points)
    )


def computer_plays(move: str) -> str:
    """The computer's move is lit, for the hands to make: ``The computer plays e3 to e4``."""
    return _("The computer plays {move}").format(move=move)


def board_plays(board: str, move: str) -> str:
    """Another board's player moved, for the hands here to make."""
    return _("The player at {board} plays {move}").format(board=board, move=move)


def move_from_to(start: str, end: str) -> str:
    """A move written ``e3-e4``, as it is said: ``e3 to e4``."""
    return _("{start} to {end}").format(start=start, end=end)


def then(first: str, second: str) -> str:
    """Two actions of one turn, in order."""
    return _("{first}, then {second}").format(first=first, second=second)


def both(first: str, second: str) -> str:
    """Two sites or things together: ``d4 and e5``."""
    return _("{first} and {second}").format(first=first, second=second)


def take_off(piece: str, sites: str) -> str:
    """A piece lies where it must not: ``Take the blue marble off d4``. A
    whole sentence per piece where the game names it (a name alone cannot
    carry the article and case a language gives it: ``den weißen Ring``,
    ``le disque blanc``), else the piece named as it is."""
    said = _SENTENCES.get(_key(piece))
    if said is None:
        return _("Take the {piece} off {sites}", piece=piece, sites=sites)
    take, _put = said
    return _(take, **_params(piece), sites=sites)


def take_pieces_off(sites: str) -> str:
    """Pieces lie where they must not, on several sites."""
    return _("Take the pieces off {sites}").format(sites=sites)


def put_back(piece: str, site: str) -> str:
    """A piece must come back: ``Put the red marble back on c3`` (whole per piece,
    as :func:`take_off`)."""
    said = _SENTENCES.get(_key(piece))
    if said is None:
        return _("Put the {piece} back on {site}", piece=piece, site=site)
    _take, put = said
    return _(put, **_params(piece), site=site)


def _key(piece: str) -> str:
    return piece.msgid if isinstance(piece, Message) else piece


def _params(piece: str) -> dict[str, Any]:
    return dict(piece.params) if isinstance(piece, Message) else {}


#: the two sentences that name a piece, by the piece's name as the game marks it
#: (its message id: a name made of words, ``{player} {kind} leaving {side}``,
#: gives its words to the sentence). tests/test_sound.py checks that every
#: game's every piece has its sentences.
_SENTENCES: dict[str, tuple[str, str]] = {
    # Shiftago
    "blue marble": (
        N_("Take the blue marble off {sites}"),
        N_("Put the blue marble back on {site}"),
    ),
    "red marble": (N_("Take the red marble off {sites}"), N_("Put the red marble back on {site}")),
    "yellow marble": (
        N_("Take the yellow marble off {sites}"),
        N_("Put the yellow marble back on {site}"),
    ),
    "green marble": (
        N_("Take the green marble off {sites}"),
        N_("Put the green marble back on {site}"),
    ),
    # DuploLine
    "white disc": (N_("Take the white disc off {sites}"), N_("Put the white disc back on {site}")),
    "black disc": (N_("Take the black disc off {sites}"), N_("Put the black disc back on {site}")),
    "white ring": (N_("Take the white ring off {sites}"), N_("Put the white ring back on {site}")),
    "black ring": (N_("Take the black ring off {sites}"), N_("Put the black ring back on {site}")),
    "white disc in a white ring": (
        N_("Take the white disc in the white ring off {sites}"),
        N_("Put the white disc in the white ring back on {site}"),
    ),
    "white disc in a black ring": (
        N_("Take the white disc in the black ring off {sites}"),
        N_("Put the white disc in the black ring back on {site}"),
    ),
    "black disc in a white ring": (
        N_("Take the black disc in the white ring off {sites}"),
        N_("Put the black disc in the white ring back on {site}"),
    ),
    "black disc in a black ring": (
        N_("Take the black disc in the black ring off {sites}"),
        N_("Put the black disc in the black ring back on {site}"),
    ),
    # the Bidirectional Line Game
    "amber stick": (
        N_("Take the amber stick off {sites}"),
        N_("Put the amber stick back on {site}"),
    ),
    "blue stick": (N_("Take the blue stick off {sites}"), N_("Put the blue stick back on {site}")),
    # Beeline
    "NODE ({player} side up)": (
        N_("Take the NODE ({player} side up) off {sites}"),
        N_("Put the NODE back on {site}, {player} side up"),
    ),
    "{player} {kind} leaving {side}": (
        N_("Take the {player} {kind} leaving {side} off {sites}"),
        N_("Put the {player} {kind} back on {site}, leaving {side}"),
    ),
    # Linie 1
    "stop sign": (N_("Take the stop sign off {sites}"), N_("Put the stop sign back on {site}")),
    "streetcar of line {number} ({colour})": (
        N_("Take the streetcar of line {number} ({colour}) off {sites}"),
        N_("Put the streetcar of line {number} ({colour}) back on {site}"),
    ),
    "streetcars of lines {lines}": (
        N_("Take the streetcars of lines {lines} off {sites}"),
        N_("Put the streetcars of lines {lines} back on {site}"),
    ),
    "{kind} tile {name}": (
        N_("Take the {kind} tile {name} off {sites}"),
        N_("Put the {kind} tile {name} back on {site}"),
    ),
    "{tile} with {things}": (
        N_("Take the {tile} with {things} off {sites}"),
        N_("Put the {tile} with {things} back on {site}"),
    ),
    "{first} and {second}": (
        N_("Take the {first} and the {second} off {sites}"),
        N_("Put the {first} and the {second} back on {site}"),
    ),
}


def board_differs() -> str:
    """The board is wrong, and no single site says how."""
    return _("The board differs from the game")


def choose(count: int) -> str:
    """Several actions fit the board: the players pick one."""
    return ngettext("Choose one of {count} move", "Choose one of {count} moves", count).format(
        count=count
    )


def wins(player: str) -> str:
    """``Red wins``."""
    return sentence(_("{player} wins").format(player=_(player)))


def draw() -> str:
    return _("The game is a draw")


def game_over() -> str:
    """The game ended with no winner to name."""
    return _("The game is over")


def check() -> str:
    """The sentence an operator's check of the speaker says."""
    return _("This is the board's voice: the speaker works")


def listed(items: Sequence[str]) -> str:
    """``d4``, ``d4 and e5``, ``c3, d4 and e5``."""
    if len(items) <= 1:
        return "".join(items)
    return both(", ".join(items[:-1]), items[-1])
