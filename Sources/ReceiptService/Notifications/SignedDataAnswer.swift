/// The service's answer to `POST /notifications/v2` or `POST /jws/verify`, before it becomes HTTP: the status code,
/// the outcome, why, and the JSON body.
public struct SignedDataAnswer: Sendable {
    /// The HTTP status: 200 recorded, acknowledged or verified; 400 malformed; 422 a notification that failed a
    /// check (nothing recorded); 503 the ledger is unavailable (Apple retries).
    public var httpStatus: Int
    /// `recorded`, `duplicate`, `valid`, `invalid`, `rejected`, `malformed` or `unavailable`.
    public var outcome: String
    /// Reason codes for anything but `recorded`, `duplicate` and `valid`.
    public var reasons: [String]
    /// The whole JSON response body.
    public var body: [UInt8]
}
