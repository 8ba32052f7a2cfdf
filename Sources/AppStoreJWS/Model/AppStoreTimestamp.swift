public import struct Foundation.Date
import _ReceiptKitShared

/// An instant as the App Store writes it: milliseconds since 1970-01-01T00:00:00Z, an integer from the App Store and
/// possibly fractional in Xcode-signed data. The number is kept as sent, so encoding gives it back unchanged.
public struct AppStoreTimestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The milliseconds since 1970 as sent.
    public let number: JSONNumber

    /// Milliseconds since 1970.
    public var millisecondsSince1970: Double { self.number.double ?? 0 }

    /// The instant.
    public var date: Date { EpochMilliseconds.date(fractional: self.millisecondsSince1970) }

    /// The timestamp a JSON number spells, or `nil` for a number that is not finite.
    public init?(_ number: JSONNumber) {
        guard let value = number.double, value.isFinite else { return nil }
        self.number = number
    }

    public init(millisecondsSince1970: Int64) {
        self.number = JSONNumber(millisecondsSince1970)
    }

    /// The instant, rounded to whole milliseconds as the App Store writes it.
    public init(_ date: Date) {
        self.init(millisecondsSince1970: EpochMilliseconds.of(date))
    }

    public static func < (lhs: AppStoreTimestamp, rhs: AppStoreTimestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }

    public var description: String { self.number.text }

    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        guard case .number(let number) = value, let timestamp = AppStoreTimestamp(number) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a number"))
        }
        self = timestamp
    }

    public func encode(to encoder: any Encoder) throws {
        try JSONValue.number(self.number).encode(to: encoder)
    }
}
