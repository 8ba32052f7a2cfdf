public import AppStorePKI
public import struct Foundation.Date
import Crypto
import X509

/// Verifies App Store signed data (StoreKit 2 transactions, renewal info, `AppTransaction`, server notifications):
/// decodes the compact JWS, checks the header, the ES256 signature and the `x5c` chain to Apple Root CA - G3, and the
/// caller's expectations.
///
/// ```swift
/// let verifier = JWSVerifier(policy: JWSVerificationPolicy(bundleIdentifier: "com.example.app"))
/// let result = try await verifier.verify(signedTransaction, as: JWSTransactionPayload.self)
/// if result.isValid { grant(result.payload.productID) } else { print(result.failures) }
/// ```
///
/// Malformed input throws a ``JWSError``; a well-formed JWS that fails a check returns a ``JWSVerificationResult``
/// listing every failure. The chain shares `AppStoreTrustCache` with receipt validation: once Apple's
/// certificates formed a trusted path, a JWS costs one P-256 verification; the chain's validity windows are still
/// checked at each payload's own trust-evaluation time. The chain is evaluated only for a signature that verified,
/// so forged data never reaches path building or the cache.
public struct JWSVerifier: Sendable {
    /// What the verifier requires.
    public var policy: JWSVerificationPolicy
    /// The cache of parsed certificates and chain outcomes, or `nil` for none.
    public var cache: AppStoreTrustCache?
    /// Resource limits for decoding.
    public var decodingConfiguration: JWSDecodingConfiguration

    public init(
        policy: JWSVerificationPolicy = JWSVerificationPolicy(),
        cache: AppStoreTrustCache? = .shared,
        decodingConfiguration: JWSDecodingConfiguration = .default
    ) {
        self.policy = policy
        self.cache = cache
        self.decodingConfiguration = decodingConfiguration
    }

    /// Decodes and verifies one compact JWS.
    /// - Parameters:
    ///   - jws: The compact serialization (`xxx.yyy.zzz`), as text or UTF-8 bytes.
    ///   - type: The payload expected.
    ///   - now: The current time, used when the policy validates the chain "now" or the payload has no date.
    /// - Throws: ``JWSError`` when the input is not a well-formed JWS with a payload of that type.
    public func verify<Payload: AppStoreSignedPayload>(
        _ jws: some StringProtocol,
        as type: Payload.Type,
        now: Date = Date()
    ) async throws(JWSError) -> JWSVerificationResult<Payload> {
        try await self.verify(Array(jws.utf8), as: type, now: now)
    }

    /// Decodes and verifies one compact JWS given as bytes.
    public func verify<Payload: AppStoreSignedPayload>(
        _ jws: [UInt8],
        as type: Payload.Type,
        now: Date = Date()
    ) async throws(JWSError) -> JWSVerificationResult<Payload> {
        let compact = try CompactJWS(jws, configuration: self.decodingConfiguration)
        let payload = try Payload(fields: compact.payload)
        return try await self.verify(compact, payload, now: now)
    }

    /// Decodes and verifies a server notification's `signedPayload` and the signed data nested in it
    /// (`signedTransactionInfo`, `signedRenewalInfo`, `signedAppTransactionInfo`), each with this verifier's policy.
    /// - Throws: ``JWSError`` when the notification or a nested JWS is malformed.
    public func verifyNotification(
        _ signedPayload: some StringProtocol,
        now: Date = Date()
    ) async throws(JWSError) -> NotificationVerificationResult {
        try await self.verifyNotification(CompactJWS(Array(signedPayload.utf8), configuration: self.decodingConfiguration), now: now)
    }

    func verifyNotification(_ compact: CompactJWS, now: Date) async throws(JWSError) -> NotificationVerificationResult {
        let notification = try await self.verify(compact, NotificationPayload(fields: compact.payload), now: now)
        let data = notification.payload.data
        return NotificationVerificationResult(
            notification: notification,
            transaction: try await self.verifyNested(data?.signedTransactionInfo, now: now),
            renewalInfo: try await self.verifyNested(data?.signedRenewalInfo, now: now),
            appTransaction: try await self.verifyNested(notification.payload.appData?.signedAppTransactionInfo, now: now)
        )
    }

    private func verifyNested<Payload: AppStoreSignedPayload>(
        _ jws: String?,
        now: Date
    ) async throws(JWSError) -> JWSVerificationResult<Payload>? {
        guard let jws else { return nil }
        return try await self.verify(jws, as: Payload.self, now: now)
    }

