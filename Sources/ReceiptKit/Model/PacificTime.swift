import struct Foundation.Date
import struct Foundation.TimeZone
import _ReceiptKitShared

/// The UTC offset of `America/Los_Angeles`, as `verifyReceipt`'s `_pst` dates use it.
///
/// From 1987 through 2099 the offset follows the United States rules, computed here: −7 h from 02:00 local on the
/// first Sunday of April (second Sunday of March from 2007) to 02:00 local on the last Sunday of October (first
/// Sunday of November from 2007), −8 h otherwise. Other instants ask Foundation's time-zone database. The rules are
/// checked against that database at every transition in the range by the tests.
///
/// Not only faster: Foundation's `TimeZone` serialises its ICU calendar behind a lock, and a batch of receipts
/// asks for a dozen offsets per receipt from every worker at once.
enum PacificTime {
    private static let zone = TimeZone(identifier: "America/Los_Angeles")

    /// Seconds east of UTC (negative) at `epochMilliseconds`.
    static func offset(epochMilliseconds ms: Int64) -> Int {
        if let offset = Self.ruleOffset(epochMilliseconds: ms) { return offset }
        return Self.zone?.secondsFromGMT(for: Date(epochMilliseconds: ms)) ?? -8 * 3600
    }

    /// The offset by the US rules for 1987...2099, or `nil` outside those years.
    static func ruleOffset(epochMilliseconds ms: Int64) -> Int? {
        // 1987-01-01T00:00:00Z ... 2100-01-01T00:00:00Z
        guard ms >= 536_457_600_000, ms < 4_102_444_800_000 else { return nil }
        let year = CivilTime.fields(epochMilliseconds: ms).year
        let start: Int64
        let end: Int64
        if year >= 2007 {
            start = Self.sunday(onOrAfter: year, month: 3, day: 8)  // second Sunday of March
            end = Self.sunday(onOrAfter: year, month: 11, day: 1)  // first Sunday of November
        } else {
            start = Self.sunday(onOrAfter: year, month: 4, day: 1)  // first Sunday of April
            end = Self.sunday(onOrAfter: year, month: 10, day: 25)  // last Sunday of October
        }
        // 02:00 PST is 10:00 UTC; 02:00 PDT is 09:00 UTC.
        let dstStart = start * 86_400_000 + 10 * 3_600_000
        let dstEnd = end * 86_400_000 + 9 * 3_600_000
        return ms >= dstStart && ms < dstEnd ? -7 * 3600 : -8 * 3600
    }

    /// Days since 1970-01-01 of the first Sunday on or after the given date.
    private static func sunday(onOrAfter year: Int, month: Int, day: Int) -> Int64 {
        let days = CivilTime.daysFromCivil(year: year, month: month, day: day)
        // 1970-01-01 was a Thursday: weekday 0 = Sunday.
        let weekday = ((days + 4) % 7 + 7) % 7
        return Int64(days + (7 - weekday) % 7)
    }
}
