import NotificationBridgeCommands

// The program is its command library's: this only hands it the command line.
CommandLineProgram.main()
