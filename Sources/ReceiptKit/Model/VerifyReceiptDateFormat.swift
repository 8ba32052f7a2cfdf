import struct Foundation.Date
import struct Foundation.TimeZone

/// The three date renderings of Apple's `verifyReceipt` JSON: `2020-07-22 17:39:08 Etc/GMT`, epoch milliseconds as
/// a string, and Pacific time with daylight saving (`2020-07-22 10:39:08 America/Los_Angeles`).
enum VerifyReceiptDateFormat {
    private static let pacific = TimeZone(identifier: "America/Los_Angeles")

    static func gmt(_ date: Date) -> String {
        Self.render(CivilTime.fields(epochMilliseconds: date.epochMilliseconds)) + " Etc/GMT"
    }

    static func milliseconds(_ date: Date) -> String {
        String(date.epochMilliseconds)
    }

    static func pacificTime(_ date: Date) -> String {
        let offset = Int64(Self.pacific?.secondsFromGMT(for: date) ?? -8 * 3600)
        let (shifted, overflow) = date.epochMilliseconds.addingReportingOverflow(offset * 1000)
        let fields = CivilTime.fields(epochMilliseconds: overflow ? date.epochMilliseconds : shifted)
        return Self.render(fields) + " America/Los_Angeles"
    }

    private static func render(_ f: CivilTime.Fields) -> String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        return "\(pad(f.year, 4))-\(pad(f.month, 2))-\(pad(f.day, 2)) \(pad(f.hour, 2)):\(pad(f.minute, 2)):\(pad(f.second, 2))"
    }

    /// Reads a date back from JSON: epoch milliseconds, the `Etc/GMT` form, or RFC 3339.
    static func parse(milliseconds: String?, text: String?) -> Date? {
        if let milliseconds, let value = Int64(milliseconds) {
            return Date(epochMilliseconds: value)
        }
        guard var text else { return nil }
        for suffix in [" Etc/GMT", " GMT", " UTC"] where text.hasSuffix(suffix) {
            text = String(text.dropLast(suffix.count)).replacingSpaceWithT() + "Z"
        }
        return ReceiptDateParser.epochMilliseconds(text).map(Date.init(epochMilliseconds:))
    }
}

extension String {
    fileprivate func replacingSpaceWithT() -> String {
        String(self.map { $0 == " " ? "T" : $0 })
    }
}
