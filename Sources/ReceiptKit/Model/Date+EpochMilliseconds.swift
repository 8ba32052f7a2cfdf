public import struct Foundation.Date

extension Date {
    /// Creates a date from milliseconds since 1970-01-01T00:00:00Z, as receipts and `verifyReceipt` count them.
    public init(epochMilliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(epochMilliseconds) / 1000)
    }

    /// Milliseconds since 1970-01-01T00:00:00Z, rounded to the nearest millisecond (clamped to the `Int64` range).
    public var epochMilliseconds: Int64 {
        let milliseconds = (self.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite else { return milliseconds < 0 ? .min : .max }
        guard milliseconds < 9.2e18 else { return .max }
        guard milliseconds > -9.2e18 else { return .min }
        return Int64(milliseconds)
    }
}
