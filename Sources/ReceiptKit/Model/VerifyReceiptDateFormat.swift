package import struct Foundation.Date
package import _ReceiptKitShared

/// The three date renderings of Apple's `verifyReceipt` JSON: `2020-07-22 17:39:08 Etc/GMT`, epoch milliseconds as
/// a string, and Pacific time with daylight saving (`2020-07-22 10:39:08 America/Los_Angeles`).
package enum VerifyReceiptDateFormat {
    static func gmt(_ date: Date) -> String {
        var json = JSONWriter(capacity: 32)
        Self.appendGMT(date, to: &json)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    static func milliseconds(_ date: Date) -> String {
        String(date.epochMilliseconds)
    }

    static func pacificTime(_ date: Date) -> String {
        var json = JSONWriter(capacity: 48)
        Self.appendPacificTime(date, to: &json)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// Writes `key`, `key_ms` and `key_pst` with their values: what the `Codable` form encodes through
    /// ``gmt(_:)``, ``milliseconds(_:)`` and ``pacificTime(_:)``, without the intermediate strings.
    package static func write(_ date: Date?, key: StaticString, to json: inout JSONWriter) {
        guard let date else { return }
        json.key(key)
        json.beginString()
        Self.appendGMT(date, to: &json)
        json.endString()
        json.key(key, suffix: "_ms")
        json.integerString(date.epochMilliseconds)
        json.key(key, suffix: "_pst")
        json.beginString()
        Self.appendPacificTime(date, to: &json)
        json.endString()
    }

    private static func appendGMT(_ date: Date, to json: inout JSONWriter) {
        Self.appendFields(CivilTime.fields(epochMilliseconds: date.epochMilliseconds), to: &json)
        json.appendRaw(" Etc/GMT")
    }

    private static func appendPacificTime(_ date: Date, to json: inout JSONWriter) {
        let milliseconds = date.epochMilliseconds
        let offset = Int64(PacificTime.offset(epochMilliseconds: milliseconds))
        let (shifted, overflow) = milliseconds.addingReportingOverflow(offset * 1000)
        Self.appendFields(CivilTime.fields(epochMilliseconds: overflow ? milliseconds : shifted), to: &json)
        json.appendRaw(" America/Los_Angeles")
    }

    /// `yyyy-MM-dd HH:mm:ss`: the year as `String(year)` left-padded with `0` to four characters (years outside
    /// 0...9999 keep all their digits and sign), every other field two digits, built on the stack and appended at
    /// once.
    private static func appendFields(_ f: CivilTime.Fields, to json: inout JSONWriter) {
        json.appendPadded(f.year, width: 4)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 15) { buffer in
            func put(_ index: Int, _ separator: UInt8, _ value: Int) {
                buffer[index] = separator
                buffer[index &+ 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10 % 10)
                buffer[index &+ 2] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
            }
            put(0, UInt8(ascii: "-"), f.month)
            put(3, UInt8(ascii: "-"), f.day)
            put(6, UInt8(ascii: " "), f.hour)
            put(9, UInt8(ascii: ":"), f.minute)
            put(12, UInt8(ascii: ":"), f.second)
            json.appendRaw(UnsafeBufferPointer(buffer))
        }
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
