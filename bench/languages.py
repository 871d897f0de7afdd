"""What the languages cost: reading a catalog, translating a status, a page in a language.

- each catalog (.po) read when a language is first asked for (boardctl.i18n.read_po),
  and the memory it holds;
- one live status of a Shiftago game under way translated whole (what the web server
  does once per state and language for the pages' push streams);
- a page filled in a language (once per page and language, then cached);
- Linie 1's board described (its 1,518 pieces named: done at start-up, twice), fastest and
  median of --rounds fresh engines, and a tile with things on it named when shown.

    .venv/bin/python bench/languages.py [--rounds 200]
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc

from boardctl import i18n
from boardctl.engines import create, engine_class
from boardctl.engines.match import Match
from boardctl.web import languages


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()

    for code in i18n.languages()[1:]:
        path = i18n.catalog_path(code)
        start = time.perf_counter()
        catalog = i18n.read_po(path)
        took = time.perf_counter() - start
        tracemalloc.start()
        i18n.read_po(path)
        size = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(
            f"catalog {code}: {len(catalog._catalog)} texts read in {_ms(took)}, "
            f"{size / 1024:.0f} KiB at most ({path.stat().st_size / 1024:.0f} KiB on disk)"
        )

    engine = engine_class("shiftago")()
    match = Match(engine)
    for action in list(engine.legal_actions(match.state))[:1]:
        match.play(action)
    status = {**match.summary(), "picture": engine.render(match.state)}
    for code in i18n.languages():
        i18n.localized(status, code)  # the catalog read once, as a board does
        start = time.perf_counter()
        for _ in range(args.rounds):
            i18n.localized(status, code)
        each = (time.perf_counter() - start) / args.rounds
        print(f"a Shiftago status translated whole into {code}: {_ms(each)} each")

    for code in i18n.languages():
        languages.page.cache_clear()
        start = time.perf_counter()
        body = languages.page("board", code)
        took = _ms(time.perf_counter() - start)
        print(f"the live board's page in {code}: {took}, {len(body)} bytes")

    times = []
    for _ in range(args.rounds):
        linie1 = create("linie1")
        start = time.perf_counter()
        spec = linie1.board()
        times.append(time.perf_counter() - start)
    print(
        f"Linie 1's board described ({len(spec.pieces)} pieces): fastest {_ms(min(times))}, "
        f"median {_ms(statistics.median(times))}"
    )
    start = time.perf_counter()
    for _ in range(args.rounds):
        with i18n.language("de"):
            i18n.translate(spec.named("2N+stop+car1"))
    each = _ms((time.perf_counter() - start) / args.rounds)
    print(f"a tile with things on it named in German when shown: {each}")


if __name__ == "__main__":
    main()
