import Hummingbird
import Logging

/// An answer the service's routes send as JSON: its HTTP status, its body, and what its log line says.
///
/// The verification core decides outcomes; this is where they become HTTP.
protocol HTTPAnswer: Sendable {
    /// The HTTP status to send.
    var httpResponseStatus: HTTPResponse.Status { get }
    /// The JSON body.
    var body: [UInt8] { get }
    /// The answer's fields in the request's log line.
    var logMetadata: Logger.Metadata { get }
}

extension VerifyReceiptAnswer: HTTPAnswer {
    /// Every verifyReceipt verdict is HTTP 200: the status is in the body, as with Apple's endpoints.
    var httpResponseStatus: HTTPResponse.Status { .ok }

    var logMetadata: Logger.Metadata {
        ["status": .stringConvertible(self.status.code), "reasons": .array(self.reasons.map { .string($0.code) })]
    }
}

extension SignedDataAnswer {
    /// The HTTP status code the service answers with: 200 for `recorded`, `duplicate`, `valid` and `invalid`,
    /// 400 `malformed`, 422 `rejected`, 503 `unavailable` (Apple retries a notification so answered).
    public var httpStatus: Int { self.httpResponseStatus.code }
}

extension SignedDataAnswer: HTTPAnswer {
    var httpResponseStatus: HTTPResponse.Status {
        switch self.outcome {
        case .recorded, .duplicate, .valid, .invalid: return .ok
        case .malformed: return .badRequest
        case .rejected: return .unprocessableContent
        case .unavailable: return .serviceUnavailable
        default: return .internalServerError
        }
    }

    var logMetadata: Logger.Metadata {
        [
            "http_status": .stringConvertible(self.httpStatus),
            "outcome": .string(self.outcome.rawValue),
            "reasons": .array(self.reasons.map { .string($0.code) }),
        ]
    }
}
