"""What the simulator shows: a pure function of the controller's status, the
LED frame and the screen's layout.

The screen has the LED picture (each site in its LED's colour, laid out as the
board is) beside the game board as the rules engine draws it, then whose turn
it is and what is expected, the scores, what the controller says about the
board (the sites to fix, the candidates of an ambiguous board, a takeback on
offer, the winner) and a note from the last command.
"""

from __future__ import annotations

import functools
import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boardctl.board import BoardProfile
from boardctl.controller.view import (
    Fault,
    fault_words,
    phase_words,
    take_off,
    tell_again,
    tell_it,
)
from boardctl.engines import BoardSpec
from boardctl.engines.describe import seat_words
from boardctl.errors import BoardctlError
from boardctl.i18n import N_, _, translate
from boardctl.message import then_list
from boardctl.sim.board import example_piece, piece_word, spec_of

RGB = tuple[int, int, int]

_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")

#: the operator's commands
BOARD_HELP = N_("board: new [GAME] [key=value] | undo | another | status | help | quit")


def game_spec(status: Mapping[str, Any]) -> BoardSpec | None:
    """The board, pieces and players of the game ``status`` reports, or None
    when it names no game this program has."""
    try:
        return spec_of(str(status["game"]), status.get("options") or {})
    except (BoardctlError, KeyError, TypeError, ValueError):
        return None


