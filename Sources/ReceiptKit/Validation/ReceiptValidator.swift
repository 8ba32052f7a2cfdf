import _ReceiptKitShared
public import AppStorePKI
public import struct Foundation.Date
import Crypto
import X509

/// Validates App Store receipts: decodes them, verifies the signature and the certificate chain to a trusted
/// anchor, and checks app identity, device and expiration.
///
/// ```swift
/// let validator = ReceiptValidator(policy: ReceiptValidationPolicy(bundleIdentifier: "com.example.app"))
/// let result = try await validator.validate(receiptBytes)
/// if !result.isValid { print(result.failures) }   // e.g. [bundle_id_mismatch]
/// ```
///
/// Malformed input throws a ``ReceiptError``; a well-formed receipt that fails checks returns a
/// ``ReceiptValidationResult`` listing every failure. Checks run cheapest first — identity fields, expiration,
/// device hash, content signature, then the chain (AppStorePKI's chain step, cached, see
/// `AppStoreTrustCache`) — and all of them run, so the result names every problem, not just the first;
/// the chain is evaluated only once the signature has verified.
public struct ReceiptValidator: Sendable {
    /// What the validator requires.
    public var policy: ReceiptValidationPolicy
    /// Resource limits for decoding.
    public var decodingConfiguration: ReceiptDecodingConfiguration
    /// The cache of parsed certificates and chain outcomes, or `nil` for none.
    public var cache: AppStoreTrustCache?

    /// Creates a validator.
    /// - Parameters:
    ///   - policy: What to require of receipts.
    ///   - cache: Shared certificate and chain cache; `nil` validates every chain from scratch.
    ///   - decodingConfiguration: Resource limits for hostile input.
    public init(
        policy: ReceiptValidationPolicy = ReceiptValidationPolicy(),
        cache: AppStoreTrustCache? = .shared,
        decodingConfiguration: ReceiptDecodingConfiguration = .default
    ) {
        self.policy = policy
        self.cache = cache
        self.decodingConfiguration = decodingConfiguration
    }

    /// Decodes and validates a DER or BER encoded receipt.
    ///
    /// - Parameters:
    ///   - bytes: The receipt file's bytes (decode base64 first with ``ReceiptInput/normalized(_:base64:configuration:)``).
    ///   - now: The current time, used for the VPP expiration check and when the policy validates the chain "now".
    /// - Returns: The verdict with every failed check.
    /// - Throws: ``ReceiptError`` when the bytes are not a well-formed receipt.
    public func validate(_ bytes: [UInt8], now: Date = Date()) async throws(ReceiptError) -> ReceiptValidationResult {
        let container = try ReceiptContainer.decode(bytes[...], configuration: self.decodingConfiguration)
        return try await self.validate(container, now: now)
    }

    func validate(_ container: ReceiptContainer, now: Date) async throws(ReceiptError) -> ReceiptValidationResult {
        let receipt = container.receipt
        let policy = self.policy
        var failures: [ReceiptValidationFailure] = []

        // 1. Identity and expiry. Bundle id and version are compared as the exact bytes of their UTF-8 text (as the
        //    device hash uses them), not as Swift strings, which would equate canonically equivalent spellings.
        if let expected = policy.bundleIdentifier, !Self.sameBytes(receipt.bundleIdentifier, expected) {
            failures.append(.bundleIDMismatch)
        }
        if let expected = policy.appVersion, !Self.sameBytes(receipt.appVersion, expected) {
            failures.append(.appVersionMismatch)
        }
        if let expiration = receipt.expirationDate, expiration < now {
            failures.append(.receiptExpired)
        }

        // 2. Device hash: one SHA-1.
        if let device = policy.device, !Self.deviceHashMatches(receipt, device) {
            failures.append(.deviceHashMismatch)
        }

        // 3. Parse the certificates (or find them in the cache, which holds only certificates that formed a trusted
        //    path); malformed certificates make the container malformed. Their number is capped by decoding.
        let certificates: AppStoreCertificates
        do {
            certificates = try AppStoreCertificates(derEncoded: container.certificates, cache: self.cache)
        } catch {
            throw ReceiptError(.malformedCertificate, error.reason)
        }
        let signerIndex = certificates.firstIndex { $0.matches(container.signer.signerIdentifier) }
        let signer = signerIndex.flatMap { certificates[$0] }

        // 4. Content signature: one RSA verification.
        let signatureValid: Bool
        if let key = signer?.rsaKey {
            signatureValid = ContentSignature.isValid(signer: container.signer, content: container.content, key: key)
        } else {
            signatureValid = false
        }
        if !signatureValid {
            failures.append(.signatureInvalid)
        }

        // 5. Chain: cached path, or one swift-certificates Verifier run — only for a signature that verified, so a
        //    forged receipt never reaches path building or the cache.
        let trustTime = policy.trustEvaluationTime.resolve(signingDate: receipt.creationDate, now: now)
        let isXcodeReceipt =
            receipt.environment == .xcode || signer?.fingerprint == PinnedCertificates.xcodeStoreKitTesting.bytes
        // Passing the (self-signed) signing certificate itself as an anchor is an explicit opt-in.
        let xcodeAnchoredByCaller = signer.map { policy.anchors.fingerprints.contains($0.fingerprint) } ?? false
        var path: [Certificate] = []
        var anchor: AppStoreTrustAnchor?
        if isXcodeReceipt, !policy.allowsXcodeReceipts, !xcodeAnchoredByCaller {
            failures.append(.xcodeReceiptNotAllowed)
        } else if let signerIndex, signatureValid {
            var pinnedRoots: [PinnedRoot] = []
            if policy.anchors.trustsAppleRoot { pinnedRoots.append(.appleIncRootCA) }
            if policy.allowsXcodeReceipts { pinnedRoots.append(.xcodeStoreKitTesting) }
            let evaluator = ChainEvaluator(anchors: policy.anchors, pinnedRoots: pinnedRoots, cache: self.cache)
            let verdict = await evaluator.evaluate(
                certificates, signer: signerIndex, marker: .receiptSigning, at: trustTime
            )
            (path, anchor) = (verdict.path, verdict.anchor)
            failures += verdict.failures.map { ReceiptValidationFailure($0) }
        }

        return ReceiptValidationResult(
            receipt: receipt,
            failures: failures,
            certificatePath: path,
            anchor: anchor,
            trustEvaluationTime: trustTime
        )
    }

    private static func sameBytes(_ actual: String?, _ expected: String) -> Bool {
        guard let actual else { return false }
        return actual.utf8.elementsEqual(expected.utf8)
    }

    /// SHA-1(device ‖ opaque value ‖ raw bundle identifier bytes) compared in constant time with attribute 5.
    static func deviceHashMatches(_ receipt: AppReceipt, _ device: DeviceIdentifier) -> Bool {
        guard let opaque = receipt.opaqueValue, let bundle = receipt.bundleIdentifierData,
            let expected = receipt.sha1Hash
        else { return false }
        var hasher = Insecure.SHA1()
        hasher.update(data: device.bytes)
        hasher.update(data: opaque)
        hasher.update(data: bundle)
        return ConstantTime.equals(Array(hasher.finalize()), expected)
    }
}
