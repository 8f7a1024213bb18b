#!/usr/bin/env bash
# Runs a command inside a Debian root made by tools/suite-root.sh, so that every program it starts is that suite's
# own, while host folders keep their paths inside (the repository with the programs built on the host, the Swift
# toolchain whose runtime libraries they load).
#
#   tools/in-suite-root.sh ROOT [--bind PATH]... [--ro-bind PATH]... [--env NAME=VALUE]... -- COMMAND [ARGUMENT]...
#
# Mounted for the command's time: /proc, /sys, /dev, /dev/pts, /dev/shm and /tmp (the host's, so that paths under
# it are the same inside and out), and each PATH at the same path. The command runs with a clean environment
# (PATH, HOME=/root, LANG=C.UTF-8 and the --env variables). When it ends, or the run is stopped, every process left
# in the root is stopped and every mount is undone. IN_SUITE_ROOT_TIMEOUT bounds the run (seconds, default 3600).
# Exits with the command's status (124 when the time ran out).
set -euo pipefail

usage="usage: tools/in-suite-root.sh ROOT [--bind PATH]... [--ro-bind PATH]... [--env NAME=VALUE]... -- COMMAND..."
HERE=$(cd "$(dirname "$0")" && pwd)
# debootstrap, chroot and mount live in the administrator's folders, which a user's PATH may lack.
export PATH="$PATH:/usr/sbin:/sbin"
TIMEOUT=${IN_SUITE_ROOT_TIMEOUT:-3600}

die() { echo "in-suite-root: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (chroot and mounts); run it as root or with sudo"

# Bound the whole run (the functions' file is sourced first for it).
# shellcheck source=tools/chroot-mounts.sh
. "$HERE/chroot-mounts.sh"
run_bounded IN_SUITE_ROOT_BOUNDED "$TIMEOUT" in-suite-root "$0" "$@"

ROOT=${1:?$usage}
shift
[ -x "$ROOT/usr/bin/env" ] || die "$ROOT is not a Debian root; make it first (make interop SUITE=... makes it)"
ROOT=$(cd "$ROOT" && pwd -P)
binds=()
modes=()
variables=()
while [ "$#" -gt 0 ]; do
    case $1 in
        --bind | --ro-bind)
            [ "$#" -ge 2 ] || die "$usage"
            binds+=("$(cd "$2" && pwd -P)")
            modes+=("$([ "$1" = --ro-bind ] && echo ro || echo rw)")
            shift 2
            ;;
        --env)
            [ "$#" -ge 2 ] || die "$usage"
            variables+=("$2")
            shift 2
            ;;
        --)
            shift
            break
            ;;
        *) die "$usage" ;;
    esac
done
[ "$#" -gt 0 ] || die "$usage"

# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
    local status=$?
    trap - EXIT INT TERM
    chroot_release "$ROOT" || status=1
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

chroot_mount_kernel "$ROOT"
chroot_bind "$ROOT" /tmp
for index in "${!binds[@]}"; do chroot_bind "$ROOT" "${binds[$index]}" "${modes[$index]}"; done

# Not exec: the trap must run once the command has ended.
status=0
in_chroot "$ROOT" "${variables[@]}" "$@" || status=$?
exit "$status"
