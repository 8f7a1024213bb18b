print("notification-bridge")
