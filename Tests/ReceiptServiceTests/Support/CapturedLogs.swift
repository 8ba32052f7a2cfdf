import Logging
import NIOConcurrencyHelpers

/// A logger whose entries a test reads back: level, message and metadata, in order.
final class CapturedLogs: Sendable {
    struct Entry: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: [String: String]
    }

    private let entries = NIOLockedValueBox<[Entry]>([])

    var all: [Entry] { self.entries.withLockedValue { $0 } }

    /// A logger at `trace` that records here.
    var logger: Logger {
        Logger(label: "receiptkit.test.captured") { _ in Handler(logs: self) }
    }

    fileprivate func append(_ entry: Entry) { self.entries.withLockedValue { $0.append(entry) } }

    private struct Handler: LogHandler {
        let logs: CapturedLogs
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { self.metadata[key] }
            set { self.metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var merged = self.metadata
            merged.merge(event.metadata ?? [:]) { _, new in new }
            self.logs.append(Entry(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" }))
        }
    }
}
