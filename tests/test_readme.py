"""The commands the README shows work as shown."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from boardctl.cli.main import build_parser, main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
RULES_COMMANDS = re.findall(r"(?m)^(boardctl rules .+)$", README)


def test_the_readme_starts_with_the_commands_that_set_everything_up() -> None:
    first_block = README.split("```")[1]
    assert [line.split("#")[0].strip() for line in first_block.strip().splitlines()[1:]] == [
        "make sim",
        "make test",
    ]


@pytest.mark.parametrize("line", RULES_COMMANDS)
def test_rules_examples_run(
    line: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    assert main(shlex.split(line)[1:]) == 0
    assert capsys.readouterr().out


def test_every_command_in_the_cli_table_exists() -> None:
    parser = build_parser()
    known = set(parser._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    table = re.findall(r"(?m)^\| `boardctl ([a-z]+)", README)
    assert table and set(table) <= known, set(table) - known
