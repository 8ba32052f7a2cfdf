public import struct Foundation.Date

/// Reads and writes RFC 3339 timestamps as receipts carry them (`2024-02-23T17:03:40Z`, `…+0100`, fractional
/// seconds), in the proleptic Gregorian calendar for every year from 0000 to 9999 — unlike Foundation's ISO 8601
/// formatter, which switches to the Julian calendar before 1582. The one RFC 3339 reader and writer of the package
/// (ReceiptKit offers it as `RFC3339`).
public enum RFC3339Format {
    /// The instant `text` names, or `nil` when it is not an RFC 3339 timestamp.
    public static func date(_ text: String) -> Date? {
        ReceiptDateParser.epochMilliseconds(text).map(EpochMilliseconds.date)
    }

    /// `date` in UTC as `YYYY-MM-DDTHH:MM:SSZ`, with `.sss` milliseconds when they are not zero; `nil` when the
    /// year falls outside 0000–9999, which the format cannot carry.
    public static func string(_ date: Date) -> String? {
        let f = CivilTime.fields(epochMilliseconds: EpochMilliseconds.of(date))
        guard (0...9999).contains(f.year) else { return nil }
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var text = "\(pad(f.year, 4))-\(pad(f.month, 2))-\(pad(f.day, 2))T\(pad(f.hour, 2)):\(pad(f.minute, 2)):\(pad(f.second, 2))"
        if f.millisecond != 0 {
            text += "." + pad(f.millisecond, 3)
        }
        return text + "Z"
    }
}
