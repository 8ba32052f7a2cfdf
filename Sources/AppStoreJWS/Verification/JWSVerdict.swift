public import struct Foundation.Date
public import AppStorePKI
import _ReceiptKitShared

/// The verdict on App Store signed data of any kind — and, for a notification, on the signed data nested in it — in
/// one shape: what `receiptkit jws verify --json` prints and `POST /jws/verify` answers.
///
/// ```swift
/// let verdict = try await verifier.verify(Array(jws.utf8), kind: nil)   // kind told from the payload's fields
/// if verdict.isValid { … } else { print(verdict.reasons) }
/// ```
public struct JWSVerdict: Sendable {
    /// The kind of payload verified; ``AppStoreSignedDataKind/unknown`` when its fields name none, or several.
    public let kind: AppStoreSignedDataKind
    /// The JWS's own failed checks (not those of nested data).
    public let failures: [JWSVerificationFailure]
    /// The environment the payload names (for a payload of unknown kind, when its `environment` and `receiptType`
    /// do not disagree).
    public let environment: AppStoreEnvironment?
    /// The anchor its path ended at, when trusted.
    public let anchor: AppStoreTrustAnchor?
    /// The instant the chain was validated at.
    public let trustEvaluationTime: Date
    /// The payload's fields as signed.
    public let payload: [String: JSONValue]
    /// Verdicts on a notification's `signedTransactionInfo`, `signedRenewalInfo`, `signedAppTransactionInfo`, in
    /// that order, when present.
    public let nested: [JWSVerdict]

    /// The verdict of one result.
    public init<Payload: AppStoreSignedPayload>(
        _ result: JWSVerificationResult<Payload>,
        kind: AppStoreSignedDataKind,
        nested: [JWSVerdict] = []
    ) {
        self.kind = kind
        self.failures = result.failures
        self.environment = result.payload.environment
        self.anchor = result.anchor
        self.trustEvaluationTime = result.trustEvaluationTime
        self.payload = result.payload.fields
        self.nested = nested
    }

    /// The verdict of a notification and its nested data.
    public init(_ result: NotificationVerificationResult) {
        var nested: [JWSVerdict] = []
        if let transaction = result.transaction { nested.append(JWSVerdict(transaction, kind: .transaction)) }
        if let renewalInfo = result.renewalInfo { nested.append(JWSVerdict(renewalInfo, kind: .renewalInfo)) }
        if let appTransaction = result.appTransaction { nested.append(JWSVerdict(appTransaction, kind: .appTransaction)) }
        self.init(result.notification, kind: .notification, nested: nested)
    }

    /// Whether this JWS and everything nested in it verified.
    public var isValid: Bool { self.failures.isEmpty && self.nested.allSatisfy(\.isValid) }

    /// Whether the data failed only because a revocation check could not be made (`revocation_check_unavailable`,
    /// here or in nested data): nothing is known to be wrong, ask again later.
    public var isRetryable: Bool {
        !self.isValid && self.failures.allSatisfy(\.isRetryable) && self.nested.allSatisfy { $0.isValid || $0.isRetryable }
    }

    /// Every reason code, nested ones prefixed with their kind (`transaction.signature_invalid`).
    public var reasons: [String] {
        self.failures.map(\.code) + self.nested.flatMap { inner in inner.reasons.map { "\(inner.kind.rawValue).\($0)" } }
    }

    /// `{"valid":…,"kind":…,"reasons":[…],"environment":…,"anchor":…,"trust_evaluation_time":…,"payload":{…},
    /// "nested":{"transaction":{…},…}}`, with `"retryable":true` when ``isRetryable``.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "kind": .string(self.kind.rawValue),
            "valid": .bool(self.isValid),
            "reasons": .array(self.reasons.map(JSONValue.string)),
            "payload": .object(self.payload),
        ]
        if self.isRetryable { members["retryable"] = .bool(true) }
        if let environment { members["environment"] = .string(environment.rawValue) }
        if let anchor { members["anchor"] = .string(anchor.rawValue) }
        if let time = RFC3339Format.string(self.trustEvaluationTime) { members["trust_evaluation_time"] = .string(time) }
        if !self.nested.isEmpty {
            members["nested"] = .object(Dictionary(self.nested.map { ($0.kind.rawValue, $0.json) }) { first, _ in first })
        }
        return .object(members)
    }
}

extension JWSVerifier {
    /// Decodes and verifies one compact JWS of any kind: `kind`, or the kind its payload's fields name.
    ///
    /// Fields that name no kind, or several, are verified as ``AppStoreSignedDataKind/unknown`` (as is `kind`
    /// `.unknown`): the header, the signature, the chain and its markers as for every kind, and each of the policy's
    /// expectations on the field that carries it when the payload holds that field (`bundleId`; `appAppleId` in
    /// Production; `environment` and `receiptType`), passing when it does not. Nothing nested is verified. A valid
    /// verdict of unknown kind says the App Store signed these fields, not what they are: to hold them to a kind's
    /// rules (a transaction must name the expected bundle id), pass the kind.
    /// - Throws: ``JWSError`` when the input is malformed: not a compact JWS, or a field read has the wrong type.
    public func verify(_ jws: [UInt8], kind: AppStoreSignedDataKind?, now: Date = Date()) async throws(JWSError) -> JWSVerdict {
        let compact = try CompactJWS(jws, configuration: self.decodingConfiguration)
        let fields = compact.payload
        switch kind ?? AppStoreSignedDataKind(detecting: fields) {
        case .transaction:
            return JWSVerdict(try await self.verify(compact, JWSTransactionPayload(fields: fields), now: now), kind: .transaction)
        case .renewalInfo:
            return JWSVerdict(try await self.verify(compact, JWSRenewalInfoPayload(fields: fields), now: now), kind: .renewalInfo)
        case .appTransaction:
            return JWSVerdict(try await self.verify(compact, AppTransactionPayload(fields: fields), now: now), kind: .appTransaction)
        case .notification:
            return JWSVerdict(try await self.verifyNotification(compact, now: now))
        case .unknown:
            let payload = try UnknownKindPayload(fields: fields)
            let claims = PayloadClaims(unknown: payload, policy: self.policy)
            return JWSVerdict(try await self.verify(compact, payload, claims: claims, now: now), kind: .unknown)
        }
    }
}
