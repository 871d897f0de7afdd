"""The Bidirectional Line Game's scripted game for ``boardctl sim --demo bidiline``: pure data.

On the 7 x 7 grid amber lays the first stick on d4-d5, which the board cannot
tell from one laid the other way; blue's stick from d4 shows where it started.
Blue later grows the amber end into d5, where both ends get stuck: amber wins
5 to 3. The mistakes: a stick far from both ends, a stick of the wrong colour,
a stick lifted and put back, and a stick taken back by holding the earlier
position.
"""

from __future__ import annotations

from types import MappingProxyType

from boardctl.engines.bidiline.engine import BidiLine
from boardctl.engines.describe import Demo, DemoStep
from boardctl.engines.match import Match
from boardctl.errors import IllegalMove

MOVES = ("A:d4-d5", "B:d4-e4", "A:d5-c5", "B:e4-e5", "A:c5-c6", "A:c6-d6", "A:d6-d5", "B:e5-d5")
OPTIONS: MappingProxyType[str, object] = MappingProxyType({})

WRONG = frozenset({"wrong_board"})
LIFTED = frozenset({"move_in_progress", "wrong_board"})
TAKEBACK = frozenset({"takeback_offered"})
CHOOSING = frozenset({"choosing"})


def demo() -> Demo:
    """The script, checked move by move against the rules as it is built."""
    engine = BidiLine.from_options(OPTIONS)
    final = Match.from_moves(engine, MOVES)
    winner = final.outcome().winner
    if winner is None:
        raise IllegalMove("the Bidirectional Line Game demo script does not end with a win")
    names = [p.name for p in engine.board().players]
    match = Match(engine)
    steps: list[DemoStep] = []
    for n, text in enumerate(MOVES):
        state = match.state
        who = names[engine.to_move(state) or 0].capitalize()
        action = engine.parse_action(text)
        stick = next(iter(engine.touches(state, action)))
        colour = action.colour.value
        if n == 2:
            steps += [
                DemoStep(
                    f"{who} lays a stick on a1-b1, far from both ends (not allowed)",
                    "place a1-b1 A",
                    n,
                    WRONG,
                ),
                DemoStep(f"{who} takes it off a1-b1", "lift a1-b1", n),
            ]
        if n == 4:
            steps += [
                DemoStep(
                    f"{who} extends the amber end with a blue stick on {stick} (the wrong colour)",
                    f"place {stick} B",
                    n,
                    WRONG,
                ),
                DemoStep(f"{who} takes the blue stick off {stick}", f"lift {stick}", n),
            ]
        if n == 5:
            extra = engine.parse_action("B:e5-f5")
            reason = engine.why_illegal(state, extra)
            if reason is not None:
                raise IllegalMove(f"the demo's B:e5-f5 is not legal where it is played: {reason}")
            steps += [
                DemoStep(f"{who} lays a blue stick on e5-f5", "place e5-f5 B", n + 1),
                DemoStep(f"{who} thinks again and lifts it off", "lift e5-f5", n + 1, TAKEBACK),
                DemoStep("the board stays in the earlier position: the stick is taken back", "", n),
            ]
        if n == 6:
            steps += [
                DemoStep(f"{who} lifts the stick on c5-c6 for a moment", "lift c5-c6", n, LIFTED),
                DemoStep(f"{who} puts it back", "place c5-c6 A", n),
            ]
        end = "amber" if colour == "A" else "blue"
        say = f"{who} extends the {end} end from {action.src} to {action.dst}"
        moves, phases = n + 1, frozenset[str]()
        if n == 0:
            # the same stick either way: the board cannot say which end the line grew from
            say = f"{who} lays the first stick, amber, on {stick}: from d4 or from d5?"
            moves, phases = 0, CHOOSING
        elif n == 1:
            say += ": so the first stick started at d4, and both are recorded"
        steps.append(DemoStep(say, f"place {stick} {colour}", moves, phases))
        match.play(action)
    return Demo(OPTIONS, tuple(steps), winner, MOVES)
