#!/bin/bash
# Takes the README's screenshot: a notification posted through the daemon, shown by a real xfce4-notifyd on a
# virtual X display, with its actions as buttons. Everything runs on a private session bus and display.
#
#   packaging/screenshot.sh OUTPUT.png [DAEMON]
#
# Needs xvfb, xfce4-notifyd, x11-apps (xwd), imagemagick (convert), libglib2.0-bin (gdbus), and zenity: without a
# program to ask for typed text, the bridge hides the Reply button on a server that has no inline reply.
set -euo pipefail

output=${1:?usage: $0 OUTPUT.png [path of notification-bridged]}
daemon=${2:-$(swift build --show-bin-path)/notification-bridged}
notifyd=/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd
for tool in Xvfb xwd convert gdbus dbus-daemon "$notifyd" "$daemon"; do
    command -v "$tool" >/dev/null || { echo "$0: $tool is missing" >&2; exit 1; }
done

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# Waits (at most five seconds) until a bus name has an owner.
wait_for_name() {
    for _ in $(seq 50); do
        if gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
            --method org.freedesktop.DBus.NameHasOwner "$1" 2>/dev/null | grep -q true; then
            return 0
        fi
        sleep 0.1
    done
    echo "$0: nobody took $1 within five seconds" >&2
    exit 1
}

display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 900x500x24 -nolisten tcp 2>"$work/xvfb.log" &
pids+=($!)
export DISPLAY=$display NO_AT_BRIDGE=1

dbus-daemon --session --nofork --print-address=3 3>"$work/address" >"$work/bus.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -s "$work/address" ] && break; sleep 0.1; done
DBUS_SESSION_BUS_ADDRESS=$(head -n1 "$work/address")
export DBUS_SESSION_BUS_ADDRESS
export XDG_STATE_HOME=$work/state XDG_CONFIG_HOME=$work/config XDG_CACHE_HOME=$work/cache

"$notifyd" >"$work/notifyd.log" 2>&1 &
pids+=($!)
wait_for_name org.freedesktop.Notifications

"$daemon" 2>"$work/daemon.log" &
pids+=($!)
wait_for_name io.github.NotificationBridge

bridge() {
    gdbus call --session --dest io.github.NotificationBridge --object-path /io/github/NotificationBridge \
        --method "io.github.NotificationBridge1.$1" "${@:2}" >/dev/null
}
bridge RegisterCategory org.example.mail.message \
    "[{'id': <'reply'>, 'title': <'Reply'>, 'behavior': <'text-input'>, 'activation': <'background'>},
      {'id': <'read'>, 'title': <'Mark as Read'>, 'activation': <'background'>},
      {'id': <'delete'>, 'title': <'Delete'>, 'activation': <'background'>, 'destructive': <true>,
       'authentication-required': <true>}]" "{}"
bridge Post "{'app-name': <'Mail'>, 'title': <'Ann Smith'>, 'body': <'Lunch at noon? The usual place.'>,
              'icon': <'mail-unread'>, 'category': <'org.example.mail.message'>, 'timeout': <int32 0>}"

# xfce4-notifyd fades the window in; give it a moment to be fully drawn.
sleep 1.5
xwd -root -silent -display "$display" >"$work/screen.xwd"
convert "xwd:$work/screen.xwd" -trim +repage -bordercolor black -border 12 "$output"
echo "wrote $output"
