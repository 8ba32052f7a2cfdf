public import Foundation

/// A length of time as ISO 8601 writes one — `P1M`, `P7D`, `P1Y2M`, `PT12H`, `P1DT30M`, `P2W` — added on the
/// Gregorian calendar in UTC, as the App Store bills: a month from 31 January is the last day of February.
///
/// Each number is at most 100,000 and a period adds at most 1,000 years, so no scenario reaches past what `Date`
/// holds.
public struct ScenarioPeriod: Sendable, Hashable, CustomStringConvertible {
    public var years = 0, months = 0, weeks = 0, days = 0, hours = 0, minutes = 0, seconds = 0

    /// The text it was read from, or an equivalent one.
    public let description: String

    /// Reads `text`; `nil` when it is not an ISO 8601 duration of whole numbers, or is empty (`P`, `PT`).
    public init?(_ text: String) {
        var bytes = Substring(text).utf8.makeIterator()
        guard bytes.next() == UInt8(ascii: "P") else { return nil }
        var inTime = false, number: Int? = nil, seen = false
        var order = 0  // designators must come in order: Y M W D, then T, H M S
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int(byte - UInt8(ascii: "0"))
                let value = (number ?? 0) * 10 + digit
                guard value <= 100_000 else { return nil }
                number = value
            case UInt8(ascii: "T"):
                guard !inTime, number == nil else { return nil }
                inTime = true
                order = 4
            default:
                guard let value = number else { return nil }
                let place: Int
                switch (inTime, byte) {
                case (false, UInt8(ascii: "Y")): place = 0; self.years = value
                case (false, UInt8(ascii: "M")): place = 1; self.months = value
                case (false, UInt8(ascii: "W")): place = 2; self.weeks = value
                case (false, UInt8(ascii: "D")): place = 3; self.days = value
                case (true, UInt8(ascii: "H")): place = 5; self.hours = value
                case (true, UInt8(ascii: "M")): place = 6; self.minutes = value
                case (true, UInt8(ascii: "S")): place = 7; self.seconds = value
                default: return nil
                }
                guard place >= order else { return nil }
                order = place + 1
                number = nil
                seen = true
            }
        }
        guard seen, number == nil, !(inTime && order == 4) else { return nil }
        let roughDays = self.years * 366 + self.months * 31 + self.weeks * 7 + self.days
            + (self.hours + (self.minutes + self.seconds / 60) / 60) / 24
        guard roughDays <= 366_000 else { return nil }
        self.description = text
    }

    /// Whether it adds no time at all (`P0D`).
    public var isZero: Bool {
        self.years == 0 && self.months == 0 && self.weeks == 0 && self.days == 0 && self.hours == 0
            && self.minutes == 0 && self.seconds == 0
    }

    /// `date` plus this period, on the Gregorian calendar in UTC; `nil` only if the calendar cannot say.
    public func after(_ date: Date) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(identifier: "UTC") else { return nil }
        calendar.timeZone = utc
        var components = DateComponents()
        components.year = self.years
        components.month = self.months
        components.day = self.weeks * 7 + self.days
        components.hour = self.hours
        components.minute = self.minutes
        components.second = self.seconds
        return calendar.date(byAdding: components, to: date)
    }
}
