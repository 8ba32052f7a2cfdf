public import struct Foundation.Date
import _ReceiptKitShared

/// Reads and writes RFC 3339 timestamps as receipts carry them (`2024-02-23T17:03:40Z`, `…+0100`, fractional
/// seconds), in the proleptic Gregorian calendar for every year from 0000 to 9999 — unlike Foundation's ISO 8601
/// formatter, which switches to the Julian calendar before 1582.
public enum RFC3339 {
    /// The instant `text` names, or `nil` when it is not an RFC 3339 timestamp.
    public static func date(_ text: String) -> Date? {
        RFC3339Format.date(text)
    }

    /// `date` in UTC as `YYYY-MM-DDTHH:MM:SSZ`, with `.sss` milliseconds when they are not zero; `nil` when the
    /// year falls outside 0000–9999, which the format cannot carry.
    public static func string(_ date: Date) -> String? {
        RFC3339Format.string(date)
    }
}
