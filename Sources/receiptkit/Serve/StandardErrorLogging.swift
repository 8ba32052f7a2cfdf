import Logging

/// swift-log for the process: every logger writes to standard error at one level (`--log-level`).
enum StandardErrorLogging {
    /// The level `name` names (`trace` … `critical`), `nil` for anything else.
    static func level(_ name: String) -> Logger.Level? {
        Logger.Level(rawValue: name)
    }

    /// Sends every logger of the process to standard error at `level`. Once per process.
    static func bootstrap(level: Logger.Level) {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
