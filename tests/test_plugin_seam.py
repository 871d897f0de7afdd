"""One game, one plug-in: a made-up game package, and nothing else, is enough for
the profile checks, the simulator's hands and its screen to know the game.

The package lives in a temporary directory that is put on
``boardctl.engines.__path__`` before the engines are discovered, in a fresh
interpreter, exactly as a package placed in ``boardctl/engines/`` would be
found. No file of the product is edited.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from boardctl.controller.scenes import SKY_BLUE

ROOT = Path(__file__).resolve().parent.parent

#: a three-by-three game: each player drops a stone on an empty cell, or pushes
#: one in from the west along row 1 (the track W1); a full board is a draw
ENGINE = """
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from boardctl.engines.base import PLAYING, Engine, Outcome, Status
from boardctl.engines.describe import BoardSpec, PieceSpec, PlayerSpec, SiteSpec
from boardctl.errors import BadNotation

CELLS = tuple(f"{c}{r}" for r in "123" for c in "abc")
ROW1 = ("a1", "b1", "c1")


@dataclass(frozen=True)
class Options:
    players: int = 2


class Stones(Engine[tuple[tuple[str, str], ...], str]):
    name = "stones"
    Options = Options

    def __init__(self, options: Options | None = None) -> None:
        self.options = options or Options()
        if self.options.players != 2:
            from boardctl.errors import BadOptions

            raise BadOptions("stones: option 'players' must be 2")
        self.players = 2
        sites = [SiteSpec(n, "cell", x=i % 3 + 1, y=i // 3 + 1) for i, n in enumerate(CELLS)]
        sites.append(SiteSpec("W1", "track", x=0, y=1, sensed=False, path=ROW1))
        sites.append(SiteSpec("lamp", "display", x=4, y=3, sensed=False))
        self._board = BoardSpec(
            tuple(sites),
            (PieceSpec("s0", "amber stone", owner=0), PieceSpec("s1", "jade stone", owner=1)),
            (PlayerSpec("amber", "#ffbf00"), PlayerSpec("jade", "#00a86b")),
        )

    def initial(self):
        return ()

    def _free(self, state):
        taken = {s for s, _ in state}
        return [c for c in CELLS if c not in taken]

    def legal_actions(self, state) -> Iterator[str]:
        if self._free(state):
            yield from self._free(state)
            if "c1" in self._free(state):
                yield "W1"

    def why_illegal(self, state, action):
        return None if action in set(self.legal_actions(state)) else "not free"

    def apply_unchecked(self, state, action):
        piece = f"s{len(state) % 2}"
        if action == "W1":
            layout = dict(state)
            gap = next(i for i, c in enumerate(ROW1) if c not in layout)
            for i in range(gap, 0, -1):
                layout[ROW1[i]] = layout[ROW1[i - 1]]
            layout["a1"] = piece
            return tuple(sorted(layout.items()))
        return tuple(sorted((*state, (action, piece))))

    def to_move(self, state):
        return None if not self._free(state) else len(state) % 2

    def expects(self, state):
        return "place" if self._free(state) else "nothing"

    def task(self, state):
        return "drop a stone" if self._free(state) else "nothing"

    def outcome(self, state):
        return PLAYING if self._free(state) else Outcome(Status.DRAW, None, "board full")

    def parse_action(self, text):
        if text in CELLS or text == "W1":
            return text
        raise BadNotation(f"{text!r} is not a cell")

    def format_action(self, action):
        return action

    def state_to_json(self, state) -> dict[str, Any]:
        return {"layout": dict(state)}

    def state_from_json(self, data: Mapping[str, Any]):
        return tuple(sorted(data["layout"].items()))

    def board(self) -> BoardSpec:
        return self._board

    def layout(self, state):
        return dict(state)

    def shown(self, state):
        return frozenset({"lamp"}) if self._free(state) else frozenset()

    def render(self, state):
        return " ".join(dict(state).get(c, ".") for c in CELLS)
"""

DEMO = """
from boardctl.engines.describe import Demo, DemoStep


def demo() -> Demo:
    return Demo({}, (DemoStep("amber drops a stone on b2", "place b2 amber", 1),), 0, ("b2",))
"""

PROFILE = """
[board]
name = "stones-mini"
game = "stones"

[sensing]
kind = "serial"

[codes]
2 = "s0"
3 = "s1"

[leds]
count = 10

[sites]
{sites}
"""

#: run in a fresh interpreter: the package's folder joins boardctl.engines'
#: search path before the engines are discovered
PROBE = """
import importlib.util, json, sys
import boardctl
spec = importlib.util.find_spec("boardctl.engines")
spec.submodule_search_locations.append(sys.argv[1])
module = importlib.util.module_from_spec(spec)
sys.modules["boardctl.engines"] = module
spec.loader.exec_module(module)

from boardctl.controller.scenes import Palette, render
from boardctl.controller.view import Phase, View
from boardctl.engines import GAMES, create
from boardctl.sim import board, demo
from boardctl.sim.hands import HandCommand, apply_changes
from boardctl.sim.screen import command_help, player_label
from hardware.profiles import check_profile, load_profile

good, bad, lit = sys.argv[2], sys.argv[3], sys.argv[4]
profile = load_profile(good)
stones = create("stones", {})
view = View(Phase.AWAITING_MOVE, to_move=1, shown=stones.shown(stones.initial()))
lamp = render(view, load_profile(lit), Palette(), 0.0)[10]
spec = board.spec_of("stones")
place = board.plan(profile, spec, HandCommand.parse("place b2 jade"), {}, 0)
push = board.plan(profile, spec, HandCommand.parse("insert W1"), {"a1": "s1"}, 0)
print(json.dumps({
    "games": list(GAMES),
    "good": check_profile(good),
    "bad": check_profile(bad),
    "lit": check_profile(lit),
    "lamp": lamp,
    "place": apply_changes({}, place),
    "push": apply_changes({"a1": "s1"}, push),
    "names": [board.piece_word(spec, p.code) for p in spec.pieces],
    "label": player_label(spec, 1),
    "help": command_help(spec)[0],
    "demos": list(demo.demo_games()),
    "demo": [s.command for s in demo.script("stones").steps],
}))
"""


def _site_lines(skip: str = "", extra: str = "") -> str:
    cells = [f"{c}{r}" for r in "123" for c in "abc"]
    lines = [
        f'{name} = {{ kind = "cell", channel = {i}, reports = "code", leds = [{i}] }}'
        for i, name in enumerate(cells)
        if name != skip
    ]
    lines.append('W1 = { kind = "track", leds = [9] }')
    return "\n".join(lines + ([extra] if extra else []))


def _probe(tmp_path: Path) -> dict[str, Any]:
    package = tmp_path / "plugins" / "stones"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "from .engine import Stones\n\nENGINE = Stones\n", encoding="utf-8"
    )
    (package / "engine.py").write_text(textwrap.dedent(ENGINE), encoding="utf-8")
    (package / "demo.py").write_text(textwrap.dedent(DEMO), encoding="utf-8")
    good = tmp_path / "stones-mini.toml"
    good.write_text(PROFILE.format(sites=_site_lines()), encoding="utf-8")
    bad = tmp_path / "stones-bad.toml"
    wrong = PROFILE.replace('3 = "s1"', '3 = "s1"\n4 = "s7"').format(
        sites=_site_lines(skip="c3", extra='z9 = { kind = "cell", channel = 8, leds = [8] }')
    )
    bad.write_text(wrong, encoding="utf-8")
    lit = tmp_path / "stones-lit.toml"
    lamp = 'lamp = { kind = "display", leds = [10], x = 4, y = 3 }'
    lit.write_text(
        PROFILE.replace("count = 10", "count = 11").format(sites=_site_lines(extra=lamp)),
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path / "plugins"), str(good), str(bad), str(lit)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_a_game_package_alone_is_found_checked_and_played_by_hands(tmp_path: Path) -> None:
    seen = _probe(tmp_path)
    # found among the games, beside the shipped ones
    assert "stones" in seen["games"] and "shiftago" in seen["games"]
    # a profile for it is checked against what it declares; its display may be left out
    assert seen["good"] == [] and seen["lit"] == []
    # and where a board has it, the display shows in the colour of the player to act
    assert tuple(seen["lamp"]) == SKY_BLUE
    bad = "\n".join(seen["bad"])
    assert "codes.4: 's7' is not a stones piece; the pieces are s0, s1" in bad
    assert "stones needs 1 more sites: c3" in bad
    assert "sites.z9: stones has no site 'z9'" in bad
    # the simulator names its pieces and players, and pushes through its track
    assert seen["place"] == {"b2": "s1"}
    assert seen["push"] == {"a1": "s0", "b1": "s1"}
    assert seen["names"] == ["amber", "jade"]
    assert seen["label"] == "jade (player 2)"
    assert seen["help"].startswith("hands: insert W1 [amber] | place b2 amber")
    # and its demo, kept in its own package, is found by import
    assert "stones" in seen["demos"]
    assert seen["demo"] == ["place b2 amber"]
