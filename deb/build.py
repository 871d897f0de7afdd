"""Lay out boardctl's Debian package and build it with dpkg-deb.

    python3 deb/build.py --arch arm64 --wheels build/wheels/arm64 --out build/deb

The package carries no built environment. It carries a wheelhouse
(``/opt/boardctl/wheels``: boardctl's wheel and every wheel it needs on that
architecture), and its postinst builds ``/opt/boardctl/venv`` from it with no
network. Beside it: the systemd unit, the sysusers.d file, the udev rule (the
files in ``systemd/``, which a test keeps equal to ``boardctl.daemon.units``),
a default configuration ``/etc/boardctl/boardctl.toml`` (a conffile) and
``/usr/bin/boardctl``. Standard library only: it runs on any Python 3.11.
"""

from __future__ import annotations

import argparse
import ast
import gzip
import hashlib
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent
HERE = SOURCE / "deb"
#: the Debian revision: raise it for a new package of the same boardctl version
REVISION = "1"
MAINTAINER = "boardctl maintainers <maintainers@users.noreply.a-seed-f7656f73.example>"
#: the environment is made by Debian 12's Python 3.11 and must keep its minor version
DEPENDS = "python3 (>= 3.11), python3 (<< 3.12), systemd"
#: the speaker's player and the voice (docs/sound.md): the board plays without them
RECOMMENDS = "alsa-utils, espeak-ng"
#: what ``uname -m`` (and a wheel's platform tag) says on each architecture
MACHINES = {"amd64": "x86_64", "arm64": "aarch64", "armhf": "armv7l"}
WHEELHOUSE = "opt/boardctl/wheels"
CONFFILES = ("/etc/boardctl/boardctl.toml",)
SCRIPTS = ("preinst", "postinst", "prerm", "postrm")


@dataclass(frozen=True, slots=True)
class Placed:
    """One file of the package: where it comes from, where it goes, its mode."""

    source: Path
    target: str
    mode: int = 0o644


#: every file of the package but the wheels, and the maintainer scripts
FILES = (
    Placed(SOURCE / "systemd/boardctl.service", "lib/systemd/system/boardctl.service"),
    Placed(SOURCE / "systemd/boardctl.sysusers", "usr/lib/sysusers.d/boardctl.conf"),
    Placed(SOURCE / "systemd/70-boardctl.rules", "lib/udev/rules.d/70-boardctl.rules"),
    Placed(HERE / "boardctl.toml", "etc/boardctl/boardctl.toml"),
    Placed(HERE / "copyright", "usr/share/doc/boardctl/copyright"),
)
#: the command on the PATH, into the environment the postinst builds
LINKS = {"usr/bin/boardctl": "/opt/boardctl/venv/bin/boardctl"}


class PackageError(Exception):
    """A wheelhouse or tree that would make a wrong package."""


