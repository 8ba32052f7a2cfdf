import struct Foundation.Date
import Logging

/// swift-log for the process: every logger writes to standard error at one level (`--log-level`), as text lines
/// (swift-log's `StreamLogHandler`) or JSON lines (``JSONLogHandler``, `--log-format json`).
enum StandardErrorLogging {
    /// How log lines are written.
    enum Format: String, CaseIterable {
        case text
        case json
    }

    /// The level `name` names (`trace` … `critical`), `nil` for anything else.
    static func level(_ name: String) -> Logger.Level? {
        Logger.Level(rawValue: name)
    }

    /// Sends every logger of the process to standard error at `level` in `format`. Once per process.
    static func bootstrap(level: Logger.Level, format: Format) {
        LoggingSystem.bootstrap { label in
            switch format {
            case .text:
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            case .json:
                return JSONLogHandler(
                    label: label, logLevel: level, write: { StandardError.write($0) }, now: { Date() })
            }
        }
    }
}
