public import struct Foundation.Date
import _ReceiptKitShared

/// The `Retry-After` header (RFC 9110 §10.2.3): a number of seconds, or an HTTP date.
public enum RetryAfter {
    /// How long to wait at `now`; `nil` when the value is neither form. A date in the past is zero.
    public static func delay(_ value: String, now: Date) -> Duration? {
        let text = value.trimmingSpaces
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Over a day is as good as a day: the policy's total bound decides anyway.
            guard let seconds = Int64(text.prefix(9)), text.count <= 9 else { return .seconds(86_400) }
            return .seconds(min(seconds, 86_400))
        }
        guard let date = HTTPDate.parse(text) else { return nil }
        let seconds = date.timeIntervalSince(now)
        guard seconds.isFinite else { return nil }
        return DurationConversion.duration(seconds: min(max(seconds, 0), 86_400), rounding: .up)
    }
}

extension String {
    var trimmingSpaces: String {
        String(self.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
