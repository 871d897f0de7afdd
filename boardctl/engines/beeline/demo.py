"""Beeline's scripted game for ``boardctl sim --demo beeline``: pure data.

The seed's sample game, plays 1 to 11, as hands make it on the reference
board: the two starting NODES set out, MARKS and NODES put down, each NODE
replacement a MARK lifted, the NODE put in its place and the MARK set at the
end of its line, and Red's play 6 sending Black back to his NODE on f6, the
three MARKS lifted one by one. The mistakes: a MARK set turned the wrong way
and put right, a MARK lifted for a moment and put back, and a MARK added and
taken back by holding the earlier position.
"""

from __future__ import annotations

from types import MappingProxyType

from boardctl.engines.beeline.engine import Beeline
from boardctl.engines.beeline.values import Mark, Replace
from boardctl.engines.describe import Demo, DemoStep
from boardctl.engines.match import Match
from boardctl.errors import IllegalMove

MOVES = tuple(
    " ".join(
        (
            "Hc5w Hl11sw Hk10e Ac4nw Sd4nw Ak11se Sj11se Se4nw Af4ne Ai11sw Ah10w",
            "Hg5se Af5e Hh9ne NRi10 Sf6e Hf7sw NBxg5/He6nw NBxf6/Sg7ne Hh8se Ag8e",
            "NRxh9/Hi9se Sg9se Ag6w Ah5ne Sf9se He9ne Si6ne Sj7ne Sf10ne Ag11nw",
            "NRxe9/Hh11e NRxk11/Ah12se Hg12w NRxg11/Af11sw Sk8ne Al9nw Se10sw Ad9w",
            "NBm9 NBm10",
        )
    ).split()
)
OPTIONS: MappingProxyType[str, object] = MappingProxyType({})

SETUP = frozenset({"setup"})
WRONG = frozenset({"wrong_board"})
BUSY = frozenset({"move_in_progress"})
LIFTED = frozenset({"move_in_progress", "wrong_board"})
TAKEBACK = frozenset({"takeback_offered"})
WORDS = {"S": "a straight", "A": "an angle", "H": "a sharp"}


def demo() -> Demo:
    """The script, checked move by move against the rules as it is built."""
    engine = Beeline.from_options(OPTIONS)
    final = Match.from_moves(engine, MOVES)
    winner = final.outcome().winner
    if winner is None:
        raise IllegalMove("the Beeline demo script does not end with a win")
    colours = [p.name for p in engine.board().players]
    start = engine.layout(engine.initial())
    steps = [
        DemoStep(
            f"{colours[0].capitalize()} sets out his starting NODE",
            f"place b4 {start['b4']}",
            0,
            SETUP,
        ),
        DemoStep(
            f"{colours[1].capitalize()} sets out his starting NODE", f"place l10 {start['l10']}", 0
        ),
    ]
    match = Match(engine)
    for n, text in enumerate(MOVES):
        state = match.state
        who = colours[engine.to_move(state) or 0].capitalize()
        action = engine.parse_action(text)
        before = engine.layout(state)
        after = engine.layout(engine.apply(state, action))
        if n == 3:
            # Black sets his angle on c4 turned the wrong way, then turns it
            wrong = after["c4"].replace("-nw", "-w")
            steps += [
                DemoStep(
                    f"{who} sets an angle on c4 leaving west (it cannot: wrong way)",
                    f"place c4 {wrong}",
                    n,
                    WRONG,
                ),
                DemoStep(f"{who} takes it off again", "lift c4", n),
            ]
        if n == 9:
            steps += [
                DemoStep(f"{who} lifts Black's straight on e4 for a moment", "lift e4", n, LIFTED),
                DemoStep(f"{who} puts it back", f"place e4 {before['e4']}", n),
            ]
        if n == 12:
            reason = engine.why_illegal(state, engine.parse_action("Af5e"))
            if reason is not None:
                raise IllegalMove(f"the demo's Af5e is not legal where it is played: {reason}")
            steps += [
                DemoStep(f"{who} adds an angle on f5", f"place f5 {after['f5']}", n + 1),
                DemoStep(f"{who} thinks again and lifts it off", "lift f5", n + 1, TAKEBACK),
                DemoStep("the board stays in the earlier position: the angle is taken back", "", n),
            ]
        gone = sorted(s for s in before if s not in after)
        if isinstance(action, Replace):
            kind = WORDS[action.kind.letter].split()[1]
            steps += [
                DemoStep(
                    f"{who} lifts the {kind} on {action.cell}", f"lift {action.cell}", n, BUSY
                ),
                DemoStep(
                    f"{who} puts a NODE {colours[action.colour]} up in its place",
                    f"place {action.cell} {after[action.cell]}",
                    n,
                    BUSY,
                ),
                DemoStep(
                    f"{who} sets the {kind} on {action.to}, the end of its line",
                    f"place {action.to} {after[action.to]}",
                    n + 1 if not gone else n,
                    BUSY if gone else frozenset(),
                ),
            ]
        elif isinstance(action, Mark):
            steps.append(
                DemoStep(
                    f"{who} sets {WORDS[action.kind.letter]} on {action.cell}",
                    f"place {action.cell} {after[action.cell]}",
                    n + 1 if not gone else n,
                    BUSY if gone else frozenset(),
                )
            )
        else:
            steps.append(
                DemoStep(
                    f"{who} puts a NODE on {action.cell}",
                    f"place {action.cell} {after[action.cell]}",
                    n + 1,
                )
            )
        for i, cell in enumerate(gone):
            last = i == len(gone) - 1
            steps.append(
                DemoStep(
                    f"{before[cell].split('-')[0].capitalize()}'s line is sent back: "
                    f"off comes the piece on {cell}",
                    f"lift {cell}",
                    n + 1 if last else n,
                    frozenset() if last else BUSY,
                )
            )
        match.play(action)
    return Demo(OPTIONS, tuple(steps), winner, MOVES)
