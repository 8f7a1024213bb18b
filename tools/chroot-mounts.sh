# shellcheck shell=bash
# Functions for running programs in a Debian root with chroot, sourced by tools/suite-root.sh and
# tools/in-suite-root.sh (bash, set -euo pipefail). Every mount made here is undone by chroot_release, which the
# callers run from their EXIT trap.

# Runs the calling script again under timeout(1), unless the variable named MARKER says this is that run, and exits
# with its status (124: the time ran out). SIGTERM or SIGINT here is passed on to it, so that its EXIT trap undoes its
# mounts before this one ends.
#   run_bounded MARKER SECONDS NAME "$0" "$@"
run_bounded() {
    local marker=$1 seconds=$2 name=$3
    shift 3
    if [ -n "${!marker:-}" ]; then return 0; fi
    local child status=0
    env "$marker=1" timeout --kill-after=60 "$seconds" "$@" &
    child=$!
    trap 'kill -TERM "$child" 2>/dev/null || true' INT TERM
    # A signal ends wait early; wait again until the run has finished its cleanup.
    while true; do
        status=0
        wait "$child" || status=$?
        kill -0 "$child" 2>/dev/null || break
    done
    if [ "$status" = 124 ]; then echo "$name: still running after $seconds s; stopped" >&2; fi
    exit "$status"
}

# The kernel's file systems, so that the root's programs see processes, devices and terminals: /proc, /sys, and the
# host's /dev, /dev/pts and /dev/shm (shared memory, which X and Wayland clients use). The root is first bound onto
# itself, so that its / is a mount point, as bwrap needs to build a sandbox inside it.
chroot_mount_kernel() {
    local root=$1
    mount --bind "$root" "$root"
    mount -t proc proc "$root/proc"
    mount -t sysfs sysfs "$root/sys"
    mount --bind /dev "$root/dev"
    mount --bind /dev/pts "$root/dev/pts"
    if [ -d /dev/shm ]; then mount --bind /dev/shm "$root/dev/shm"; fi
}

# A host folder at the same path inside the root (read-only with "ro"), so that paths compiled into programs or
# written in files (the repository, the Swift toolchain) mean the same inside and out.
chroot_bind() {
    local root=$1 path=$2 mode=${3:-rw}
    mkdir -p "$root$path"
    mount --bind "$path" "$root$path"
    if [ "$mode" = ro ]; then mount -o remount,bind,ro "$root$path"; fi
}

# Runs a command in the root with a clean environment; more variables may come first, as env(1) takes them.
in_chroot() {
    local root=$1
    shift
    chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"
}

# The processes whose root folder is the root.
chroot_processes() {
    local root=$1 entry
    for entry in /proc/[0-9]*; do
        if [ "$(readlink "$entry/root" 2>/dev/null)" = "$root" ]; then echo "${entry#/proc/}"; fi
    done
}

# Stops every process in the root (SIGTERM, up to 5 s, then SIGKILL) and unmounts everything under it, innermost
# first. Fails when a mount is left: the caller must then not remove the root, whose bind mounts lead elsewhere.
chroot_release() {
    local root=$1 pid mount_point
    root=$(cd "$root" 2>/dev/null && pwd -P) || return 0
    for pid in $(chroot_processes "$root"); do kill -TERM "$pid" 2>/dev/null || true; done
    for _ in $(seq 50); do
        [ -n "$(chroot_processes "$root")" ] || break
        sleep 0.1
    done
    for pid in $(chroot_processes "$root"); do kill -KILL "$pid" 2>/dev/null || true; done
    awk -v root="$root" '$2 == root || index($2, root "/") == 1 { print $2 }' /proc/self/mounts | sort -r \
        | while read -r mount_point; do
            umount "$mount_point" 2>/dev/null || umount --lazy "$mount_point" || true
        done
    if awk -v root="$root" 'index($2, root "/") == 1 { found = 1 } END { exit !found }' /proc/self/mounts; then
        echo "chroot: a mount under $root is still there" >&2
        return 1
    fi
}
