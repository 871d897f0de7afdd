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


def test_profile_list_named_in_the_defaults_prints_the_shipped_profiles(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from hardware.profiles import builtin_profiles

    assert "`boardctl profile list`" in (ROOT / "boardctl/defaults.toml").read_text()
    assert main(["profile", "list"]) == 0
    names = [line.split()[0] for line in capsys.readouterr().out.splitlines()[:-1]]
    assert names == builtin_profiles() and "shiftago-colour" in names


def test_the_readme_says_which_tools_take_sim() -> None:
    sentence = re.search(r"(?s)\n(`test leds`[^.]*?) take `--sim`", README)
    assert sentence, "the README names the tools that take --sim"
    tools = re.findall(r"`([a-z ]+)`", sentence.group(1))
    assert tools == ["test leds", "test sensors", "calibrate"]
    parser = build_parser()
    for tool in tools:
        assert parser.parse_args([*tool.split(), "duploline", "--sim"]).sim
    for tool in (["profile", "check", "duploline"], ["config", "show"]):
        with pytest.raises(SystemExit):
            parser.parse_args([*tool, "--sim"])


def test_install_puts_boardctl_on_the_path_before_using_it_bare() -> None:
    # the package puts /usr/bin/boardctl there; by hand, a link in /usr/local/bin does
    lines = (ROOT / "docs/install.md").read_text().splitlines()
    package = next(n for n, line in enumerate(lines) if line.startswith("sudo apt install ./"))
    by_hand = lines.index("## By hand, in a virtual environment")
    link = lines.index("sudo ln -s /opt/boardctl/venv/bin/boardctl /usr/local/bin/boardctl")
    bare = [n for n, line in enumerate(lines) if re.match(r"(sudo )?boardctl ", line)]
    assert bare and min(bare) > package
    assert all(n > link for n in bare if n > by_hand)
