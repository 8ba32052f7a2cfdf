/// The service's answer to `POST /notifications/v2` or `POST /jws/verify`, before it becomes HTTP: the outcome,
/// why, and the JSON body. The HTTP status comes from the outcome (``httpStatus``).
public struct SignedDataAnswer: Sendable {
    /// `recorded`, `duplicate`, `valid`, `invalid`, `rejected`, `malformed` or `unavailable`.
    public var outcome: SignedDataOutcome
    /// Reason codes for anything but `recorded`, `duplicate` and `valid`.
    public var reasons: [ServiceReason]
    /// The whole JSON response body.
    public var body: [UInt8]
}
