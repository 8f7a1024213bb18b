import TerminalNotificationServer

// The command is in the library, which the daemon's program runs too when it is started under this name.
await TerminalServerCommand.runProgram()
