import struct Foundation.Date
import _ReceiptKitShared

/// The IMF-fixdate form of an HTTP date (RFC 9110 §5.6.7), `Sun, 06 Nov 1994 08:49:37 GMT`: the only form a sender
/// may generate. The obsolete forms are not read (a `Retry-After` in them is ignored, and the backoff applies).
enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[5] == "GMT", parts[0].count == 4, parts[0].hasSuffix(","),
            weekdays.contains(String(parts[0].dropLast())), parts[1].count == 2, let day = Int(parts[1]),
            let monthIndex = months.firstIndex(of: String(parts[2])), parts[3].count == 4, let year = Int(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }), let hour = Int(clock[0]),
            let minute = Int(clock[1]),
            let second = Int(clock[2]), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
            (1...CivilTime.daysInMonth(monthIndex + 1, year: year)).contains(day)
        else { return nil }
        let days = CivilTime.daysFromCivil(year: year, month: monthIndex + 1, day: day)
        return Date(timeIntervalSince1970: Double(days) * 86_400 + Double(hour * 3600 + minute * 60 + second))
    }
}
