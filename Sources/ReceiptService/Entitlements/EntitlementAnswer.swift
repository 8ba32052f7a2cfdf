import AppStoreJWS
import Hummingbird
import Logging

/// The entitlements endpoint's answer: `{"active_entitlements": […], "items": […], …}`, or
/// `{"status": …, "reasons": […], "reason": …}` for a refusal.
struct EntitlementAnswer: Sendable {
    let outcome: EntitlementOutcome
    let reasons: [ServiceReason]
    let body: [UInt8]

    /// 200 with `members`.
    static func answered(_ members: [String: JSONValue]) -> Self {
        Self(outcome: .answered, reasons: [], body: JSONValue.object(members).serialized)
    }

    /// The refusal's outcome, code and sentence.
    static func refused(_ refusal: EntitlementRefusal) -> Self {
        let members: [String: JSONValue] = [
            "status": .string(refusal.outcome.rawValue), "reasons": .array([.string(refusal.reason.code)]),
            "reason": .string(refusal.message),
        ]
        return Self(outcome: refusal.outcome, reasons: [refusal.reason], body: JSONValue.object(members).serialized)
    }
}

extension EntitlementAnswer: HTTPAnswer {
    var httpResponseStatus: HTTPResponse.Status { HTTPResponse.Status(code: self.outcome.httpStatus) }

    var logMetadata: Logger.Metadata {
        [
            "http_status": .stringConvertible(self.outcome.httpStatus), "outcome": .string(self.outcome.rawValue),
            "reasons": .array(self.reasons.map { .string($0.code) }),
        ]
    }
}
