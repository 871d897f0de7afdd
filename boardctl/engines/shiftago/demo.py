"""Shiftago's scripted game for ``boardctl sim --demo shiftago``: pure data.

Shiftago Expert, two players. Blue (player 0) builds column a and row 1 so that
one marble (Sa) makes two lines at once, scores one, and then closes row 7 for
seven in a row (10 points). Red plays on the east side, out of the way. The
mistakes: a marble dropped onto a cell, a marble picked up and put back, a move
taken back by holding the earlier position, and a choice between two lines.
"""

from __future__ import annotations

from types import MappingProxyType

from boardctl.engines.describe import Demo, DemoStep
from boardctl.engines.match import Match
from boardctl.engines.shiftago.actions import Score
from boardctl.engines.shiftago.engine import Shiftago, ShiftagoOptions
from boardctl.errors import IllegalMove
from boardctl.message import M_, Mp_, or_list

MOVES = tuple(
    " ".join(
        (
            "W2 E4 W3 E6 W4 Sg W5 E6 Sb E2 Sc E1 Sd E4 Se E5 W7 Sf W7 E2 W7 Sf",
            "E7 E4 E7 E2 E7 E4 Sa x:a1-e1 Nd x:a7-g7",
        )
    ).split()
)
OPTIONS = MappingProxyType({"variant": "expert"})

WRONG = frozenset({"wrong_board"})
LIFTED = frozenset({"move_in_progress", "wrong_board"})
TAKEBACK = frozenset({"takeback_offered"})

#: the players as a sentence begins with them (a name is not capitalised by code:
#: each language writes its own), in seat order
WHO = (Mp_("sentence start", "Blue"), Mp_("sentence start", "Red"))


def demo() -> Demo:
    """The script, checked move by move against the rules as it is built."""
    engine = Shiftago(ShiftagoOptions(variant="expert"))
    final = Match.from_moves(engine, MOVES)
    if final.outcome().winner != 0:
        raise IllegalMove("the Shiftago demo script does not end with a win for blue")
    names = [p.name for p in engine.board().players]
    if [w.lower() for w in WHO] != names:
        raise IllegalMove(f"the Shiftago demo names the players {WHO}, the game {names}")
    match = Match(engine)
    steps: list[DemoStep] = []
    for n, text in enumerate(MOVES):
        state = match.state
        mover = engine.to_move(state) or 0
        who = WHO[mover]
        before = engine.layout(state)
        action = engine.parse_action(text)
        after = engine.layout(engine.apply(state, action))
        if n == 4:
            steps += [
                DemoStep(
                    M_(
                        "{player} drops a marble straight onto {cell} "
                        "(marbles only enter from the edge)",
                        player=who,
                        cell="d4",
                    ),
                    f"place d4 {names[mover]}",
                    n,
                    WRONG,
                ),
                DemoStep(
                    M_("{player} takes the marble off {cell} again", player=who, cell="d4"),
                    "lift d4",
                    n,
                ),
            ]
        if n == 9:
            owner = int(before["a2"][1:])
            steps += [
                DemoStep(
                    M_(
                        "{player} picks up the marble on {cell} to look at it",
                        player=who,
                        cell="a2",
                    ),
                    "lift a2",
                    n,
                    LIFTED,
                ),
                DemoStep(
                    M_("{player} puts the marble back on {cell}", player=who, cell="a2"),
                    f"place a2 {names[owner]}",
                    n,
                ),
            ]
        if n == 13:
            reason = engine.why_illegal(state, engine.parse_action("Nb"))
            if reason is not None:
                raise IllegalMove(f"the demo's Nb is not legal where it is played: {reason}")
            steps += [
                DemoStep(
                    M_("{player} pushes a marble in at {track}", player=who, track="Nb"),
                    "insert Nb",
                    n + 1,
                ),
                DemoStep(
                    M_(
                        "{player} changes their mind and lifts the marble off {cell} again",
                        player=who,
                        cell="b7",
                    ),
                    "lift b7",
                    n + 1,
                    TAKEBACK,
                ),
                DemoStep(
                    M_("the board stays in the earlier position: the move is taken back"), "", n
                ),
            ]
        if isinstance(action, Score):
            lines = engine.scoring_lines(state)
            removed = sorted(s for s in before if s not in after)
            say = M_("{player} scores {line}", player=who, line=text[2:])
            if len(lines) > 1:
                choices = or_list([f"{a}-{b}" for a, b in lines])
                say = M_(
                    "{player} may score {choices}: chooses {line}",
                    player=who,
                    choices=choices,
                    line=text[2:],
                )
            steps.append(DemoStep(say, "remove " + " ".join(removed), n + 1))
        else:
            steps.append(
                DemoStep(
                    M_("{player} pushes a marble in at {track}", player=who, track=text),
                    f"insert {text}",
                    n + 1,
                )
            )
        match.play(action)
    return Demo(OPTIONS, tuple(steps), 0, MOVES)
