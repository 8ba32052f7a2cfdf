import AppStoreJWS
import Foundation
import ReceiptKit

/// The verdict on one App Store JWS of any kind, and on the signed data nested in a notification: what `jws verify`
/// prints.
struct JWSVerdict {
    var kind: AppStoreSignedDataKind
    /// The reason codes of the JWS's own failed checks.
    var failures: [String]
    var environment: String?
    var anchor: String?
    var trustEvaluationTime: Date
    var payload: [String: JSONValue]
    /// Verdicts on `signedTransactionInfo`, `signedRenewalInfo`, `signedAppTransactionInfo`, in that order.
    var nested: [JWSVerdict]

    init<Payload: AppStoreSignedPayload>(_ result: JWSVerificationResult<Payload>, kind: AppStoreSignedDataKind, nested: [JWSVerdict] = []) {
        self.kind = kind
        self.failures = result.failures.map(\.code)
        self.environment = result.payload.environment?.rawValue
        self.anchor = result.anchor?.rawValue
        self.trustEvaluationTime = result.trustEvaluationTime
        self.payload = result.payload.fields
        self.nested = nested
    }

    init(_ result: NotificationVerificationResult) {
        var nested: [JWSVerdict] = []
        if let transaction = result.transaction { nested.append(JWSVerdict(transaction, kind: .transaction)) }
        if let renewalInfo = result.renewalInfo { nested.append(JWSVerdict(renewalInfo, kind: .renewalInfo)) }
        if let appTransaction = result.appTransaction { nested.append(JWSVerdict(appTransaction, kind: .appTransaction)) }
        self.init(result.notification, kind: .notification, nested: nested)
    }

    /// Whether this JWS and everything nested in it verified.
    var isValid: Bool { self.failures.isEmpty && self.nested.allSatisfy(\.isValid) }

    /// Every reason code, nested ones prefixed with their kind (`transaction.signature_invalid`).
    var reasons: [String] {
        self.failures + self.nested.flatMap { inner in inner.reasons.map { "\(inner.kind.rawValue).\($0)" } }
    }

    /// Verifies `input` as its kind.
    static func verify(_ input: JWSInput, with verifier: JWSVerifier, now: Date) async throws(JWSError) -> JWSVerdict {
        switch input.kind {
        case .transaction:
            return JWSVerdict(try await verifier.verify(input.jws, as: JWSTransactionPayload.self, now: now), kind: .transaction)
        case .renewalInfo:
            return JWSVerdict(try await verifier.verify(input.jws, as: JWSRenewalInfoPayload.self, now: now), kind: .renewalInfo)
        case .appTransaction:
            return JWSVerdict(try await verifier.verify(input.jws, as: AppTransactionPayload.self, now: now), kind: .appTransaction)
        case .notification:
            return JWSVerdict(try await verifier.verifyNotification(String(decoding: input.jws, as: UTF8.self), now: now))
        }
    }

    /// The JSON object `jws verify --json` prints for this verdict.
    var json: JSONValue {
        var members: [String: JSONValue] = [
            "kind": .string(self.kind.rawValue),
            "valid": .bool(self.isValid),
            "reasons": .array(self.reasons.map(JSONValue.string)),
            "payload": .object(self.payload),
        ]
        if let environment { members["environment"] = .string(environment) }
        if let anchor { members["anchor"] = .string(anchor) }
        if let time = RFC3339.string(self.trustEvaluationTime) { members["trust_evaluation_time"] = .string(time) }
        if !self.nested.isEmpty {
            members["nested"] = .object(Dictionary(uniqueKeysWithValues: self.nested.map { ($0.kind.rawValue, $0.json) }))
        }
        return .object(members)
    }
}
