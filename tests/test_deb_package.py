"""The Debian package holds the right files in the right places, its maintainer
scripts parse, and `boardctl service install` leaves the package's files in force.

(`make deb` builds the real packages and `make pi-check` installs one on arm64;
this is the quick part of that, on fake wheels, in seconds.)"""

from __future__ import annotations

import contextlib
import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from boardctl import __version__, config
from boardctl.cli.main import main
from boardctl.daemon import units
from hardware.profiles import find_profile

ROOT = Path(__file__).resolve().parent.parent
WHEELS = (
    f"boardctl-{__version__}-py3-none-any.whl",
    "gpiozero-2.0.1.post3-py3-none-any.whl",
    "pip-26.3-py3-none-any.whl",
    "rpi_ws281x-5.0.0-cp311-cp311-linux_x86_64.whl",
)


def _load_build() -> ModuleType:
    spec = importlib.util.spec_from_file_location("deb_build", ROOT / "deb/build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["deb_build"] = module
    spec.loader.exec_module(module)
    return module


build = _load_build()


def _wheelhouse(tmp_path: Path, names: tuple[str, ...] = WHEELS) -> Path:
    house = tmp_path / "wheels"
    house.mkdir()
    for name in names:
        (house / name).write_bytes(b"a wheel")
    return house


def _files(tree: Path) -> set[str]:
    return {p.relative_to(tree).as_posix() for p in tree.rglob("*") if not p.is_dir()}


def test_the_package_holds_the_service_the_config_and_the_wheelhouse(tmp_path: Path) -> None:
    tree = build.stage("amd64", _wheelhouse(tmp_path), tmp_path / "tree")
    assert _files(tree) == {
        "DEBIAN/control",
        "DEBIAN/conffiles",
        "DEBIAN/md5sums",
        "DEBIAN/preinst",
        "DEBIAN/postinst",
        "DEBIAN/prerm",
        "DEBIAN/postrm",
        "etc/boardctl/boardctl.toml",
        "lib/systemd/system/boardctl.service",
        "lib/udev/rules.d/70-boardctl.rules",
        "usr/lib/sysusers.d/boardctl.conf",
        "usr/bin/boardctl",
        "usr/share/doc/boardctl/copyright",
        "usr/share/doc/boardctl/changelog.Debian.gz",
        "opt/boardctl/wheels/VERSION",
        *(f"opt/boardctl/wheels/{w}" for w in WHEELS),
    }
    assert (tree / "DEBIAN/conffiles").read_text() == "/etc/boardctl/boardctl.toml\n"
    control = (tree / "DEBIAN/control").read_text()
    assert f"Version: {__version__}-{build.REVISION}\n" in control
    assert "Architecture: amd64\n" in control
    assert "Depends: python3 (>= 3.11), python3 (<< 3.12), systemd\n" in control
    # the command on the PATH is the one the unit starts
    assert str((tree / "usr/bin/boardctl").readlink()) == units.DEFAULT_BOARDCTL
    for script in build.SCRIPTS:
        assert (tree / "DEBIAN" / script).stat().st_mode & 0o777 == 0o755


def test_the_packaged_unit_files_are_where_service_install_looks_for_them(
    tmp_path: Path,
) -> None:
    tree = build.stage("amd64", _wheelhouse(tmp_path), tmp_path / "tree")
    for etc_path, packaged in units.PACKAGED.items():
        rendered = next(u.text for u in units.unit_files() if u.path == etc_path)
        assert (tree / packaged.lstrip("/")).read_text() == rendered


def test_service_install_keeps_the_packages_files_and_writes_the_web_dropin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = build.stage("amd64", _wheelhouse(tmp_path), tmp_path / "root")
    old_copy = root / "etc/systemd/system/boardctl.service"
    old_copy.parent.mkdir(parents=True)
    old_copy.write_text(units.service_unit())
    conf = root / "etc/boardctl/boardctl.toml"
    conf.write_text(conf.read_text() + 'listen = "127.0.0.1:8080"\n')
    args = ["service", "install", "--root", str(root), "--config", str(conf)]
    assert main([*args, "--boardctl", units.DEFAULT_BOARDCTL]) == 0
    out = capsys.readouterr().out
    assert not old_copy.exists(), "a copy in /etc would hide the package's next unit"
    assert not (root / "etc/sysusers.d/boardctl.conf").exists()
    assert not (root / "etc/udev/rules.d").exists()
    assert (root / units.WEB_DROPIN.lstrip("/")).exists()
    assert "kept " in out and "lib/systemd/system/boardctl.service (the package's)" in out


def test_a_wheel_for_another_machine_or_python_is_refused(tmp_path: Path) -> None:
    arm = _wheelhouse(tmp_path, (*WHEELS[:3], "lgpio-0.2.2.0-cp311-cp311-linux_armv7l.whl"))
    with pytest.raises(build.PackageError, match="not for amd64"):
        build.stage("amd64", arm, tmp_path / "tree")
    (tmp_path / "wheels").rename(tmp_path / "arm")
    py312 = _wheelhouse(tmp_path, (*WHEELS[:3], "spidev-3.8-cp312-cp312-linux_x86_64.whl"))
    with pytest.raises(build.PackageError, match=r"not for Python 3\.11"):
        build.stage("amd64", py312, tmp_path / "tree")


def test_the_default_configuration_is_valid_and_names_a_shipped_board() -> None:
    cfg = config.load(ROOT / "deb/boardctl.toml", required=True)
    assert find_profile(cfg.board.profile).exists()


@pytest.mark.parametrize("script", ["preinst", "postinst", "prerm", "postrm"])
def test_maintainer_scripts_parse_as_posix_shell(script: str) -> None:
    shell = shutil.which("dash") or "/bin/sh"
    subprocess.run([shell, "-n", str(ROOT / "deb" / script)], check=True)


@pytest.mark.skipif(shutil.which("dpkg-deb") is None, reason="dpkg-deb is not installed")
def test_dpkg_deb_builds_it_with_root_owned_files(tmp_path: Path) -> None:
    tree = build.stage("amd64", _wheelhouse(tmp_path), tmp_path / "tree")
    deb = build.build(tree, tmp_path / "out")
    assert deb.name == f"boardctl_{__version__}-{build.REVISION}_amd64.deb"
    listing = subprocess.run(
        ["dpkg-deb", "-c", str(deb)], capture_output=True, text=True, check=True
    ).stdout
    assert "root/root" in listing and "-> /opt/boardctl/venv/bin/boardctl" in listing
    assert all(" root/root " in line for line in listing.splitlines())


def _runtime_requirements(deep: bool = True) -> set[str]:
    """The names of every library boardctl needs at run time on a Pi (aarch64,
    Python 3.11), with the libraries those need (``deep``), as this environment
    holds them."""
    import tomllib
    from importlib.metadata import PackageNotFoundError, requires

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    pi = {"sys_platform": "linux", "platform_machine": "aarch64", "python_version": "3.11"}
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    todo = [Requirement(r) for r in project["dependencies"]]
    names: set[str] = set()
    while todo:
        req = todo.pop()
        if req.marker is not None and not req.marker.evaluate({**pi, "extra": ""}):
            continue
        name = canonicalize_name(req.name)
        if name in names:
            continue
        names.add(name)
        if not deep:
            continue
        with contextlib.suppress(PackageNotFoundError):  # lgpio off a Pi: pinned all the same
            todo.extend(Requirement(r) for r in requires(req.name) or ())
    return names


def test_every_library_the_package_ships_is_pinned_named_and_imported() -> None:
    """One version of the package is one set of wheels: each runtime library
    (and each it needs) is pinned in deb/constraints.txt, named in
    docs/install.md's table of what is installed, and imported by pi-check."""
    from packaging.utils import canonicalize_name

    needed = _runtime_requirements()
    pinned = {
        canonicalize_name(line.split("==")[0])
        for line in (ROOT / "deb/constraints.txt").read_text().splitlines()
        if "==" in line and not line.startswith("#")
    }
    assert needed - pinned == set(), "pin these in deb/constraints.txt"
    row = next(
        line
        for line in (ROOT / "docs/install.md").read_text().splitlines()
        if line.startswith("| boardctl and every library it needs")
    )
    listed = {canonicalize_name(w) for w in row.split("(")[1].split(")")[0].split(", ")}
    assert _runtime_requirements(deep=False) - listed == set(), "name these in docs/install.md"
    inside = (ROOT / "deb/pi-check-inside.sh").read_text()
    for module in ("aiomqtt", "paho.mqtt", "segno", "microdot", "serial"):
        assert module in inside.split('libs="')[1].split('"')[0].split()
