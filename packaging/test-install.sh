#!/usr/bin/env bash
# Installs the .deb into a clean Debian root (debootstrap --variant=minbase) and checks it works there:
#
#   - `apt-get install ./notification-bridge_*.deb` resolves every dependency from the Debian mirror;
#   - the installed programs load (no missing libraries, no Swift runtime) and the CLI answers --help and --version;
#   - a session dbus-daemon started in the root finds the activation file, starts notification-bridged (Exec=, as
#     there is no systemd there), and a notification posted with the CLI reaches a notification server (a small
#     dbus-python server that records every Notify); the server then clicks the first action and `--wait` prints it;
#   - `notification-bridge doctor` finds no problem, and says the daemon identified the shell it runs in.
#
#   packaging/test-install.sh [PACKAGE.deb]        (default: the one in .build/deb)
#
# Needs root (chroot, mounts). The minbase root is cached as a tarball under .build/deb-test-cache, so only the
# first run on a machine runs debootstrap. The whole run is bounded (DEB_TEST_TIMEOUT seconds, default 1200), and the
# root, its mounts and every process in it are removed on every exit.
# Environment: DEB_TEST_SUITE (bookworm; make deb-test SUITE=trixie sets it), DEB_TEST_MIRROR (default: the suite's
# archives on the hosts of this machine's apt sources), DEB_TEST_TIMEOUT, DEB_TEST_VERBOSE=1 (print the bus's and the
# server's logs after a pass too).
set -euo pipefail

cd "$(dirname "$0")/.."
SUITE=${DEB_TEST_SUITE:-bookworm}
TIMEOUT=${DEB_TEST_TIMEOUT:-1200}
CACHE_DIR=$(pwd)/.build/deb-test-cache

