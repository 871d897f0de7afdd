"""docs/controller.md names as settings only what the configuration file has."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path

from boardctl.controller.machine import Timing

ROOT = Path(__file__).parent.parent
DOC = (ROOT / "docs" / "controller.md").read_text()


def test_every_setting_the_controller_doc_names_is_in_the_configuration() -> None:
    defaults = tomllib.loads((ROOT / "boardctl" / "defaults.toml").read_text())
    named = re.findall(r"`\[(\w+)\] (\w+)`", DOC)
    assert named
    for section, key in named:
        assert key in defaults.get(section, {}), f"[{section}] {key} is not a setting"


def test_the_controller_doc_presents_no_fixed_time_as_a_setting() -> None:
    for field in dataclasses.fields(Timing):
        assert f"`{field.name}`" not in DOC, f"{field.name} cannot be configured"
