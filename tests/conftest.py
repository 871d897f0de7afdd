"""What every test leaves as it found it: the root logger's level, and no
handler of its own on the root logger.

``boardctl run`` run in process (``main(["run", ...])``) and ``boardctl sim``
set up the root logger as the daemon does, writing to the stderr of that
moment, which pytest closes once the test ends; a later test's thread that
logs would then write to a closed file.

And the one browser the web pages' tests drive (Debian's chromium through
Playwright, which allows one instance per process): ``browser`` and ``page``."""

from __future__ import annotations

import logging
import os
import shutil
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


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


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    if CHROMIUM is None or sync_playwright is None:
        why = (
            "chromium is not installed (apt-get install chromium)"
            if CHROMIUM is None
            else "playwright is not installed (pip install -e '.[test]')"
        )
        warnings.warn(f"the browser tests are skipped: {why}", stacklevel=1)
        pytest.skip(f"browser tests: {why}")
    with sync_playwright() as p:
        args = ["--no-sandbox"] if os.geteuid() == 0 else []
        b = p.chromium.launch(executable_path=CHROMIUM, args=args)
        yield b
        b.close()


# the pages' Content-Security-Policy forbids evaluated script: the tests' own
# probes (wait_for_function) need it let through
@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1100, "height": 820}, bypass_csp=True)
    yield context.new_page()
    context.close()
