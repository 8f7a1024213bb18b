#!/usr/bin/env bash
# Makes (or brings up to date) a Debian root of another suite with a list of packages, for tests that must run that
# suite's own programs (make interop SUITE=trixie: trixie's notification servers, Xvfb, sway, dbus-daemon...).
#
#   tools/suite-root.sh SUITE ROOT PACKAGE...
#
# The root is made with debootstrap (--variant=minbase) from the suite's Debian archives (tools/debian-archives.sh),
# then the packages are installed with --no-install-recommends. Nothing else is installed.
#
# A second run reuses the root. The file ROOT/.suite-root-packages records the package list the root was made with:
#   - the same list: nothing to do;
#   - a longer list (every package of the old one still in it): the new packages are installed into the root;
#   - any other list, or no record (a run stopped half-way through an update): the root is made again.
# A root is made in a folder beside ROOT and renamed to ROOT only once it is complete, so a half-made root is never
# taken for a ready one; an update removes the record first and writes it back only once apt has finished.
#
# Needs root (debootstrap, chroot, mounts). SUITE_ROOT_TIMEOUT bounds the run (seconds, default 1800).
set -euo pipefail

usage="usage: tools/suite-root.sh SUITE ROOT PACKAGE..."
SUITE=${1:?$usage}
ROOT=${2:?$usage}
shift 2
[ "$#" -gt 0 ] || { echo "$usage" >&2; exit 2; }
TIMEOUT=${SUITE_ROOT_TIMEOUT:-1800}
HERE=$(cd "$(dirname "$0")" && pwd)
# debootstrap, chroot and mount live in the administrator's folders, which a user's PATH may lack.
export PATH="$PATH:/usr/sbin:/sbin"

say() { echo "suite-root: $*"; }
die() { echo "suite-root: FAILED: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot and mounts); run it as root or with sudo"
command -v debootstrap >/dev/null || die "debootstrap is not installed: apt-get install debootstrap"

# Bound the whole run (the functions' file is sourced first for it).
# shellcheck source=tools/chroot-mounts.sh
. "$HERE/chroot-mounts.sh"
run_bounded SUITE_ROOT_BOUNDED "$TIMEOUT" suite-root "$0" "$SUITE" "$ROOT" "$@"

# The archives of the suite, and the record: the sorted package list, one a line.
ARCHIVES=$("$HERE/debian-archives.sh" "$SUITE")
MIRROR=$(awk -v suite="$SUITE" '$2 == suite { print $1; exit }' <<<"$ARCHIVES")
[ -n "$MIRROR" ] || die "no Debian archive for $SUITE"
WANTED=$(printf '%s\n' "$@" | LC_ALL=C sort -u)
RECORD_NAME=.suite-root-packages
RECORD="$ROOT/$RECORD_NAME"

# The mounts of the root being worked on, and the processes started in it, are removed on every exit.
WORK=""
PARTIAL=""
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
    local status=$?
    trap - EXIT INT TERM
    # A root whose mounts could not all be undone is left alone: its bind mounts lead elsewhere.
    if [ -n "$WORK" ] && ! chroot_release "$WORK"; then PARTIAL=""; fi
    if [ -n "$PARTIAL" ] && [ -d "$PARTIAL" ]; then rm -rf --one-file-system "$PARTIAL" "$PARTIAL.log"; fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Installs the wanted packages into $WORK (debootstrap made it, or it is the existing root), then records the list.
install_packages() {
    sed 's/^/deb /' <<<"$ARCHIVES" >"$WORK/etc/apt/sources.list"
    cp -L /etc/resolv.conf "$WORK/etc/resolv.conf"
    # No service starts inside the root when a package is configured.
    printf '#!/bin/sh\nexit 101\n' >"$WORK/usr/sbin/policy-rc.d"
    chmod 0755 "$WORK/usr/sbin/policy-rc.d"
    chroot_mount_kernel "$WORK"
    local log="$WORK/tmp/suite-root-apt.log"
    local start=$SECONDS
    in_chroot "$WORK" dpkg --configure -a >"$log" 2>&1 || { tail -n 30 "$log" >&2; die "dpkg --configure -a"; }
    in_chroot "$WORK" timeout 300 apt-get update -qq >>"$log" 2>&1 || { tail -n 30 "$log" >&2; die "apt-get update"; }
    # shellcheck disable=SC2086 # one package a word
    in_chroot "$WORK" env DEBIAN_FRONTEND=noninteractive timeout 1500 apt-get install -y -q --no-install-recommends \
        $WANTED >>"$log" 2>&1 || { tail -n 30 "$log" >&2; die "apt-get install in the $SUITE root"; }
    in_chroot "$WORK" apt-get clean
    # dbus-daemon and the desktops read the machine id; systemd's postinst makes it only when systemd is installed.
    [ -s "$WORK/etc/machine-id" ] || in_chroot "$WORK" dbus-uuidgen --ensure=/etc/machine-id
    say "$(grep -c '^Setting up ' "$log" || true) packages set up in $((SECONDS - start)) s"
    rm -f "$log"
    chroot_release "$WORK"
    printf '%s\n' "$WANTED" >"$WORK/$RECORD_NAME"
}

# A run that was killed may have left mounts or processes in the root, or a root it had not finished.
for stale in "$ROOT" "$ROOT".partial.*; do
    [ -d "$stale" ] || continue
    chroot_release "$stale" || die "cannot unmount what is mounted under $stale"
    if [ "$stale" != "$ROOT" ]; then rm -rf --one-file-system "$stale" "$stale.log"; fi
done

if [ -d "$ROOT" ] && [ -f "$RECORD" ] && [ "$(cat "$RECORD")" = "$WANTED" ]; then
    say "$ROOT is up to date ($SUITE, $(wc -l <<<"$WANTED") packages)"
    exit 0
fi

if [ -d "$ROOT" ] && [ -f "$RECORD" ] && [ -z "$(LC_ALL=C comm -23 "$RECORD" <(printf '%s\n' "$WANTED"))" ]; then
    say "updating $ROOT: installing $(LC_ALL=C comm -13 "$RECORD" <(printf '%s\n' "$WANTED") | xargs)"
    rm -f "$RECORD"
    WORK=$ROOT
    install_packages
    WORK=""
    exit 0
fi

if [ -d "$ROOT" ]; then
    say "$ROOT was made with another package list, or not finished: making it again"
    rm -rf --one-file-system "$ROOT"
fi

START=$SECONDS
mkdir -p "$(dirname "$ROOT")"
PARTIAL=$(mktemp -d "$ROOT.partial.XXXXXX")
chmod 0755 "$PARTIAL"  # as / it must let apt's _apt user through
WORK=$PARTIAL
say "debootstrap --variant=minbase $SUITE from $MIRROR"
if ! timeout 900 debootstrap --variant=minbase "$SUITE" "$PARTIAL" "$MIRROR" >"$PARTIAL.log" 2>&1; then
    tail -n 30 "$PARTIAL.log" >&2
    rm -f "$PARTIAL.log"
    die "debootstrap failed"
fi
rm -f "$PARTIAL.log"
say "minbase root in $((SECONDS - START)) s"
install_packages
WORK=""
mv "$PARTIAL" "$ROOT"
PARTIAL=""
say "$ROOT ready in $((SECONDS - START)) s"