say() { echo "test-install: $*"; }
die() { echo "test-install: FAILED: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot and mounts); run it as root or with sudo"

# Bound the whole run: the script re-runs itself under timeout(1), whose SIGTERM runs the cleanup below.
if [ -z "${DEB_TEST_BOUNDED:-}" ]; then
    status=0
    DEB_TEST_BOUNDED=1 timeout --kill-after=60 "$TIMEOUT" "$0" "$@" || status=$?
    [ "$status" != 124 ] || echo "test-install: FAILED: still running after $TIMEOUT s (DEB_TEST_TIMEOUT); stopped" >&2
    exit "$status"
fi

DEB=${1:-$(ls -1 .build/deb/notification-bridge_*.deb 2>/dev/null | tail -n 1)}
[ -n "$DEB" ] && [ -f "$DEB" ] || die "no package to test; run 'make deb' first or name the .deb"
DEB=$(cd "$(dirname "$DEB")" && pwd)/$(basename "$DEB")
ARCH=$(dpkg --print-architecture)

# The suite's Debian archives (main, its updates and its security archive) on the hosts this machine's apt sources
# use, no others; a bookworm machine serves another suite from the same hosts (tools/debian-archives.sh).
if [ -n "${DEB_TEST_MIRROR:-}" ]; then
    SOURCES="$DEB_TEST_MIRROR $SUITE main"
else
    SOURCES=$(tools/debian-archives.sh "$SUITE") || die "no $SUITE archive found; set DEB_TEST_MIRROR"
fi
MIRROR=$(awk -v suite="$SUITE" '$2 == suite { print $1; exit }' <<<"$SOURCES")
[ -n "$MIRROR" ] || die "no Debian $SUITE mirror in this machine's apt sources; set DEB_TEST_MIRROR"

ROOT=$(mktemp -d "${TMPDIR:-/tmp}/notification-bridge-deb-test.XXXXXX")

stop_chroot_processes() {
    local pid signal
    for signal in TERM KILL; do
        for pid in $(ls /proc | grep -E '^[0-9]+$'); do
            [ "$(readlink "/proc/$pid/root" 2>/dev/null)" = "$ROOT" ] && kill "-$signal" "$pid" 2>/dev/null || true
        done
        if [ "$signal" = TERM ]; then sleep 1; fi
    done
}

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    stop_chroot_processes
    # Innermost mounts first.
    awk -v root="$ROOT" '$2 == root || index($2, root "/") == 1 { print $2 }' /proc/self/mounts | sort -r \
        | while read -r mount_point; do
            umount "$mount_point" 2>/dev/null || umount --lazy "$mount_point"
        done
    if awk -v root="$ROOT" 'index($2, root) == 1 { found = 1 } END { exit !found }' /proc/self/mounts; then
        echo "test-install: a mount under $ROOT is still there; not removing it" >&2
    else
        rm -rf --one-file-system "$ROOT"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

# 1. A clean minbase root, from the cache when this machine made one before.
START=$SECONDS
CACHE="$CACHE_DIR/$SUITE-minbase-$ARCH-$(echo "$MIRROR" | md5sum | cut -c1-8).tar.gz"
if [ -f "$CACHE" ]; then
    say "unpacking the cached $SUITE minbase root ($CACHE)"
    tar -xzf "$CACHE" -C "$ROOT" --numeric-owner
else
    say "debootstrap --variant=minbase $SUITE from $MIRROR"
    if ! timeout 900 debootstrap --variant=minbase "$SUITE" "$ROOT" "$MIRROR" >"$ROOT.debootstrap.log" 2>&1; then
        tail -n 30 "$ROOT.debootstrap.log" >&2
        rm -f "$ROOT.debootstrap.log"
        die "debootstrap failed"
    fi
    rm -f "$ROOT.debootstrap.log"
    rm -f "$ROOT"/var/cache/apt/archives/*.deb
    mkdir -p "$CACHE_DIR"
    tar -czf "$CACHE.partial" -C "$ROOT" --numeric-owner . && mv "$CACHE.partial" "$CACHE"
fi
chmod 0755 "$ROOT"  # mktemp made it 0700; as / it must let apt's _apt user through
say "root ready in $((SECONDS - START)) s"

# 2. Make it usable: the same archives as this machine, name resolution, no service starts, the kernel file systems.
sed 's/^/deb /' <<<"$SOURCES" >"$ROOT/etc/apt/sources.list"
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
chmod 0755 "$ROOT/usr/sbin/policy-rc.d"
mount -t proc proc "$ROOT/proc"
mount -t sysfs sysfs "$ROOT/sys"
mount --bind /dev "$ROOT/dev"
mount --bind /dev/pts "$ROOT/dev/pts"

# 3. Install the package; apt resolves its Depends from the mirror.
START=$SECONDS
cp "$DEB" "$ROOT/tmp/"
export DEBIAN_FRONTEND=noninteractive
say "apt-get install ./$(basename "$DEB")"
in_root timeout 300 apt-get update -qq
in_root env DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq --no-install-recommends \
    "/tmp/$(basename "$DEB")" >"$ROOT/tmp/apt.log" 2>&1 || { tail -n 30 "$ROOT/tmp/apt.log" >&2; die "apt-get install failed"; }
say "installed in $((SECONDS - START)) s: $(sed -n 's/^Setting up \([^ :]*\).*/\1/p' "$ROOT/tmp/apt.log" | sort | xargs)"

# 4. What was installed loads and runs, with only what the Depends brought.
for program in $(dpkg-deb --contents "$DEB" | awk '$6 ~ /^\.\/usr\/bin\/./ { sub("^\\./", "/", $6); print $6 }'); do
    libraries=$(in_root ldd "$program")
    ! grep -q 'not found' <<<"$libraries" || die "$program misses libraries: $(grep 'not found' <<<"$libraries")"
    ! grep -q 'libswift' <<<"$libraries" || die "$program needs a Swift runtime library: $libraries"
    in_root "$program" --help >/dev/null || die "$program --help failed"
    ls "$ROOT"/usr/share/man/man[18]/"$(basename "$program")".[18].gz >/dev/null 2>&1 \
        || die "no manual page for $program"
done
grep -q 'USAGE: notification-bridge' <<<"$(in_root notification-bridge --help)" || die "notification-bridge --help"
version=$(dpkg-deb --field "$DEB" Version | sed 's/-[^-]*$//')
for program in notification-bridge notification-bridged notification-terminal-server; do
    [ "$(in_root "$program" --version)" = "$program $version" ] || die "$program --version does not say '$program $version'"
done
for page in notification-bridge-dbus.7 notification-bridge-settings.5; do
    [ -f "$ROOT/usr/share/man/man${page##*.}/$page.gz" ] || die "no manual page $page"
done
[ -f "$ROOT/usr/share/doc/notification-bridge/README.Debian" ] || die "no README.Debian"
# A link to the daemon's program, which is the terminal server when started under that name.
grep -q 'USAGE: notification-terminal-server' <<<"$(in_root notification-terminal-server --help)" \
    || die "notification-terminal-server --help does not show the terminal server's usage"
# The session bus the Depends asked for brought systemd: it checks the user unit as it would load it.
if [ -x "$ROOT/usr/bin/systemd-analyze" ]; then
    install -d -m 0700 "$ROOT/tmp/runtime"
    in_root env XDG_RUNTIME_DIR=/tmp/runtime systemd-analyze verify --user --man=no \
        /usr/lib/systemd/user/notification-bridged.service || die "systemd-analyze verify rejects the user unit"
    say "systemd-analyze verify --user accepts notification-bridged.service"
fi
say "the programs run: notification-bridge $version"

# 5. D-Bus activation and a notification that reaches a server. The server's packages come after the checks above,
#    so they cannot hide a dependency the package forgot.
in_root env DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq --no-install-recommends \
    python3-dbus python3-gi >"$ROOT/tmp/apt.log" 2>&1 || { tail -n 30 "$ROOT/tmp/apt.log" >&2; die "apt-get install python3-dbus"; }
install -m 0755 packaging/test/notification-server.py "$ROOT/tmp/notification-server.py"
grep -q '^Exec=/usr/bin/notification-bridged$' "$ROOT/usr/share/dbus-1/services/io.github.NotificationBridge.service" \
    || die "the activation file has no Exec= line, so the bus cannot start the daemon without systemd"

# The bus's session.conf reads /usr/share/dbus-1/services. It stays in the foreground so that its log (and the
# standard error of the daemon it activates, which inherits it) is kept.
in_root dbus-daemon --session --nofork --nopidfile --print-address=1 >"$ROOT/tmp/bus-address" \
    2>"$ROOT/tmp/dbus-daemon.log" &
wait_for() {  # FILE PATTERN WHAT: up to 10 s for a line in a file
    for _ in $(seq 100); do
        if grep -q "$2" "$1" 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    cat "$ROOT/tmp/dbus-daemon.log" "$ROOT/tmp/server.err" >&2 2>/dev/null || true
    die "$3"
}
wait_for "$ROOT/tmp/bus-address" '^unix:' "dbus-daemon --session did not start"
address=$(head -n 1 "$ROOT/tmp/bus-address")
on_bus() { in_root env DBUS_SESSION_BUS_ADDRESS="$address" XDG_STATE_HOME=/tmp/state "$@"; }

on_bus /tmp/notification-server.py /tmp/notifications.jsonl >"$ROOT/tmp/server.out" 2>"$ROOT/tmp/server.err" &
wait_for "$ROOT/tmp/server.out" '^ready$' "the notification server did not start"

show_logs() {
    echo "--- dbus-daemon (and the activated daemon) ---" >&2
    cat "$ROOT/tmp/dbus-daemon.log" >&2 || true
    echo "--- notification server ---" >&2
    cat "$ROOT/tmp/server.err" "$ROOT/tmp/notifications.jsonl" >&2 2>/dev/null || true
}

if ! id=$(on_bus timeout 30 notification-bridge send --print-id "Package test" "Posted through D-Bus activation" 2>&1); then
    show_logs
    die "notification-bridge send: $id"
fi
grep -q '"summary": "Package test", "body": "Posted through D-Bus activation"' "$ROOT/tmp/notifications.jsonl" \
    || { show_logs; die "the notification server did not record the notification (send printed '$id')"; }
grep -q "Successfully activated service 'io.github.NotificationBridge'" "$ROOT/tmp/dbus-daemon.log" \
    || { show_logs; die "the bus did not start notification-bridged by activation"; }
say "notification-bridge send reached the server through the activated daemon (id $id)"

if ! answer=$(on_bus timeout 30 notification-bridge send "Package test" "Pick one" -A 'ok=OK,background' --wait 2>&1); then
    show_logs
    die "notification-bridge send --wait: $answer"
fi
[ "$answer" = ok ] || { show_logs; die "send --wait printed '$answer', expected the action the server chose (ok)"; }
say "the server's choice came back: $answer"

# doctor proves the path from this shell: the daemon identifies it (on trixie through the bus's ProcessFD) and finds
# the server; it exits 0 only when it found no problem.
if ! report=$(on_bus timeout 30 notification-bridge doctor 2>&1); then
    show_logs
    die "notification-bridge doctor found a problem: $report"
fi
grep -q 'caller: a host process' <<<"$report" || { show_logs; die "doctor does not say the daemon identified this shell: $report"; }
say "doctor: no problems found"

if [ -n "${DEB_TEST_VERBOSE:-}" ]; then show_logs; fi
say "passed"
echo "deb-test: 1 passed, 0 failed"
