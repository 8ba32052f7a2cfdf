/// The routes that answer signed data: the `endpoint` label of `receiptkit_signed_data_requests_total` is its raw
/// value, and the request's log line is named by ``logName``.
enum SignedDataEndpoint: String, CaseIterable, Sendable {
    /// `POST /notifications/v2`.
    case notifications
    /// `POST /jws/verify`.
    case jws

    /// The message of the request's log line.
    var logName: String {
        switch self {
        case .notifications: return "notification"
        case .jws: return "jws"
        }
    }

    /// Every outcome the route answers with: its `outcome` labels, each exposed from the start.
    var outcomes: [SignedDataOutcome] {
        switch self {
        case .notifications: return [.recorded, .duplicate, .rejected, .malformed, .unavailable]
        case .jws: return [.valid, .invalid, .malformed, .unavailable]
        }
    }
}
