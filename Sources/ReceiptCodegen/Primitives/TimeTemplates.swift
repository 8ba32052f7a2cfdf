/// Dates for the generated validator.
///
/// - `«civil»(y, m, d) -> Int`: days since 1970-01-01 of a proleptic Gregorian date.
/// - `«asnTime»(b, element) -> Int64?`: an X.509 UTCTime (`YYMMDDHHMMSSZ`, 1950–2049) or GeneralizedTime
///   (`YYYYMMDDHHMMSSZ`) in milliseconds since 1970.
/// - `«rfc3339»(bytes) -> Int64?`: a receipt date (`YYYY-MM-DDTHH:MM:SS[.fff…](Z|±HH[:]MM)`) in milliseconds since 1970,
///   with the same rules as ReceiptKit's parser.
enum TimeTemplates {
    static let civil = #"""
        private func «civil»(_ year: Int, _ month: Int, _ day: Int) -> Int {
            let y = month <= 2 ? year - 1 : year
            let era = (y >= 0 ? y : y - 399) / 400
            let yoe = y - era * 400
            let mp = (month + 9) % 12
            let doy = (153 * mp + 2) / 5 + day - 1
            let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
            return era * 146_097 + doe - 719_468
        }
        """#

    static let monthLength = #"""
        private func «monthDays»(_ month: Int, _ year: Int) -> Int {
            if month == 2 {
                let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
                return leap ? 29 : 28
            }
            if month == 4 || month == 6 || month == 9 || month == 11 {
                return 30
            }
            return 31
        }
        """#

    /// `«digits»(text, &at, count) -> Int?`: `count` decimal digits at `at`, which advances past them.
    static let digits = #"""
        private func «digits»(_ text: [UInt8], _ at: inout Int, _ count: Int) -> Int? {
            guard count >= 0, at >= 0, text.count - at >= count else { return nil }
            var value = 0
            for _ in 0..<count {
                let digit = Int(text[at]) - 48
                guard digit >= 0, digit <= 9 else { return nil }
                value = value * 10 + digit
                at += 1
            }
            return value
        }
        """#

    static let asnTime = #"""
        private func «asnTime»(_ b: [UInt8], _ t: (UInt8, Int, Int, Int, Int)) -> Int64? {
            let text = Array(b[t.2..<t.3])
            var at = 0
            func number(_ count: Int) -> Int? { «digits»(text, &at, count) }
            let year: Int
            if t.0 == 0x17, text.count == 13, let yy = number(2) {
                year = yy < 50 ? 2000 + yy : 1900 + yy
            } else if t.0 == 0x18, text.count == 15, let yyyy = number(4) {
                year = yyyy
            } else {
                return nil
            }
            guard let month = number(2), let day = number(2), let hour = number(2), let minute = number(2),
                let second = number(2), text[at] == 0x5A,
                (1...12).contains(month), day >= 1, day <= «monthDays»(month, year), hour <= 23, minute <= 59, second <= 59
            else { return nil }
            let seconds = «civil»(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second
            return Int64(seconds) * 1000
        }
        """#

    static let rfc3339 = #"""
        private func «rfc3339»(_ text: [UInt8]) -> Int64? {
            var at = 0
            func number(_ count: Int) -> Int? { «digits»(text, &at, count) }
            func take(_ byte: UInt8) -> Bool {
                guard at < text.count, text[at] == byte else { return false }
                at += 1
                return true
            }
            guard let year = number(4), take(0x2D), let month = number(2), take(0x2D), let day = number(2), take(0x54),
                let hour = number(2), take(0x3A), let minute = number(2), take(0x3A), let second = number(2),
                (1...12).contains(month), day >= 1, day <= «monthDays»(month, year), hour <= 23, minute <= 59, second <= 60
            else { return nil }
            var millis = 0
            if take(0x2E) {
                var scale = 100
                var count = 0
                while at < text.count, text[at] >= 48, text[at] <= 57 {
                    millis += Int(text[at] - 48) * scale
                    scale /= 10
                    count += 1
                    at += 1
                }
                guard count > 0 else { return nil }
            }
            guard at < text.count else { return nil }
            let zone = text[at]
            at += 1
            var offset = 0
            if zone == 0x2B || zone == 0x2D {
                guard let oh = number(2) else { return nil }
                _ = take(0x3A)
                guard let om = number(2), oh <= 23, om <= 59 else { return nil }
                offset = (oh * 60 + om) * (zone == 0x2D ? -1 : 1)
            } else if zone != 0x5A {
                return nil
            }
            guard at == text.count else { return nil }
            let seconds = «civil»(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset * 60
            return Int64(seconds) * 1000 + Int64(millis)
        }
        """#
}