    func verify<Payload: AppStoreSignedPayload>(
        _ compact: CompactJWS,
        _ payload: Payload,
        now: Date
    ) async throws(JWSError) -> JWSVerificationResult<Payload> {
        try await self.verify(compact, payload, claims: PayloadClaims(payload, policy: self.policy), now: now)
    }

    /// Verifies `payload`, held to the caller's expectations as `claims` says (by its kind's rules, or for a payload
    /// of unknown kind by the fields it holds).
    func verify<Payload: AppStoreSignedPayload>(
        _ compact: CompactJWS,
        _ payload: Payload,
        claims: PayloadClaims,
        now: Date
    ) async throws(JWSError) -> JWSVerificationResult<Payload> {
        let policy = self.policy
        // 1. The caller's expectations: comparisons only (PayloadClaims says which the payload is held to).
        var failures = claims.expectationFailures
        let trustTime = policy.trustEvaluationTime.resolve(signingDate: payload.signingTime, now: now)
        func result(path: [Certificate] = [], anchor: AppStoreTrustAnchor? = nil) -> JWSVerificationResult<Payload> {
            JWSVerificationResult(
                payload: payload,
                header: compact.header,
                failures: failures,
                certificatePath: path,
                anchor: anchor,
                trustEvaluationTime: trustTime
            )
        }

        // 2. The header: ES256 only, nothing that points at another key, a chain to verify with.
        let header = compact.header
        let algorithmAllowed = header.algorithm == "ES256"
        let parametersAllowed = header.refusedParameters.isEmpty
        if !algorithmAllowed { failures.append(.algorithmNotAllowed) }
        if !parametersAllowed { failures.append(.headerParameterNotAllowed) }
        guard let chain = header.certificateChain, !chain.isEmpty else {
            failures.append(.certificateChainMissing)
            return result()
        }

        // 3. The certificates (parsed, or found among those that formed a trusted path before).
        let certificates: AppStoreCertificates
        do {
            certificates = try AppStoreCertificates(derEncoded: chain, cache: self.cache)
        } catch {
            throw JWSError(.malformedCertificate, "an x5c certificate does not parse: \(error.reason)")
        }
        guard let leaf = certificates[0] else {
            failures.append(.certificateChainMissing)
            return result()
        }

        // 4. The signature: 64 bytes r ‖ s, ES256 over the exact text received, with the leaf's P-256 key.
        let signatureValid: Bool
        if !algorithmAllowed {
            signatureValid = false  // already refused; no other algorithm is ever tried
        } else if compact.signature.count != 64 {
            failures.append(.signatureMalformed)
            signatureValid = false
        } else if let key = P256.Signing.PublicKey(leaf.certificate.publicKey),
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: compact.signature),
            key.isValidSignature(signature, for: compact.signingInput)
        {
            signatureValid = true
        } else {
            failures.append(.signatureInvalid)
            signatureValid = false
        }

        // 5. Local environments: self-signed on a developer's machine; only on opt-in or with the caller's anchor.
        let isLocal = claims.isLocal
        let anchoredByCaller = policy.anchors.fingerprints.contains(leaf.fingerprint)
        var anchors = policy.anchors
        var trustsItself = false
        if isLocal, !anchoredByCaller {
            guard policy.allowsLocalEnvironments else {
                failures.append(.localEnvironmentNotAllowed)
                return result()
            }
            if certificates.count == 1 {
                anchors = AppStoreTrustAnchors(policy.anchors.certificates + [leaf.certificate], trustsAppleRoot: false)
                trustsItself = true
            }
        }

        // 6. The chain, for a signature that verified.
        guard signatureValid, parametersAllowed else { return result() }
        let evaluator = ChainEvaluator(
            anchors: anchors,
            pinnedRoots: anchors.trustsAppleRoot ? [.appleRootCAG3] : [],
            cache: self.cache
        )
        let verdict = await evaluator.evaluate(certificates, signer: 0, marker: .appStoreSigning, at: trustTime)
        let path = verdict.path
        let anchor = verdict.anchor.map { trustsItself ? .selfSignedLocal : $0 }
        failures += verdict.failures.map { JWSVerificationFailure($0) }

        // 7. Revocation, online (a verdict kept while its answers hold), for data that passed everything else.
        if let check = policy.revocationCheck, failures.isEmpty, !path.isEmpty {
            switch await RevocationChecker(check: check).evaluate(path: path, now: now) {
            case .good: break
            case .revoked: failures.append(.certificateRevoked)
            case .unknown: failures.append(.revocationStatusUnknown)
            case .failed: failures.append(.revocationCheckFailed)
            case .unavailable: failures.append(.revocationCheckUnavailable)
            }
        }
        return result(path: path, anchor: anchor)
    }
}
