public import struct Foundation.Date

/// Reads RFC 3339 timestamps as receipts write them (`2024-02-23T17:03:40Z`, `…+0100`, fractional seconds).
public enum RFC3339 {
    /// The instant `text` names, or `nil` when it is not an RFC 3339 timestamp.
    public static func date(_ text: String) -> Date? {
        ReceiptDateParser.epochMilliseconds(text).map(Date.init(epochMilliseconds:))
    }
}
