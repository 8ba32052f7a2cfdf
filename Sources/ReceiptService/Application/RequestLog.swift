import Logging
import NIOConcurrencyHelpers

/// One request's log line, filled in by the route that answered it and written by ``RequestLogMiddleware``: the
/// route knows what its answer means (status, outcome, reasons), the middleware when the request ended.
final class RequestLog: Sendable {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    private let entry = NIOLockedValueBox<Entry?>(nil)

    /// Sets the line to log (the last one set wins: a refusal replaces nothing, it ends the request).
    func record(_ level: Logger.Level, _ message: String, _ metadata: Logger.Metadata) {
        self.entry.withLockedValue { $0 = Entry(level: level, message: message, metadata: metadata) }
    }

    /// The line set, if any.
    var recorded: Entry? {
        self.entry.withLockedValue { $0 }
    }
}
