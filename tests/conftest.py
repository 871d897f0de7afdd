"""What every test leaves as it found it: the root logger's level, and no
handler of its own on the root logger.

``boardctl run`` run in process (``main(["run", ...])``) and ``boardctl sim``
set up the root logger as the daemon does, writing to the stderr of that
moment, which pytest closes once the test ends; a later test's thread that
logs would then write to a closed file."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _root_logging_restored() -> Iterator[None]:
    root = logging.getLogger()
    before, level = set(root.handlers), root.level
    yield
    for handler in list(root.handlers):
        # pytest adds and removes its own handlers around each phase
        if handler not in before and not type(handler).__module__.startswith("_pytest"):
            root.removeHandler(handler)
    root.setLevel(level)
