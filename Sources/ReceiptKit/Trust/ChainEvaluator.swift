import Foundation
// The fixed-time expiry API is SPI in swift-certificates; this file is its only user.
@_spi(FixedExpiryValidationTime) import X509

/// Finds and checks the signer's certificate path with swift-certificates' `Verifier`, through the trust cache.
///
/// On a cache miss the `Verifier` (RFC 5280 path validation plus ``ReceiptSignerUsagePolicy``) runs at the
/// requested validation time. If that fails, it runs once more at an instant inside every certificate's validity
/// window: success there means the path is sound and only time is wrong (`certificate_expired`), failure means no
/// trusted path exists (`certificate_untrusted`). Either outcome is time-independent and is cached; the windows of
/// the found path are then checked against each receipt's own validation time.
struct ChainEvaluator {
    var anchors: ReceiptTrustAnchors
    var allowsXcodeStoreKit: Bool
    var cache: ReceiptTrustCache?

    struct Evaluation {
        var outcome: ChainOutcome
        /// Whether every certificate of the path is within its validity window at the validation time.
        var isWithinValidity: Bool
    }

    func evaluate(
        certificates: [ParsedCertificate],
        signerIndex: Int,
        at validationTime: Date
    ) async -> Evaluation {
        let key = ReceiptTrustCache.OutcomeKey(
            certificates: certificates.map(\.identity),
            signer: signerIndex,
            anchors: self.anchors.identity + [self.allowsXcodeStoreKit ? 1 : 0]
        )
        if let cached = self.cache?.outcome(key) {
            return Evaluation(outcome: cached, isWithinValidity: Self.isWithinValidity(cached, at: validationTime))
        }
        let outcome = await self.computeOutcome(certificates, signerIndex: signerIndex, at: validationTime)
        if certificates.allSatisfy({ $0.identity != 0 }) {
            self.cache?.store(outcome, for: key)
        }
        return Evaluation(outcome: outcome, isWithinValidity: Self.isWithinValidity(outcome, at: validationTime))
    }

    private static func isWithinValidity(_ outcome: ChainOutcome, at time: Date) -> Bool {
        guard case .trusted(let path, _) = outcome else { return false }
        return path.allSatisfy { $0.notValidBefore <= time && time <= $0.notValidAfter }
    }

    private func computeOutcome(
        _ certificates: [ParsedCertificate],
        signerIndex: Int,
        at validationTime: Date
    ) async -> ChainOutcome {
        var roots: [Certificate] = self.anchors.certificates
        for parsed in certificates {
            if self.anchors.trustsAppleRoot, parsed.fingerprint == PinnedCertificates.appleIncRootCA.bytes {
                roots.append(parsed.certificate)
            }
            if self.allowsXcodeStoreKit, parsed.fingerprint == PinnedCertificates.xcodeStoreKitTesting.bytes {
                roots.append(parsed.certificate)
            }
        }
        guard !roots.isEmpty else { return .untrusted }
        let leaf = certificates[signerIndex].certificate
        let intermediates = certificates.enumerated().filter { $0.offset != signerIndex }.map(\.element.certificate)

        var path = await Self.verify(leaf: leaf, intermediates: intermediates, roots: roots, at: validationTime)
        if path == nil {
            for instant in Self.referenceInstants(certificates.map(\.certificate) + roots, leaf: leaf)
            where instant != validationTime {
                path = await Self.verify(leaf: leaf, intermediates: intermediates, roots: roots, at: instant)
                if path != nil { break }
            }
        }
        guard let path, !path.isEmpty else { return .untrusted }
        return .trusted(path: path, markers: Self.markers(path))
    }

    private static func verify(
        leaf: Certificate,
        intermediates: [Certificate],
        roots: [Certificate],
        at time: Date
    ) async -> [Certificate]? {
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
            RFC5280Policy(fixedExpiryValidationTime: time)
            ReceiptSignerUsagePolicy()
        }
        switch await verifier.validate(leaf: leaf, intermediates: CertificateStore(intermediates)) {
        case .validCertificate(let chain): return Array(chain)
        case .couldNotValidate: return nil
        }
    }

    /// Instants at which a sound path could be valid: inside the common window of all certificates, else the
    /// middle of the leaf's window.
    private static func referenceInstants(_ certificates: [Certificate], leaf: Certificate) -> [Date] {
        var instants: [Date] = []
        if let start = certificates.map(\.notValidBefore).max(),
            let end = certificates.map(\.notValidAfter).min(), start <= end
        {
            instants.append(start)
        }
        let middle = leaf.notValidBefore.timeIntervalSince1970 / 2 + leaf.notValidAfter.timeIntervalSince1970 / 2
        instants.append(Date(timeIntervalSince1970: middle))
        return instants
    }


    /// Apple's marker rules (see ``AppleMarkerExtensions``). A one-certificate path — a self-signed signer that is
    /// itself an anchor, like Xcode's StoreKit certificate — has no issuer whose marker could be required.
    private static func markers(_ path: [Certificate]) -> ChainOutcome.MarkerVerdict {
        guard path.count >= 2, let leaf = path.first else { return .satisfied }
        guard AppleMarkerExtensions.has(AppleMarkerExtensions.receiptSigning, leaf) else {
            return .leafNotReceiptSigning
        }
        for intermediate in path.dropFirst().dropLast()
        where !AppleMarkerExtensions.has(AppleMarkerExtensions.wwdrIntermediate, intermediate) {
            return .intermediateNotWWDR
        }
        return .satisfied
    }
}
