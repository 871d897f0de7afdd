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

MOVES = tuple(
    " ".join(("D+c3 R+c4 D+d4 D+b3 R+e5 R+a2", "D+e6 R+b4 D+a3 Ra2-a3 D+d5 D+d3")).split()
)
OPTIONS: MappingProxyType[str, object] = MappingProxyType({})

WRONG = frozenset({"wrong_board"})
LIFTED = frozenset({"move_in_progress", "wrong_board"})
TAKEBACK = frozenset({"takeback_offered"})


def demo() -> Demo:
    """The script, checked move by move against the rules as it is built."""
    engine = DuploLine.from_options(OPTIONS)
    final = Match.from_moves(engine, MOVES)
    winner = final.outcome().winner
    if winner is None:
        raise IllegalMove("the DuploLine demo script does not end with a win")
    colours = [p.name for p in engine.board().players]
    match = Match(engine)
    steps: list[DemoStep] = []
    for n, text in enumerate(MOVES):
        state = match.state
        mover = engine.to_move(state) or 0
        who = colours[mover].capitalize()
        colour = colours[mover]
        before = engine.layout(state)
        action = engine.parse_action(text)
        if n == 3:
            steps += [
                DemoStep(
                    f"{who} puts a disc on g7, far from every piece (not allowed)",
                    f"place g7 {colour}-disc",
                    n,
                    WRONG,
                ),
                DemoStep(f"{who} takes the disc off g7", "lift g7", n),
            ]
        if n == 6:
            steps += [
                DemoStep(f"{who} lifts the ring on c4 for a moment", "lift c4", n, LIFTED),
                DemoStep(f"{who} puts it back", f"place c4 {before['c4']}", n),
            ]
        if n == 7:
            reason = engine.why_illegal(state, engine.parse_action("R+e4"))
            if reason is not None:
                raise IllegalMove(f"the demo's R+e4 is not legal where it is played: {reason}")
            steps += [
                DemoStep(f"{who} adds a ring on e4", f"place e4 {colour}-ring", n + 1),
                DemoStep(f"{who} thinks again and lifts it off", "lift e4", n + 1, TAKEBACK),
                DemoStep("the board stays in the earlier position: the ring is taken back", "", n),
            ]
        kind = "disc" if text[0] == "D" else "ring"
        if text[1] == "+":
            say, command = f"{who} adds a {kind} on {text[2:]}", f"place {text[2:]} {colour}-{kind}"
        else:
            src, dst = text[1:].split("-")
            say, command = f"{who} moves the {kind} from {src} to {dst}", f"move {src} {dst}"
        steps.append(DemoStep(say, command, n + 1))
        match.play(action)
    return Demo(OPTIONS, tuple(steps), winner, MOVES)
