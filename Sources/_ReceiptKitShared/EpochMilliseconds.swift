public import struct Foundation.Date

/// Milliseconds since 1970-01-01T00:00:00Z, as receipts, `verifyReceipt` and App Store JWS count time.
public enum EpochMilliseconds {
    /// The instant `milliseconds` names.
    public static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// `date` in milliseconds, rounded to the nearest millisecond (clamped to the `Int64` range).
    public static func of(_ date: Date) -> Int64 {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite else { return milliseconds < 0 ? .min : .max }
        guard milliseconds < 9.2e18 else { return .max }
        guard milliseconds > -9.2e18 else { return .min }
        return Int64(milliseconds)
    }
}
