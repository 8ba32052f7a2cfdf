/// The service's verdict on one request, before it becomes JSON: the status, why (for anything but 0), and for a
/// valid receipt the body that goes with it.
public struct VerifyReceiptAnswer: Sendable {
    /// The verifyReceipt status.
    public var status: VerifyReceiptStatus
    /// Stable codes saying why the status is not 0: request problems (`receipt_data_missing`…), decoding errors
    /// (`malformed_container`…), validation failures (`signature_invalid`…), the service's own
    /// (``ServiceReason/ledgerUnavailable``, ``ServiceReason/timeout``…).
    public var reasons: [ServiceReason]
    /// Whether retrying the same request can succeed (sent as `is-retryable` with 21009).
    public var isRetryable: Bool
    /// The whole JSON response body.
    public var body: [UInt8]
}
