#!/bin/sh
# Run by deb/pi-check.sh inside a clean Debian root of the Pi's architecture
# (under qemu-user-static): install the package as an operator would, use it,
# upgrade it, purge it. Each check says what it checks; the first failure stops.
# Figures go to /tmp/figures as "name seconds".
set -eu

VERSION=$1
fig() { echo "$1 $2" >>/tmp/figures; }
now() { date +%s.%N; }
took() { awk "BEGIN { printf \"%.2f\", $(now) - $1 }"; }
check() { printf '  ok  %s\n' "$*"; echo >>/tmp/passed; }
fail() { printf 'FAIL  %s\n' "$*" >&2; exit 1; }
: >/tmp/figures
: >/tmp/passed

echo "== apt install ./boardctl_${VERSION}_$(dpkg --print-architecture).deb"
t=$(now)
apt-get update -qq
apt-get install -y -qq --no-install-recommends "/tmp/deb/boardctl_${VERSION}_$(dpkg --print-architecture).deb" \
    >/tmp/apt.log 2>&1 || { tail -30 /tmp/apt.log; fail "apt install"; }
grep '^boardctl:' /tmp/apt.log || true
fig install "$(took "$t")"

[ "$(boardctl --version)" = "boardctl ${VERSION%-*}" ] || fail "boardctl --version says $(boardctl --version)"
check "boardctl --version: $(boardctl --version)"
getent passwd boardctl >/dev/null || fail "no boardctl user"
for g in gpio spi dialout audio; do
    id -nG boardctl | tr ' ' '\n' | grep -qx "$g" || fail "boardctl is not in group $g"
done
check "the boardctl user, in gpio, spi, dialout and audio"
[ -L /etc/systemd/system/multi-user.target.wants/boardctl.service ] || fail "the service is not enabled"
check "boardctl.service enabled"
[ "$(readlink -f /usr/bin/boardctl)" = "$(readlink -f /opt/boardctl/venv)/bin/boardctl" ] ||
    fail "/usr/bin/boardctl is not the environment's"
check "/usr/bin/boardctl -> $(readlink /opt/boardctl/venv)"
py=/opt/boardctl/venv/bin/python
libs="rpi_ws281x spidev gpiozero serial transitions microdot segno aiomqtt paho.mqtt"
# lgpio, gpiozero's pin library, is installed on ARM only (pyproject.toml's marker)
case "$(dpkg --print-architecture)" in arm64 | armhf) libs="lgpio $libs" ;; esac
for lib in $libs; do
    $py -c "import $lib" || fail "$lib does not import"
done
check "$(echo "$libs" | sed 's/ /, /g') import"

echo "== the catalogs: German and French texts come out of the installed package"
$py -c '
from boardctl import i18n
from boardctl.message import M_
assert i18n.languages() == ("en", "de", "fr"), i18n.languages()
with i18n.language("de"):
    assert i18n.translate(M_("insert a marble")) == "eine Kugel einschieben"
with i18n.language("fr"):
    assert i18n.translate(M_("insert a marble")) == "pousser une bille"
' || fail "the catalogs are missing from the package"
check "catalogs: $($py -c 'from boardctl import i18n; print(" ".join(i18n.languages()))')"

echo "== boardctl profile check, every shipped profile"
t=$(now)
profiles=$(boardctl profile list | awk 'NF > 1 && $1 !~ /^\(/ { print $1 }')
[ -n "$profiles" ] || fail "boardctl profile list lists nothing"
for p in $profiles; do
    boardctl profile check "$p" >/tmp/profile.log 2>&1 || { cat /tmp/profile.log; fail "profile check $p"; }
    check "profile check $p"
done
fig profiles "$(took "$t")"

echo "== boardctl sim --demo, every game with a demo"
games=$($py -c 'from boardctl.sim.demo import demo_games; print(" ".join(demo_games()))')
for g in $games; do
    t=$(now)
    boardctl sim --demo "$g" --delay 0 </dev/null >/tmp/demo.log 2>&1 || { tail -20 /tmp/demo.log; fail "sim --demo $g"; }
    result=$(grep '^result:' /tmp/demo.log | tail -1)
    [ -n "$result" ] || { tail -20 /tmp/demo.log; fail "sim --demo $g showed no result"; }
    s=$(took "$t")
    fig "demo-$g" "$s"
    check "sim --demo $g ($(printf '%.1f' "$s") s): $result"
done

echo "== the daemon's start to READY=1 (bench/daemon.py, twice)"
for run in 1 2; do
    $py /tmp/bench_daemon.py --idle 2 --browse 0 >/tmp/bench.log 2>&1 || { cat /tmp/bench.log; fail "bench/daemon.py"; }
    sed 's/^/  /' /tmp/bench.log
    fig "ready-$run" "$(awk '/start to READY/ { print $4 / 1000 }' /tmp/bench.log)"
    fig "help-$run" "$(awk '/boardctl --help/ { print $3 / 1000 }' /tmp/bench.log)"
done

echo "== an upgrade keeps /etc/boardctl and the games"
echo '# changed by the operator' >>/etc/boardctl/boardctl.toml
mkdir -p /var/lib/boardctl && echo 'a game' >/var/lib/boardctl/games.db
before=$(readlink /opt/boardctl/venv)
t=$(now)
dpkg -i /tmp/deb/upgrade.deb >/tmp/upgrade.log 2>&1 || { tail -20 /tmp/upgrade.log; fail "the upgrade"; }
fig upgrade "$(took "$t")"
grep -q 'changed by the operator' /etc/boardctl/boardctl.toml || fail "the upgrade replaced boardctl.toml"
[ -e /var/lib/boardctl/games.db ] || fail "the upgrade lost the games"
after=$(readlink /opt/boardctl/venv)
[ "$after" != "$before" ] && [ ! -e "/opt/boardctl/$before" ] || fail "the old environment is still there"
boardctl --version >/dev/null || fail "boardctl after the upgrade"
check "upgraded to $(dpkg-query -W -f '${Version}' boardctl): boardctl.toml and the games kept, $before replaced by $after"

echo "== apt purge removes everything but the games"
apt-get purge -y -qq boardctl >/tmp/purge.log 2>&1 || { tail -20 /tmp/purge.log; fail "apt purge"; }
for gone in /opt/boardctl /etc/boardctl /usr/bin/boardctl /lib/systemd/system/boardctl.service \
    /usr/lib/sysusers.d/boardctl.conf /lib/udev/rules.d/70-boardctl.rules \
    /etc/systemd/system/multi-user.target.wants/boardctl.service; do
    [ ! -e "$gone" ] && [ ! -L "$gone" ] || fail "$gone is still there after the purge"
done
[ -e /var/lib/boardctl/games.db ] || fail "the purge removed the games"
check "purged: /opt/boardctl, /etc/boardctl and the unit gone; /var/lib/boardctl/games.db kept"
