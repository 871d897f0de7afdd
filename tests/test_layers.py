"""The pure core imports no I/O, no clock and no outer layer."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PURE = [
    *sorted((ROOT / "boardctl/engines").rglob("*.py")),
    *sorted((ROOT / "boardctl/computer").rglob("*.py")),
    ROOT / "boardctl/board.py",
    ROOT / "boardctl/sensing.py",
    ROOT / "boardctl/sim/hands.py",
    ROOT / "boardctl/plots.py",
    ROOT / "boardctl/message.py",
    *sorted((ROOT / "boardctl/sound").glob("*.py")),
    *(
        ROOT / f"boardctl/controller/{name}.py"
        for name in (
            "reconcile",
            "scenes",
            "view",
            "tracking",
            "phases",
            "choosing",
            "chance",
            "present",
            "machine",
            "commands",
            "buttons",
            "cursor",
            "deadlines",
            "amending",
            "recorder",
            "idle",
            "hours",
            "phones",
            "opponent",
        )
    ),
]
#: modules the pure core must not import: I/O, threads, the clock, randomness, outer layers
FORBIDDEN = (
    "os",
    "io",
    "socket",
    "sqlite3",
    "threading",
    "time",
    "datetime",
    "random",
    "subprocess",
    "gc",
    "serial",
    "gpiozero",
    "rpi_ws281x",
    "spidev",
    "hardware",
    "firmware_bridge",
    "boardctl.daemon",
    "boardctl.cli",
    "boardctl.controller.loop",
    "boardctl.controller.store",
    "boardctl.controller.control",
)


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", PURE, ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_module_imports_nothing_impure(path: Path) -> None:
    bad = sorted(
        name
        for name in _imports(path)
        if any(name == f or name.startswith(f + ".") for f in FORBIDDEN)
    )
    assert not bad, f"{path.relative_to(ROOT)} imports {', '.join(bad)}"


def test_the_core_never_imports_the_outer_packages() -> None:
    for path in (ROOT / "boardctl").rglob("*.py"):
        rel = path.relative_to(ROOT)
        if rel.parts[1] in ("daemon", "cli", "sim") or rel.name in ("loop.py",):
            continue
        top = {name.split(".")[0] for name in _imports(path)}
        assert not top & {"hardware", "firmware_bridge"}, f"{rel} imports an outer package"


def test_the_spi_reader_builds_on_the_gpio_base_not_on_the_gpio_sources() -> None:
    """gpio_sensing opens the SPI reader; the SPI reader must not import it back."""
    assert "hardware.gpio_sensing" not in _imports(ROOT / "hardware/spi_sensing.py")
    assert not {"hardware.gpio_sensing", "hardware.spi_sensing"} & _imports(
        ROOT / "hardware/gpio_source.py"
    )


#: what an engine package may import from this project: the engine seam, the errors and
#: the texts for people (boardctl.message: English that a surface translates, no I/O)
ENGINE_MAY_IMPORT = ("boardctl.engines", "boardctl.errors", "boardctl.message")
#: the computer opponent reads the engines and raises its errors, nothing more
COMPUTER_MAY_IMPORT = ("boardctl.computer", *ENGINE_MAY_IMPORT)


@pytest.mark.parametrize(
    "path",
    sorted((ROOT / "boardctl/engines").rglob("*.py")),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_an_engine_imports_nothing_of_the_product_outside_the_engines(path: Path) -> None:
    outside = sorted(
        name
        for name in _imports(path)
        if name.split(".")[0] == "boardctl"
        and not any(name == m or name.startswith(m + ".") for m in ENGINE_MAY_IMPORT)
    )
    assert not outside, f"{path.relative_to(ROOT)} imports {', '.join(outside)}"


@pytest.mark.parametrize(
    "path",
    sorted((ROOT / "boardctl/computer").rglob("*.py")),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_the_computer_imports_only_the_engines_and_the_errors(path: Path) -> None:
    outside = sorted(
        name
        for name in _imports(path)
        if name.split(".")[0] == "boardctl"
        and not any(name == m or name.startswith(m + ".") for m in COMPUTER_MAY_IMPORT)
    )
    assert not outside, f"{path.relative_to(ROOT)} imports {', '.join(outside)}"


def test_the_texts_for_people_import_nothing_of_the_product() -> None:
    """The engines mark their texts with boardctl.message: it must stay a leaf."""
    imported = _imports(ROOT / "boardctl/message.py")
    assert not {name for name in imported if name.split(".")[0] == "boardctl"}
