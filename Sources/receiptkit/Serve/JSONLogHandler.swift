import struct Foundation.Date
import Logging
import _ReceiptKitShared

/// swift-log as one JSON object a line (`serve --log-format json`), for a log shipper that reads JSON lines:
/// `time` (RFC 3339, UTC, with milliseconds when not zero), `level`, `label`, `message`, then the metadata as members of their own —
/// a metadata key that would overwrite one of those four is written as `metadata.KEY`. Lists and dictionaries of
/// metadata become JSON arrays and objects; everything else a string.
struct JSONLogHandler: LogHandler {
    /// The members every line has, which metadata never overwrites.
    static let reservedKeys: Set<String> = ["time", "level", "label", "message"]

    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    /// Where a finished line (with its newline) goes.
    let write: @Sendable (String) -> Void
    /// The time stamped on a line.
    let now: @Sendable () -> Date

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { self.metadata[key] }
        set { self.metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = self.metadata
        merged.merge(event.metadata ?? [:]) { _, new in new }
        self.write(Self.line(
            time: self.now(), level: event.level, label: self.label, message: "\(event.message)", metadata: merged))
    }

    /// One line: the JSON object and a newline.
    static func line(
        time: Date, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata
    ) -> String {
        var members: [String: JSONValue] = [
            "time": .string(RFC3339Format.string(time) ?? "\(time)"),
            "level": .string(level.rawValue),
            "label": .string(label),
            "message": .string(message),
        ]
        for (key, value) in metadata {
            members[Self.reservedKeys.contains(key) ? "metadata.\(key)" : key] = Self.json(value)
        }
        return String(decoding: JSONValue.object(members).serialized, as: UTF8.self) + "\n"
    }

    static func json(_ value: Logger.MetadataValue) -> JSONValue {
        switch value {
        case .string(let text): return .string(text)
        case .stringConvertible(let convertible): return .string(convertible.description)
        case .array(let elements): return .array(elements.map(Self.json))
        case .dictionary(let members): return .object(members.mapValues(Self.json))
        }
    }
}
