public import struct Foundation.Date

/// Milliseconds since 1970-01-01T00:00:00Z, as receipts, `verifyReceipt` and App Store JWS count time: the package's
/// one place that turns a `Date` into them and back.
public enum EpochMilliseconds {
    /// The instant `milliseconds` names.
    public static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// The instant a possibly fractional count of milliseconds names (Xcode-signed data writes fractions).
    public static func date(fractional milliseconds: Double) -> Date {
        Date(timeIntervalSince1970: milliseconds / 1000)
    }

    /// `date` in whole milliseconds when it lies within ±9 × 10¹⁵ of 1970 (about 285,000 years), else `nil`: for
    /// callers that must refuse an instant rather than clamp it.
    public static func exactly(_ date: Date) -> Int64? {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite, abs(milliseconds) < 9e15 else { return nil }
        return Int64(milliseconds)
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
