import DBusCore
