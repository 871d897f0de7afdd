"""The board declaration each web viewer is sent once a game: its size per game.

Builds each built-in game's declaration (``boardctl.web.publish.declaration``)
on a board profile of that game and prints its JSON size and piece count.

    .venv/bin/python bench/declaration.py
"""

from __future__ import annotations

import json

from boardctl.engines import GAMES, create
from boardctl.web.publish import declaration
from hardware.profiles import builtin_profiles, load_profile


def main() -> None:
    profiles = [load_profile(name) for name in builtin_profiles()]
    for game in sorted(GAMES):
        profile = next(p for p in profiles if p.game == game)
        engine = create(game, profile.game_options)
        board = declaration(engine, profile)
        size = len(json.dumps(board).encode())
        print(
            f"{game:10} on {profile.name:18} {size:8,} bytes  "
            f"{len(board['pieces']):5} pieces declared of {len(engine.board().pieces):5}"
        )


if __name__ == "__main__":
    main()