def boardctl_version() -> str:
    """``boardctl.__version__``, read without importing boardctl."""
    tree = ast.parse((SOURCE / "boardctl/__init__.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__version__" for t in node.targets
        ):
            value = ast.literal_eval(node.value)
            if isinstance(value, str):
                return value
    raise PackageError("boardctl/__init__.py sets no __version__")


def deb_version() -> str:
    return f"{boardctl_version()}-{REVISION}"


def check_wheels(arch: str, wheels: list[Path]) -> None:
    """Refuse a wheelhouse without boardctl's wheel of this version, or with a
    wheel built for another architecture or another Python than 3.11."""
    version = boardctl_version()
    names = [w.name for w in wheels]
    if f"boardctl-{version}-py3-none-any.whl" not in names:
        raise PackageError(f"the wheelhouse has no boardctl-{version}-py3-none-any.whl: {names}")
    machine = MACHINES[arch]
    for name in names:
        # name-version(-build)?-python-abi-platform.whl
        _python, abi, platform = name.removesuffix(".whl").split("-")[-3:]
        if platform != "any" and not platform.endswith(machine):
            raise PackageError(f"{name} is not for {arch} ({machine})")
        if abi not in ("none", "abi3") and abi != "cp311":
            raise PackageError(f"{name} is not for Python 3.11 (Debian 12's)")


def control(arch: str, installed_kib: int) -> str:
    return f"""\
Package: boardctl
Version: {deb_version()}
Architecture: {arch}
Maintainer: {MAINTAINER}
Installed-Size: {installed_kib}
Depends: {DEPENDS}
Recommends: {RECOMMENDS}
Section: misc
Priority: optional
Description: sensors, rules and LEDs that make a board game electronic
 boardctl turns a physical board game into an electronic one on a Raspberry
 Pi: it reads the pieces through sensors, checks every move against the rules,
 lights the board's LEDs and keeps the score, as the systemd service boardctl.
 .
 The application runs in its own virtual environment, /opt/boardctl/venv,
 which the package builds at installation from the wheels it carries: no
 network is needed. /etc/boardctl is kept across upgrades; the games in
 /var/lib/boardctl are kept even by a purge.
"""


def stage(arch: str, wheels: Path, tree: Path) -> Path:
    """Lay the package out in ``tree`` (emptied first); return it."""
    if arch not in MACHINES:
        raise PackageError(f"unknown architecture {arch!r}: one of {', '.join(MACHINES)}")
    found = sorted(wheels.glob("*.whl"))
    check_wheels(arch, found)
    if tree.exists():
        shutil.rmtree(tree)
    for placed in FILES:
        target = tree / placed.target
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(placed.source, target)
        target.chmod(placed.mode)
    house = tree / WHEELHOUSE
    house.mkdir(parents=True)
    for wheel in found:
        shutil.copyfile(wheel, house / wheel.name)
        (house / wheel.name).chmod(0o644)
    (house / "VERSION").write_text(deb_version() + "\n")
    for link, points_to in LINKS.items():
        (tree / link).parent.mkdir(parents=True, exist_ok=True)
        (tree / link).symlink_to(points_to)
    doc = tree / "usr/share/doc/boardctl"
    with gzip.GzipFile(doc / "changelog.Debian.gz", "wb", mtime=0) as out:
        out.write(changelog().encode())
    _directories_readable(tree)

    debian = tree / "DEBIAN"
    debian.mkdir()
    for script in SCRIPTS:
        shutil.copyfile(HERE / script, debian / script)
        (debian / script).chmod(0o755)
    (debian / "conffiles").write_text("".join(f"{c}\n" for c in CONFFILES))
    (debian / "md5sums").write_text(md5sums(tree))
    size = sum(p.stat().st_size for p in tree.rglob("*") if p.is_file() and not p.is_symlink())
    (debian / "control").write_text(control(arch, -(-size // 1024)))
    return tree


def changelog() -> str:
    return (
        f"boardctl ({deb_version()}) bookworm; urgency=medium\n\n"
        f"  * boardctl {boardctl_version()}; what changed is in its git log.\n\n"
        f" -- {MAINTAINER}  Thu, 01 Jan 1970 00:00:00 +0000\n"
    )


def md5sums(tree: Path) -> str:
    lines = []
    for path in sorted(tree.rglob("*")):
        rel = path.relative_to(tree).as_posix()
        if path.is_file() and not path.is_symlink() and not rel.startswith("DEBIAN/"):
            lines.append(f"{hashlib.md5(path.read_bytes()).hexdigest()}  {rel}\n")
    return "".join(lines)


def _directories_readable(tree: Path) -> None:
    for path in [tree, *tree.rglob("*")]:
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o755)


def build(tree: Path, out: Path) -> Path:
    """``dpkg-deb --build`` of a staged tree, into ``out``; the .deb's path."""
    control_text = (tree / "DEBIAN/control").read_text()
    fields = dict(
        line.split(": ", 1) for line in control_text.splitlines() if not line.startswith(" ")
    )
    out.mkdir(parents=True, exist_ok=True)
    deb = out / f"boardctl_{fields['Version']}_{fields['Architecture']}.deb"
    subprocess.run(
        ["dpkg-deb", "--root-owner-group", "-Zxz", "--build", str(tree), str(deb)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return deb


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", choices=sorted(MACHINES))
    parser.add_argument("--wheels", type=Path, help="the wheelhouse for --arch")
    parser.add_argument("--out", type=Path, default=SOURCE / "build/deb")
    parser.add_argument("--print-version", action="store_true", help="print the version, no more")
    args = parser.parse_args(argv)
    if args.print_version:
        print(deb_version())
        return 0
    if args.arch is None or args.wheels is None:
        parser.error("--arch and --wheels are needed")
    try:
        tree = stage(args.arch, args.wheels, args.out / f"tree-{args.arch}")
    except PackageError as exc:
        print(f"deb/build.py: {exc}", file=sys.stderr)
        return 2
    deb = build(tree, args.out)
    print(f"built {deb} ({deb.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
