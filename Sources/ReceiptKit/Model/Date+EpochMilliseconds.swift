public import struct Foundation.Date
import _ReceiptKitShared

extension Date {
    /// Creates a date from milliseconds since 1970-01-01T00:00:00Z, as receipts and `verifyReceipt` count them.
    public init(epochMilliseconds: Int64) {
        self = EpochMilliseconds.date(epochMilliseconds)
    }

    /// Milliseconds since 1970-01-01T00:00:00Z, rounded to the nearest millisecond (clamped to the `Int64` range).
    public var epochMilliseconds: Int64 {
        EpochMilliseconds.of(self)
    }
}