def command_help(spec: BoardSpec | None, mover: int | None = None) -> tuple[str, str]:
    """The two help lines under the screen: what hands can do in this game
    (read from its board: tracks to insert into, pieces made of parts, cells
    with neighbours), with the piece of the player to move (``mover``) as the
    example, and the operator's commands."""
    if spec is None:
        return _("hands: place d4 PIECE | lift d4 | move d4 e4"), _(BOARD_HELP)

    cells = [s for s in spec.sites if s.kind not in ("track", "display")]
    tracks = [s for s in spec.sites if s.kind == "track" and s.path]
    own = spec.player_piece(mover) if mover is not None else None
    word = piece_word(spec, own.code) if own is not None else example_piece(spec)
    cell = cells[len(cells) // 2] if cells else None
    items = []
    if tracks:
        items.append(f"insert {tracks[0].name} [{word}]")
    if cell is not None:
        items.append(f"place {cell.name} {word}")
        if cell.neighbours:
            items.append(f"move {cell.name} {cell.neighbours[0]}")
        parts: list[str] = []
        for piece in spec.pieces:
            for code in piece.parts:
                single = spec.piece(code)
                last = (single.name if single is not None else code).split()[-1]
                if last not in parts:
                    parts.append(last)
        if len(parts) > 4:  # a Linie 1 tile, its sign and its streetcars: too many to list
            parts = ["PART"]
        items.append(f"lift {cell.name}" + (f" [{'|'.join(parts)}]" if parts else ""))
        if len(cells) >= 3 and not cell.neighbours:
            items.append("remove " + " ".join(c.name for c in cells[:3]))
    # the commands as they are typed; only the words around them translated
    return _("hands: {commands}", commands=" | ".join(items)), _(BOARD_HELP)


@dataclass(frozen=True, slots=True)
class Layout:
    """How the screen is laid out: the board's profile, a title, the number of
    lines the screen always fills and the columns no line goes beyond (0: as
    many as it needs)."""

    profile: BoardProfile
    title: str = "boardctl sim"
    height: int = 0
    width: int = 0
    #: what people are told about lights that are not the colour of the
    #: pieces (the palette's note: "black is lit blue: ...")
    note: str = ""
    #: columns between the LED picture and the game board
    gap: int = 4


def visible_width(text: str) -> int:
    """The columns ``text`` takes in a terminal (colour escapes take none)."""
    return len(_ESCAPE.sub("", text))


def clip(text: str, width: int) -> str:
    """``text`` cut after ``width`` visible columns (colour escapes kept whole)."""
    if visible_width(text) <= width:
        return text
    out, seen, at = [], 0, 0
    for escape in _ESCAPE.finditer(text):
        plain = text[at : escape.start()]
        take = plain[: max(0, width - seen)]
        out.append(take)
        seen += len(take)
        out.append(escape.group())
        at = escape.end()
    out.append(text[at:][: max(0, width - seen)])
    return "".join(out) + ("\x1b[0m" if _ESCAPE.search(text) else "")


def fit_width(line: str, width: int) -> list[str]:
    """``line`` as lines of at most ``width`` columns: text wraps (indented
    under itself), a line with colours (the LED picture) is cut."""
    if not width or visible_width(line) <= width:
        return [line]
    if _ESCAPE.search(line):
        return [clip(line, width)]
    indent = line[: len(line) - len(line.lstrip())]
    if len(indent) + 12 > width:  # too narrow to keep the indent and some words beside it
        indent = ""
    return textwrap.wrap(
        line.strip(),
        width,
        initial_indent=indent,
        subsequent_indent=indent + "  ",
        break_on_hyphens=False,
    ) or [""]


#: how readily a line of the screen gives way when the terminal is too short
BLANK, EXTRA, OPTIONS, KEPT = 3, 2, 1, 0
#: a row of a board's picture: its name (``12``, ``m``) and then the cells
_ROW = re.compile(r"\s*(?:[0-9]{1,2}|[a-z])\s{2}")


def fit_height(body: Sequence[tuple[str, int]], tail: Sequence[str], height: int) -> list[str]:
    """The ``body`` lines (each with how readily it gives way: :data:`BLANK`
    first, then :data:`EXTRA`, then :data:`OPTIONS`, each from the bottom up)
    and then ``tail`` in exactly ``height`` lines; the tail (the note and the
    help) stays just above the prompt. A body line may be several rows (a line
    wrapped with ``\\n``): it gives way whole."""
    room = height - len(tail)
    if room <= 0:
        rows = [row for line, _ in body for row in line.split("\n")]
        return rows[: max(0, height)] + list(tail)[: max(0, height)]
    kept = list(body)

    def size() -> int:
        return sum(line.count("\n") + 1 for line, _ in kept)

    for rank in (BLANK, EXTRA, OPTIONS):
        while size() > room and any(r == rank for _, r in kept):
            at = max(i for i, (_, r) in enumerate(kept) if r == rank)
            del kept[at]
    lines = [row for line, _ in kept for row in line.split("\n")]
    if len(lines) > room:
        lines = [*lines[: room - 1], "  ..."]
    return lines + [""] * (room - len(lines)) + list(tail)


def player_name(spec: BoardSpec | None, player: int | None) -> str:
    """A player by the colour of their pieces (``red``), else ``player 2``."""
    if player is None:
        return "nobody"
    return spec.player_name(player) if spec is not None else seat_words(player)


def player_label(spec: BoardSpec | None, player: int | None) -> str:
    """``red (player 2)``: the player's name and seat, counted from 1."""
    if player is None:
        return "nobody"
    return spec.player_label(player) if spec is not None else seat_words(player)


def piece_name(spec: BoardSpec | None, piece: str) -> str:
    """A piece code as people type it: ``p0`` -> ``blue``; ``white-disc`` as it is."""
    return piece_word(spec, piece) if spec is not None else piece


def side_by_side(left: Sequence[str], right: Sequence[str], gap: int) -> list[str]:
    """Two blocks of lines next to each other, the left padded to one width."""
    width = max((visible_width(line) for line in left), default=0) + gap
    out = []
    for i in range(max(len(left), len(right))):
        a = left[i] if i < len(left) else ""
        b = right[i] if i < len(right) else ""
        out.append((a + " " * (width - visible_width(a)) + b).rstrip())
    return out


def board_text(status: Mapping[str, Any]) -> list[str]:
    """The game board as the rules engine draws it for everyone to see (the
    status's ``picture``)."""
    picture = status.get("picture")
    if not isinstance(picture, str):
        return [_("(no game)")]
    return picture.splitlines()


def led_text(profile: BoardProfile, frame: Sequence[RGB] | None) -> list[str]:
    """The LED picture: ``●`` in its colour for a lit LED, ``○`` for a dark one."""
    from hardware.leds.render import render_ansi

    pixels = list(frame) if frame is not None else [(0, 0, 0)] * profile.leds.count
    return render_ansi(profile, pixels).splitlines()


def _sites(names: Sequence[str]) -> str:
    return " ".join(names) if names else "-"


def undone_line(undone: Sequence[str]) -> str:
    """``UNDONE: take W3 back off the board``: the controller's words for the
    actions an operator undid that the board still shows, its first word as
    the alarm."""
    first, _space, rest = translate(take_off(list(undone))).partition(" ")
    return f"{first.upper()} {rest}"


def _fixes(spec: BoardSpec | None, status: Mapping[str, Any], take_away: str) -> list[str]:
    """The sites to clear (``take_away`` says how) and the pieces to put back."""
    offending = list(status.get("offending", []))
    restore = dict(status.get("restore", {}))
    lines = []
    if offending:
        lines.append("  " + _("{what}: {sites}", what=take_away, sites=_sites(offending)))
    if restore:
        pieces = ", ".join(
            _("{piece} on {site}", piece=piece_name(spec, piece), site=site)
            for site, piece in restore.items()
        )
        lines.append("  " + _("put back: {pieces}", pieces=pieces))
    return lines


def controller_says(status: Mapping[str, Any]) -> list[str]:
    """What the controller's status means for the players, in words."""
    spec = game_spec(status)
    phase = status.get("phase")
    mover = status.get("to_move")
    who = player_label(spec, mover)
    #: actions an operator undid that the board still shows
    undone = list(status.get("undone_on_board", []))
    lines: list[str] = []
    if phase in ("starting", "linking"):
        lines.append(_("waiting for the board's sensors to answer"))
    elif phase == "fault":
        kind = Fault.STORAGE if status.get("fault_kind") == "storage" else Fault.SENSORS
        if kind is Fault.STORAGE:
            why = status.get("fault") or _("the card is full")
            lines.append(_("the games cannot be saved: {why}", why=why))
            lines.append(_("free space on the card; play resumes by itself once a move is saved"))
        else:
            lines.append(translate(fault_words(kind)))
    elif phase == "setup":
        if undone:
            lines.append(undone_line(undone))
        elif status.get("restore") and not status.get("offending"):
            lines.append(_("set up: put out the pieces a new game starts with"))
        else:
            lines.append(_("set up: clear the board for a new game"))
        lines += _fixes(spec, status, _("take away"))
    elif phase == "attract":
        lines.append(_("idle: touch the board to wake it"))
    elif phase == "wrong_board":
        if undone:
            lines.append(undone_line(undone))
        else:
            why = status.get("why") or _("no legal move explains it")
            lines.append(_("WRONG BOARD: {why}", why=why))
        if status.get("to_tell"):
            lines.append(translate(tell_it(status["to_tell"])))
        lines += _fixes(spec, status, _("take away or fix"))
    elif phase == "move_in_progress":
        if status.get("verdict") == "ambiguous":
            through = any(s.kind == "track" for s in spec.sites) if spec else False
            lines.append(
                _(
                    "AMBIGUOUS: several moves leave this board; undo the move and make it"
                    " again so only one fits (push the piece in through its track)"
                )
                if through
                else _(
                    "AMBIGUOUS: several moves leave this board; undo the move and make it"
                    " again so only one fits"
                )
            )
            for path in status.get("candidates", []):
                lines.append("  " + _("could be: {moves}", moves=then_list(path)))
        elif status.get("verdict") == "wrong" and undone:
            lines.append(undone_line(undone))
        elif status.get("verdict") == "wrong":
            lines.append(_("hm: that does not look right (shown red if it stays)"))
        else:
            lines.append(_("move under way ..."))
    elif phase == "takeback_offered":
        lines.append(_("TAKEBACK: the board shows an earlier position;"))
        lines.append("  " + _("hold it there to take the move back, or put the move back"))
    elif phase == "choosing" and status.get("verdict") == "ambiguous":
        lines.append(
            _("CHOOSE: several moves leave this board: mode picks one, or boardctl choose")
        )
        for path in status.get("candidates", []):
            lines.append("  " + _("could be: {moves}", moves=then_list(path)))
    elif phase == "choosing":
        task = status.get("task") or _("choose")
        lines.append(
            _(
                "{player} to {task}: make the board show one of the choices the LEDs light",
                player=who,
                task=task,
            )
        )
    elif phase == "game_over":
        winner = status.get("winner")
        reason = status.get("reason", "")
        if winner is not None:
            lines.append(
                _(
                    "GAME OVER: {player} wins ({reason})",
                    player=player_label(spec, winner),
                    reason=reason,
                )
            )
        else:
            lines.append(
                _(
                    "GAME OVER: {result} ({reason})",
                    result=status.get("status", "draw"),
                    reason=reason,
                )
            )
        lines.append("  " + _("clear the board for the next game, or type new"))
    elif phase == "awaiting_move":
        lines.append(_("the board is right"))
    if status.get("told_undone"):
        lines.append(translate(tell_again(status["told_undone"])))
    lines += computer_says(status)
    lines += remote_says(status)
    confirm = status.get("confirm")
    if isinstance(confirm, dict):
        lines.append(str(confirm.get("words")))
    return lines


def remote_says(status: Mapping[str, Any]) -> list[str]:
    """What the player who plays apart (at another board, on their phone) is
    doing, in words: ``blue (player 1) at table-a played W1: make it here``."""
    remote = status.get("remote")
    if not isinstance(remote, dict):
        return []
    seat = remote.get("seat")
    player = player_label(game_spec(status), seat if isinstance(seat, int) else None)
    if remote.get("phone"):
        who = _("{player} on their phone", player=player)
    else:
        who = _("{player} at {board}", player=player, board=str(remote.get("board")))
    if remote.get("error"):
        return [f"{who}: {remote['error']}"]
    if remote.get("doing") == "ready":
        moves = then_list([str(m) for m in remote.get("moves", [])])
        return [
            _(
                "{who} played {moves}: make it here as the LEDs show (blinking: take off; "
                "breathing: put there)",
                who=who,
                moves=moves,
            )
        ]
    if remote.get("phone"):
        return [_("{who} is choosing a move", who=who)]
    return [_("{who} is to play, there", who=who)]


def computer_says(status: Mapping[str, Any]) -> list[str]:
    """What the computer's seat to act is doing, in words."""
    computer = status.get("computer")
    if not computer:
        return []
    name = player_name(game_spec(status), computer["seat"])
    who = _("the computer ({player}, level {level})", player=name, level=computer["level"])
    if computer["doing"] == "thinking":
        return [_("{who} is thinking (the light running round the board)", who=who)]
    if computer["doing"] == "ready":
        return [
            _(
                "{who} plays {moves}: make it on the board as the LEDs show "
                "(blinking: take off; breathing: put there)",
                who=who,
                moves=then_list(computer["moves"]),
            ),
            "  " + _("another: ask it for another move"),
        ]
    return [
        _(
            "{who} failed: {error}; it is asked again by itself",
            who=who,
            error=str(computer.get("error")),
        )
    ]


def turn_line(status: Mapping[str, Any]) -> str:
    """``red (player 2) to insert a marble``: whose turn, in
    the engine's words for what they must do, and the choices when they choose."""
    mover = status.get("to_move")
    if mover is None:
        return _("nobody to move")
    task = status.get("task") or _("act")
    spec = game_spec(status)
    computer = status.get("computer")
    if computer and computer.get("seat") == mover:
        who = _(
            "{player} (the computer, level {level})",
            player=player_name(spec, mover),
            level=computer["level"],
        )
    else:
        who = player_label(spec, mover)
    line = _("{player} to {task}", player=who, task=task)
    choices = status.get("choices")
    if choices:
        line += ": " + functools.reduce(
            lambda a, b: _("{first} or {second}", first=a, second=b), choices
        )
    return line


def compose(
    status: Mapping[str, Any],
    frame: Sequence[RGB] | None,
    layout: Layout,
    note: str = "",
) -> str:
    """The whole screen as text (with colour escapes in the LED picture)."""
    game = str(status.get("game", "?"))
    spec = game_spec(status)
    options = status.get("options") or {}
    opts = " ".join(f"{k}={v}" for k, v in options.items())
    width = layout.width
    body = [
        (f"{layout.title} · " + _("{game} on {board}", game=game, board=layout.profile.name), KEPT)
    ]
    body.append(
        (
            "\n".join(fit_width(_("options: {options}", options=opts) if opts else "", width)),
            OPTIONS,
        )
    )
    leds = [_("LEDs"), *led_text(layout.profile, frame)]
    board = [_("board"), *board_text(status)]
    picture = side_by_side(leds, board, layout.gap)
    if width and max(map(visible_width, picture[: len(leds)])) > width:
        # too wide for both side by side (Linie 1's): the whole board first, then
        # the LEDs under it, giving way whole where the height is short
        # the grid is kept (up to its last numbered row); the engine's notes under
        # it wrap and give way, after the LEDs, before anything else
        # (a row is named by a number or a letter: Linie 1's 12, Beeline's m)
        numbered = [n for n, line in enumerate(board) if _ROW.match(line)]
        grid = (max(numbered) + 1) if numbered else len(board)
        body += [(clip(line, width), KEPT) for line in board[:grid]]
        body += [("\n".join(fit_width(line, width)), EXTRA) for line in board[grid:]]
        body.append(("\n".join(clip(line, width) for line in leds), EXTRA))
    else:
        # the picture beside the LEDs is cut, not wrapped; the engine's notes below
        # the LEDs wrap, and each gives way whole before anything else but blanks
        body += [
            (clip(line, width) if width else line, KEPT)
            if n < len(leds)
            else ("\n".join(fit_width(line, width)), EXTRA)
            for n, line in enumerate(picture)
        ]
    # what the controller says stays; the lights' note gives way before it
    text = [("", BLANK), (turn_line(status), KEPT)]
    if layout.note:
        text.append((_("lights: {note}", note=layout.note), OPTIONS))
    scores = status.get("scores")
    if scores is not None:
        says = "  ".join(f"{translate(player_name(spec, i))} {s}" for i, s in enumerate(scores))
        text.append((_("scores: {scores}", scores=says), KEPT))
    moves = list(status.get("moves", []))
    shown = ("... " if len(moves) > 12 else "") + " ".join(moves[-12:])
    said = _("moves ({count}): {moves}", count=len(moves), moves=shown if moves else _("none"))
    text.append((said, KEPT))
    text.append((_("controller: {phase}", phase=phase_words(status.get("phase"))), KEPT))
    text += [("  " + line, KEPT) for line in controller_says(status)]
    text.append(("", BLANK))
    body += [("\n".join(fit_width(line, width)), rank) for line, rank in text]
    tail = [
        part
        for line in [translate(note), *command_help(spec, status.get("to_move"))]
        for part in fit_width(line, width)
    ]
    if layout.height:
        return "\n".join(fit_height(body, tail, layout.height))
    return "\n".join([line for line, _ in body] + tail)
