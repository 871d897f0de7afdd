"""What the command line's languages cost: a ``boardctl`` process run start to end,
from an English and a German terminal (fastest and median of --runs).

- ``--version``: parsing alone (the language is never looked up);
- ``status --help``: every help text of a command, formatted in the language;
- ``roll``: argparse's own complaint (a missing argument), in the language;
- ``profile check shiftago-colour``: a board profile read and reported;
- ``config show`` with a fault: a configuration refused with its file, line and fix.

``--tree DIR`` runs another checkout's package (an older commit, for a before/after):

    .venv/bin/python bench/cli_languages.py [--runs 15] [--tree DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMMANDS = (
    ["--version"],
    ["status", "--help"],
    ["roll"],
    ["profile", "check", "shiftago-colour"],
    ["config", "show", "--set", "control.mode=0666"],
)


def _run(argv: list[str], lang: str, tree: Path | None) -> float:
    env = {**os.environ, "LANG": lang, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""}
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "boardctl.cli.main", *argv],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--tree", type=Path, help="the checkout whose boardctl to run")
    args = parser.parse_args()
    print(f"boardctl of {args.tree or 'this checkout'}, {args.runs} runs each")
    for argv in COMMANDS:
        for lang in ("C.UTF-8", "de_DE.UTF-8"):
            times = [_run(argv, lang, args.tree) for _ in range(args.runs)]
            print(
                f"  {' '.join(argv):<38} {lang:<12} fastest {min(times) * 1000:6.0f} ms, "
                f"median {statistics.median(times) * 1000:6.0f} ms"
            )


if __name__ == "__main__":
    main()
