"""DuploLine's scripted game for ``boardctl sim --demo duploline``: pure data.

White lines up four discs on row 3; Black's ring moves with it. The mistakes:
a disc put far from every piece, a ring lifted and put back, and a ring added
and then taken back by holding the earlier position.
"""

from __future__ import annotations

from types import MappingProxyType

from boardctl.engines.describe import Demo, DemoStep
from boardctl.engines.duploline.engine import DuploLine
from boardctl.engines.match import Match
from boardctl.errors import IllegalMove
from boardctl.message import M_, Mp_

MOVES = tuple(
    " ".join(("D+c3 R+c4 D+d4 D+b3 R+e5 R+a2", "D+e6 R+b4 D+a3 Ra2-a3 D+d5 D+d3")).split()
)
OPTIONS: MappingProxyType[str, object] = MappingProxyType({})

WRONG = frozenset({"wrong_board"})
LIFTED = frozenset({"move_in_progress", "wrong_board"})
TAKEBACK = frozenset({"takeback_offered"})

#: the players as a sentence begins with them (a name is not capitalised by code:
#: each language writes its own), in seat order
WHO = (Mp_("sentence start", "White"), Mp_("sentence start", "Black"))


def demo() -> Demo:
    """The script, checked move by move against the rules as it is built."""
    engine = DuploLine.from_options(OPTIONS)
    final = Match.from_moves(engine, MOVES)
    winner = final.outcome().winner
    if winner is None:
        raise IllegalMove("the DuploLine demo script does not end with a win")
    colours = [p.name for p in engine.board().players]
    if [w.lower() for w in WHO] != colours:
        raise IllegalMove(f"the DuploLine demo names the players {WHO}, the game {colours}")
    match = Match(engine)
    steps: list[DemoStep] = []
    for n, text in enumerate(MOVES):
        state = match.state
        mover = engine.to_move(state) or 0
        who = WHO[mover]
        colour = colours[mover]
        before = engine.layout(state)
        action = engine.parse_action(text)
        if n == 3:
            steps += [
                DemoStep(
                    M_(
                        "{player} puts a disc on {cell}, far from every piece (not allowed)",
                        player=who,
                        cell="g7",
                    ),
                    f"place g7 {colour}-disc",
                    n,
                    WRONG,
                ),
                DemoStep(
                    M_("{player} takes the disc off {cell}", player=who, cell="g7"), "lift g7", n
                ),
            ]
        if n == 6:
            steps += [
                DemoStep(
                    M_("{player} lifts the ring on {cell} for a moment", player=who, cell="c4"),
                    "lift c4",
                    n,
                    LIFTED,
                ),
                DemoStep(
                    M_("{player} puts the ring back", player=who), f"place c4 {before['c4']}", n
                ),
            ]
        if n == 7:
            reason = engine.why_illegal(state, engine.parse_action("R+e4"))
            if reason is not None:
                raise IllegalMove(f"the demo's R+e4 is not legal where it is played: {reason}")
            steps += [
                DemoStep(
                    M_("{player} adds a ring on {cell}", player=who, cell="e4"),
                    f"place e4 {colour}-ring",
                    n + 1,
                ),
                DemoStep(
                    M_("{player} thinks again and lifts the ring off", player=who),
                    "lift e4",
                    n + 1,
                    TAKEBACK,
                ),
                DemoStep(
                    M_("the board stays in the earlier position: the ring is taken back"), "", n
                ),
            ]
        kind = "disc" if text[0] == "D" else "ring"
        if text[1] == "+":
            cell = text[2:]
            say = (
                M_("{player} adds a disc on {cell}", player=who, cell=cell)
                if kind == "disc"
                else M_("{player} adds a ring on {cell}", player=who, cell=cell)
            )
            command = f"place {cell} {colour}-{kind}"
        else:
            src, dst = text[1:].split("-")
            say = (
                M_("{player} moves the disc from {src} to {dst}", player=who, src=src, dst=dst)
                if kind == "disc"
                else M_("{player} moves the ring from {src} to {dst}", player=who, src=src, dst=dst)
            )
            command = f"move {src} {dst}"
        steps.append(DemoStep(say, command, n + 1))
        match.play(action)
    return Demo(OPTIONS, tuple(steps), winner, MOVES)
