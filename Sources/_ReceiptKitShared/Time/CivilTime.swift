/// Proleptic Gregorian calendar arithmetic on epoch milliseconds, without Foundation's calendars.
///
/// Receipts carry a dozen dates per purchase; `DateFormatter` in that path would dominate decoding time. These
/// conversions are exact for years 0 through 9999 (all a four-digit receipt date can express).
public enum CivilTime {
    /// The broken-down fields of a UTC instant.
    public struct Fields: Equatable {
        public var year: Int
        public var month: Int
        public var day: Int
        public var hour: Int
        public var minute: Int
        public var second: Int
        public var millisecond: Int
    }

    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    public static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a civil date (H. Hinnant's `days_from_civil`). Inputs are range-checked by callers.
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
    public static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Splits epoch milliseconds into UTC fields.
    public static func fields(epochMilliseconds ms: Int64) -> Fields {
        let msPerDay: Int64 = 86_400_000
        var days = ms / msPerDay
        var rest = ms % msPerDay
        if rest < 0 {
            rest += msPerDay
            days -= 1
        }
        let date = civilFromDays(Int(days))
        let r = Int(rest)
        return Fields(
            year: date.year,
            month: date.month,
            day: date.day,
            hour: r / 3_600_000,
            minute: r / 60_000 % 60,
            second: r / 1000 % 60,
            millisecond: r % 1000
        )
    }
}
