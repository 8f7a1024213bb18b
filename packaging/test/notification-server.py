#!/usr/bin/python3
"""A minimal org.freedesktop.Notifications server for the package test.

Records every Notify call as one JSON line in the file named by the first argument, and answers a notification that
has actions by invoking its first action (ActionInvoked, then NotificationClosed with reason 2), as a user clicking the
first button would. It lists inline replies among its capabilities, as Plasma and SwayNotificationCenter do, so that a
root without a prompt program (zenity, kdialog, yad) still offers typed replies and doctor finds nothing missing.
Writes "ready" on standard output once it owns the name.
"""
import json
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


class Server(dbus.service.Object):
    def __init__(self, bus, record_path):
        super().__init__(bus, PATH)
        self.record_path = record_path
        self.next_id = 1

    @dbus.service.method(NAME, in_signature="", out_signature="as")
    def GetCapabilities(self):
        return ["actions", "body", "inline-reply"]

    @dbus.service.method(NAME, in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return ["package-test-server", "NotificationBridge", "1", "1.2"]

    @dbus.service.method(NAME, in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app_name, replaces_id, icon, summary, body, actions, hints, timeout):
        notification_id = replaces_id or self.next_id
        self.next_id += 1
        record = {"id": int(notification_id), "app_name": str(app_name), "summary": str(summary),
                  "body": str(body), "actions": [str(a) for a in actions]}
        with open(self.record_path, "a", encoding="utf-8") as record_file:
            record_file.write(json.dumps(record) + "\n")
        if actions:
            GLib.idle_add(self.choose_first_action, notification_id, str(actions[0]))
        return notification_id

    @dbus.service.method(NAME, in_signature="u", out_signature="")
    def CloseNotification(self, notification_id):
        self.NotificationClosed(notification_id, 3)

    @dbus.service.signal(NAME, signature="us")
    def ActionInvoked(self, notification_id, action_key):
        pass

    @dbus.service.signal(NAME, signature="uu")
    def NotificationClosed(self, notification_id, reason):
        pass

    def choose_first_action(self, notification_id, action_key):
        self.ActionInvoked(notification_id, action_key)
        self.NotificationClosed(notification_id, 2)
        return False


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    name = dbus.service.BusName(NAME, bus, do_not_queue=True)
    server = Server(bus, sys.argv[1])
    print("ready", flush=True)
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
