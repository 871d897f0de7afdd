"""The controller's state diagram, drawn from the machine itself as mermaid text.

``python -m boardctl.controller.diagram --write`` rewrites
``docs/controller-states.md``; a test checks that it is up to date.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from boardctl.controller.view import PLAYING, Phase

DOC = Path(__file__).resolve().parents[2] / "docs" / "controller-states.md"


def mermaid() -> str:
    """The machine's states and transitions as a mermaid ``stateDiagram-v2``."""
    from boardctl.controller.phases import build_machine

    class _Model:
        pass

    machine = build_machine(_Model())
    lines = ["stateDiagram-v2", f"    [*] --> {Phase.STARTING.value}"]
    seen: set[str] = set()
    for name, event in machine.events.items():
        for source, transitions in event.transitions.items():
            for t in transitions:
                conds = [c.func if c.target else f"not {c.func}" for c in t.conditions]
                label = name + (f" [{', '.join(str(c) for c in conds)}]" if conds else "")
                line = f"    {Phase[source].value} --> {Phase[str(t.dest)].value}: {label}"
                if line not in seen:
                    seen.add(line)
                    lines.append(line)
    return "\n".join(lines) + "\n"


def _playing() -> str:
    names = [p.value for p in Phase if p in PLAYING]
    return ", ".join(names[:-1]) + " and " + names[-1]


def document() -> str:
    return (
        "# The controller's states\n\n"
        "Generated from `boardctl/controller/phases.py` by "
        "`python -m boardctl.controller.diagram --write`; do not edit by hand.\n"
        f"The playing phases are {_playing()}.\n\n"
        "```mermaid\n" + mermaid() + "```\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help=f"write {DOC}")
    args = parser.parse_args(argv)
    if args.write:
        DOC.write_text(document())
    else:
        sys.stdout.write(document())
    return 0


if __name__ == "__main__":
    sys.exit(main())
