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
from boardctl.message import M_, Mp_

MOVES = ("A:d4-d5", "B:d4-e4", "A:d5-c5", "B:e4-e5", "A:c5-c6", "A:c6-d6", "A:d6-d5", "B:e5-d5")
OPTIONS: MappingProxyType[str, object] = MappingProxyType({})

WRONG = frozenset({"wrong_board"})
LIFTED = frozenset({"move_in_progress", "wrong_board"})
TAKEBACK = frozenset({"takeback_offered"})
CHOOSING = frozenset({"choosing"})

#: the players as a sentence begins with them (a name is not capitalised by code:
#: each language writes its own), in seat order
WHO = (Mp_("sentence start", "Amber"), Mp_("sentence start", "Blue"))


def demo() -> Demo:
    """The script, checked move by move against the rules as it is built."""
    engine = BidiLine.from_options(OPTIONS)
    final = Match.from_moves(engine, MOVES)
    winner = final.outcome().winner
    if winner is None:
        raise IllegalMove("the Bidirectional Line Game demo script does not end with a win")
    names = [p.name for p in engine.board().players]
    if [w.lower() for w in WHO] != names:
        raise IllegalMove(f"the Bidirectional Line Game demo names the players {WHO}, not {names}")
    match = Match(engine)
    steps: list[DemoStep] = []
    for n, text in enumerate(MOVES):
        state = match.state
        who = WHO[engine.to_move(state) or 0]
        action = engine.parse_action(text)
        stick = next(iter(engine.touches(state, action)))
        colour = action.colour.value
        if n == 2:
            steps += [
                DemoStep(
                    M_(
                        "{player} lays a stick on {stick}, far from both ends (not allowed)",
                        player=who,
                        stick="a1-b1",
                    ),
                    "place a1-b1 A",
                    n,
                    WRONG,
                ),
                DemoStep(
                    M_("{player} takes the stick off {stick}", player=who, stick="a1-b1"),
                    "lift a1-b1",
                    n,
                ),
            ]
        if n == 4:
            steps += [
                DemoStep(
                    M_(
                        "{player} extends the amber end with a blue stick on {stick} "
                        "(the wrong colour)",
                        player=who,
                        stick=str(stick),
                    ),
                    f"place {stick} B",
                    n,
                    WRONG,
                ),
                DemoStep(
                    M_("{player} takes the blue stick off {stick}", player=who, stick=str(stick)),
                    f"lift {stick}",
                    n,
                ),
            ]
        if n == 5:
            extra = engine.parse_action("B:e5-f5")
            reason = engine.why_illegal(state, extra)
            if reason is not None:
                raise IllegalMove(f"the demo's B:e5-f5 is not legal where it is played: {reason}")
            steps += [
                DemoStep(
                    M_("{player} lays a blue stick on {stick}", player=who, stick="e5-f5"),
                    "place e5-f5 B",
                    n + 1,
                ),
                DemoStep(
                    M_("{player} thinks again and lifts the stick off", player=who),
                    "lift e5-f5",
                    n + 1,
                    TAKEBACK,
                ),
                DemoStep(
                    M_("the board stays in the earlier position: the stick is taken back"), "", n
                ),
            ]
        if n == 6:
            steps += [
                DemoStep(
                    M_(
                        "{player} lifts the stick on {stick} for a moment",
                        player=who,
                        stick="c5-c6",
                    ),
                    "lift c5-c6",
                    n,
                    LIFTED,
                ),
                DemoStep(M_("{player} puts the stick back", player=who), "place c5-c6 A", n),
            ]
        src, dst = str(action.src), str(action.dst)
        say = (
            M_("{player} extends the amber end from {src} to {dst}", player=who, src=src, dst=dst)
            if colour == "A"
            else M_(
                "{player} extends the blue end from {src} to {dst}", player=who, src=src, dst=dst
            )
        )
        moves, phases = n + 1, frozenset[str]()
        if n == 0:
            # the same stick either way: the board cannot say which end the line grew from
            one, other = str(stick).split("-")
            say = M_(
                "{player} lays the first stick, amber, on {stick}: from {one} or from {other}?",
                player=who,
                stick=str(stick),
                one=one,
                other=other,
            )
            moves, phases = 0, CHOOSING
        elif n == 1:
            if colour != "B":
                raise IllegalMove(f"the demo's second stick {text} should be blue")
            say = M_(
                "{player} extends the blue end from {src} to {dst}: so the first stick "
                "started at {src}, and both are recorded",
                player=who,
                src=src,
                dst=dst,
            )
        steps.append(DemoStep(say, f"place {stick} {colour}", moves, phases))
        match.play(action)
    return Demo(OPTIONS, tuple(steps), winner, MOVES)
