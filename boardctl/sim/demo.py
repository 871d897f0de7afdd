"""Scripted games for ``boardctl sim --demo``: whole games with human mistakes.

A script is derived from the rules engine: a fixed list of actions, checked
move by move when the script is built, becomes hand commands (``insert W3``,
``place d4 white-disc``, ``remove b1 c1 d1``) with a narration line and what
the controller must say afterwards. Mistakes are woven in where they make
sense: a piece put where it does not belong and taken off again, a piece
lifted and put back, a move taken back by holding the earlier position, and
(Shiftago Expert) a choice between two lines to score. Pure: nothing here runs
a board.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from boardctl.engines import Engine, Match, create
from boardctl.errors import BoardctlError
from boardctl.sim.board import PLAYER_NAMES

#: what the controller's phase is once the board is right and a move is awaited
STEADY = frozenset({"awaiting_move", "choosing_score", "game_over"})


class ScriptError(BoardctlError, ValueError):
    """A demo script that the rules do not allow (the script is wrong, not the board)."""


@dataclass(frozen=True, slots=True)
class Expect:
    """What the controller must say after a step: the number of actions in the
    game (``None``: any) and one of ``phases``."""

    moves: int | None
    phases: frozenset[str] = STEADY

    def met(self, status: Mapping[str, Any]) -> bool:
        if status.get("phase") not in self.phases:
            return False
        return self.moves is None or len(status.get("moves", [])) == self.moves


@dataclass(frozen=True, slots=True)
class Step:
    """One thing the hands do, what the narrator says, and what must follow."""

    say: str
    command: str
    expect: Expect


@dataclass(frozen=True, slots=True)
class Script:
    """A demo game: the game and options to start, the steps, and the result."""

    game: str
    options: Mapping[str, Any]
    steps: tuple[Step, ...]
    winner: int
    moves: tuple[str, ...] = field(default=())


# Shiftago Expert, two players. Blue (player 0) builds column a and row 1 so that
# one marble (Sa) makes two lines at once, scores one, and then closes row 7 for
# seven in a row (10 points). Red plays on the east side, out of the way.
SHIFTAGO_MOVES = tuple(
    " ".join(
        (
            "W2 E4 W3 E6 W4 Sg W5 E6 Sb E2 Sc E1 Sd E4 Se E5 W7 Sf W7 E2 W7 Sf",
            "E7 E4 E7 E2 E7 E4 Sa x:a1-e1 Nd x:a7-g7",
        )
    ).split()
)

# DuploLine: White lines up four discs on row 3; Black's ring moves with it.
DUPLOLINE_MOVES = tuple(
    " ".join(("D+c3 R+c4 D+d4 D+b3 R+e5 R+a2", "D+e6 R+b4 D+a3 Ra2-a3 D+d5 D+d3")).split()
)


def _removed(before: Mapping[str, str], after: Mapping[str, str]) -> list[str]:
    return sorted(s for s in before if s not in after)


def _check(engine: Engine[Any, Any], moves: tuple[str, ...]) -> Match[Any, Any]:
    try:
        return Match.from_moves(engine, moves)
    except BoardctlError as exc:
        raise ScriptError(f"the demo script of {engine.name} is not legal: {exc}") from exc


def _legal(engine: Engine[Any, Any], state: Any, text: str) -> None:
    reason = engine.why_illegal(state, engine.parse_action(text))
    if reason is not None:
        raise ScriptError(f"the demo's {text} is not legal where it is played: {reason}")


def _who(game: str, player: int | None) -> str:
    names = PLAYER_NAMES[game]
    return names[player].capitalize() if player is not None else "Nobody"


def shiftago_script() -> Script:
    engine = create("shiftago", variant="expert")
    moves = tuple(SHIFTAGO_MOVES)
    final = _check(engine, moves)
    if final.outcome().winner != 0:
        raise ScriptError("the Shiftago demo script does not end with a win")
    match: Match[Any, Any] = Match(engine)
    steps: list[Step] = []
    for n, text in enumerate(moves):
        state = match.state
        mover = engine.to_move(state)
        who = _who("shiftago", mover)
        before = engine.layout(state)
        action = engine.parse_action(text)
        after_state = engine.apply(state, action)
        after = engine.layout(after_state)
        if n == 4:
            # a wrong placement: a marble dropped onto a cell, then taken off
            steps.append(
                Step(
                    f"{who} drops a marble straight onto d4 (marbles only enter from the edge)",
                    f"place d4 {PLAYER_NAMES['shiftago'][mover or 0]}",
                    Expect(n, frozenset({"wrong_board"})),
                )
            )
            steps.append(Step(f"{who} takes it off d4 again", "lift d4", Expect(n)))
        if n == 9:
            # a lifted piece put back
            piece = before["a2"]
            steps.append(
                Step(
                    f"{who} picks up the marble on a2 to look at it",
                    "lift a2",
                    Expect(n, frozenset({"move_in_progress", "wrong_board"})),
                )
            )
            steps.append(
                Step(
                    f"{who} puts it back on a2",
                    f"place a2 {PLAYER_NAMES['shiftago'][int(piece[1])]}",
                    Expect(n),
                )
            )
        if n == 13:
            _legal(engine, state, "Nb")
            # a takeback: a move played, then the earlier board held until it is undone
            steps.append(Step(f"{who} pushes a marble in at Nb", "insert Nb", Expect(n + 1)))
            steps.append(
                Step(
                    f"{who} changes their mind and lifts it off b7 again",
                    "lift b7",
                    Expect(n + 1, frozenset({"takeback_offered"})),
                )
            )
            steps.append(
                Step(
                    "the board stays in the earlier position: the move is taken back",
                    "",
                    Expect(n),
                )
            )
        if engine.expects(state) == "score":
            lines = getattr(engine, "scoring_lines")(state)  # noqa: B009
            choices = " or ".join(f"{a}-{b}" for a, b in lines)
            removed = _removed(before, after)
            say = f"{who} scores {text[2:]}"
            if len(lines) > 1:
                say = f"{who} may score {choices}: chooses {text[2:]}"
            steps.append(Step(say, "remove " + " ".join(removed), Expect(n + 1)))
        else:
            steps.append(
                Step(f"{who} pushes a marble in at {text}", f"insert {text}", Expect(n + 1))
            )
        match.play(action)
    return Script("shiftago", MappingProxyType({"variant": "expert"}), tuple(steps), 0, moves)


def duploline_script() -> Script:
    engine = create("duploline")
    moves = tuple(DUPLOLINE_MOVES)
    final = _check(engine, moves)
    if final.outcome().winner is None:
        raise ScriptError("the DuploLine demo script does not end with a win")
    match: Match[Any, Any] = Match(engine)
    steps: list[Step] = []
    colours = PLAYER_NAMES["duploline"]
    for n, text in enumerate(moves):
        state = match.state
        mover = engine.to_move(state)
        who = _who("duploline", mover)
        colour = colours[mover or 0]
        before = engine.layout(state)
        action = engine.parse_action(text)
        if n == 3:
            steps.append(
                Step(
                    f"{who} puts a disc on g7, far from every piece (not allowed)",
                    f"place g7 {colour}-disc",
                    Expect(n, frozenset({"wrong_board"})),
                )
            )
            steps.append(Step(f"{who} takes the disc off g7", "lift g7", Expect(n)))
        if n == 6:
            steps.append(
                Step(
                    f"{who} lifts the ring on c4 for a moment",
                    "lift c4",
                    Expect(n, frozenset({"move_in_progress", "wrong_board"})),
                )
            )
            steps.append(Step(f"{who} puts it back", f"place c4 {before['c4']}", Expect(n)))
        if n == 7:
            _legal(engine, state, "R+e4")
            steps.append(Step(f"{who} adds a ring on e4", f"place e4 {colour}-ring", Expect(n + 1)))
            steps.append(
                Step(
                    f"{who} thinks again and lifts it off",
                    "lift e4",
                    Expect(n + 1, frozenset({"takeback_offered"})),
                )
            )
            steps.append(
                Step(
                    "the board stays in the earlier position: the ring is taken back",
                    "",
                    Expect(n),
                )
            )
        if text[1] == "+":
            kind = "disc" if text[0] == "D" else "ring"
            command = f"place {text[2:]} {colour}-{kind}"
            say = f"{who} adds a {kind} on {text[2:]}"
        else:
            src, dst = text[1:].split("-")
            command = f"move {src} {dst}"
            say = f"{who} moves the {'disc' if text[0] == 'D' else 'ring'} from {src} to {dst}"
        steps.append(Step(say, command, Expect(n + 1)))
        match.play(action)
    winner = final.outcome().winner
    assert winner is not None
    return Script("duploline", MappingProxyType({}), tuple(steps), winner, moves)


#: the demo games by name
SCRIPTS: Mapping[str, Callable[[], Script]] = MappingProxyType(
    {"shiftago": shiftago_script, "duploline": duploline_script}
)


def script(game: str) -> Script:
    try:
        return SCRIPTS[game]()
    except KeyError:
        raise ScriptError(
            f"there is no demo of {game!r}; the demos are {', '.join(SCRIPTS)}"
        ) from None
