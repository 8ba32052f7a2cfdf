/// Reads the RFC 3339 timestamps of receipt payloads into epoch milliseconds.
///
/// Accepted: `YYYY-MM-DDTHH:MM:SS`, optional fractional seconds (any number of digits, truncated to
/// milliseconds), then `Z`, `±HH:MM` or `±HHMM` (Xcode writes `+0100`). Fields are range-checked: month 1–12, day
/// within the month, hour 0–23, minute 0–59, second 0–60. A leap second (`:60`) is read as the first instant of
/// the next minute, as POSIX time does. Anything else is not a date.
public enum ReceiptDateParser {
    /// Parses `text`, or returns `nil` when it is not a timestamp of the form above.
    public static func epochMilliseconds(_ text: String) -> Int64? {
        Array(text.utf8).withUnsafeBytes { Self.epochMilliseconds($0) }
    }

    /// Parses `bytes`, or returns `nil` when they are not a timestamp of the form above. Every read is preceded
    /// by a check against `bytes.count`.
    public static func epochMilliseconds(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        var cursor = bytes.startIndex
        let end = bytes.endIndex

        func digits(_ count: Int) -> Int? {
            guard end - cursor >= count else { return nil }
            var value = 0
            for _ in 0..<count {
                let digit = Int(bytes[cursor]) - 48
                guard digit >= 0, digit <= 9 else { return nil }
                value = value * 10 + digit
                cursor += 1
            }
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard cursor < end, bytes[cursor] == byte else { return false }
            cursor += 1
            return true
        }

        guard let year = digits(4), expect(UInt8(ascii: "-")),
            let month = digits(2), expect(UInt8(ascii: "-")),
            let day = digits(2), expect(UInt8(ascii: "T")),
            let hour = digits(2), expect(UInt8(ascii: ":")),
            let minute = digits(2), expect(UInt8(ascii: ":")),
            let second = digits(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= CivilTime.daysInMonth(month, year: year),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }

        var millisecond = 0
        if expect(UInt8(ascii: ".")) {
            var scale = 100
            var count = 0
            while cursor < end, bytes[cursor] >= 48, bytes[cursor] <= 57 {
                millisecond += Int(bytes[cursor] - 48) * scale
                scale /= 10
                count += 1
                cursor += 1
            }
            guard count > 0 else { return nil }
        }

        var offsetMinutes = 0
        guard cursor < end else { return nil }
        let zone = bytes[cursor]
        cursor += 1
        switch zone {
        case UInt8(ascii: "Z"):
            break
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard let offsetHours = digits(2) else { return nil }
            _ = expect(UInt8(ascii: ":"))
            guard let offsetMins = digits(2), offsetHours <= 23, offsetMins <= 59 else { return nil }
            offsetMinutes = (offsetHours * 60 + offsetMins) * (zone == UInt8(ascii: "-") ? -1 : 1)
        default:
            return nil
        }
        guard cursor == end else { return nil }

        let days = CivilTime.daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60
        return Int64(seconds) * 1000 + Int64(millisecond)
    }
}
