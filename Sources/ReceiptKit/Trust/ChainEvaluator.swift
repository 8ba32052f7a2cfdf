package import Foundation
import X509

/// Finds and checks the signer's certificate path with swift-certificates' `Verifier`, through the trust cache.
///
/// On a cache miss one `Verifier` run with ``ReceiptPathPolicy`` looks for a path that is sound, carries Apple's
/// markers and is valid at the requested time. When none is, what it saw decides the outcome: a sound, marked path
/// outside its window (`certificate_expired`), a sound path missing a marker (`signer_not_receipt_signing` or
/// `certificate_untrusted`), or no sound path (`certificate_untrusted`). A trusted outcome is time-independent and is
/// cached with the certificates that formed it; the windows of the path are then checked against each receipt's
/// own validation time.
///
/// Shared with App Store JWS verification (`package`): the same markers, the same cache, another pinned root.
package struct ChainEvaluator {
    /// A certificate trusted by its SHA-256 fingerprint when the signed data carries it, and what to call it.
    package struct PinnedRoot: Sendable {
        package var fingerprint: PinnedCertificates.Fingerprint
        package var kind: ReceiptTrustAnchor
        /// Its part in chain-outcome cache keys (distinct for every pinned root).
        var tag: UInt8

        /// Apple Inc. Root CA: receipts.
        package static let appleIncRootCA = PinnedRoot(fingerprint: PinnedCertificates.appleIncRootCA, kind: .appleRootCA, tag: 1)
        /// Xcode's StoreKit receipt-signing certificate, on opt-in.
        package static let xcodeStoreKitTesting = PinnedRoot(
            fingerprint: PinnedCertificates.xcodeStoreKitTesting, kind: .xcodeStoreKitTesting, tag: 2
        )
        /// Apple Root CA - G3: App Store signed JWS.
        package static let appleRootCAG3 = PinnedRoot(fingerprint: PinnedCertificates.appleRootCAG3, kind: .appleRootCAG3, tag: 4)
    }

    var anchors: ReceiptTrustAnchors
    var pinnedRoots: [PinnedRoot]
    var cache: ReceiptTrustCache?

    /// - Parameters:
    ///   - anchors: The caller's anchors (their `trustsAppleRoot` is not read here: pass the pinned roots it allows).
    ///   - pinnedRoots: Certificates trusted by fingerprint when the signed data carries them.
    package init(anchors: ReceiptTrustAnchors, pinnedRoots: [PinnedRoot], cache: ReceiptTrustCache?) {
        self.anchors = anchors
        self.pinnedRoots = pinnedRoots
        self.cache = cache
    }

    package struct Evaluation: Sendable {
        package var outcome: ChainOutcome
        /// Whether every certificate of the path is within its validity window at the validation time.
        package var isWithinValidity: Bool
    }

    package func evaluate(
        certificates: [(der: ArraySlice<UInt8>, parsed: ParsedCertificate)],
        signerIndex: Int,
        at validationTime: Date
    ) async -> Evaluation {
        // Callers pass a signer index into `certificates`; one out of range finds no path rather than trapping.
        guard certificates.indices.contains(signerIndex) else {
            return Evaluation(outcome: .untrusted, isWithinValidity: false)
        }
        let key = ReceiptTrustCache.OutcomeKey(
            certificates: certificates.map(\.parsed.fingerprint),
            signer: signerIndex,
            anchors: self.anchors.identity + [self.pinnedRoots.reduce(0) { $0 | $1.tag }]
        )
        if let cached = self.cache?.outcome(key) {
            return Evaluation(outcome: cached, isWithinValidity: Self.isWithinValidity(cached, at: validationTime))
        }
        let outcome = await self.computeOutcome(certificates.map(\.parsed), signerIndex: signerIndex, at: validationTime)
        if case .trusted = outcome {
            self.cache?.admit(certificates, outcome: outcome, for: key)
        }
        return Evaluation(outcome: outcome, isWithinValidity: Self.isWithinValidity(outcome, at: validationTime))
    }

    private static func isWithinValidity(_ outcome: ChainOutcome, at time: Date) -> Bool {
        guard case .trusted(let path, _, _) = outcome else { return false }
        return path.allSatisfy { $0.notValidBefore <= time && time <= $0.notValidAfter }
    }

    private func computeOutcome(
        _ certificates: [ParsedCertificate],
        signerIndex: Int,
        at validationTime: Date
    ) async -> ChainOutcome {
        var roots: [Certificate] = self.anchors.certificates
        for parsed in certificates where self.pinnedRoots.contains(where: { $0.fingerprint.bytes == parsed.fingerprint }) {
            roots.append(parsed.certificate)
        }
        guard !roots.isEmpty else { return .untrusted }
        let leaf = certificates[signerIndex].certificate
        let intermediates = certificates.enumerated().filter { $0.offset != signerIndex }.map(\.element.certificate)

        let findings = ReceiptPathFindings()
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
            ReceiptPathPolicy(time: validationTime, findings: findings)
        }
        let path: [Certificate]
        let markers: ChainOutcome.MarkerVerdict
        switch await verifier.validate(leaf: leaf, intermediates: CertificateStore(intermediates)) {
        case .validCertificate(let valid):
            (path, markers) = (Array(valid), .satisfied)
        case .couldNotValidate:
            if let expired = findings.expiredPath {
                (path, markers) = (expired, .satisfied)
            } else if let unmarked = findings.unmarkedPath {
                (path, markers) = unmarked
            } else {
                return .untrusted
            }
        }
        guard let anchor = path.last else { return .untrusted }
        return .trusted(path: path, markers: markers, anchor: self.kind(of: anchor, certificates))
    }

    /// Which kind of anchor `certificate` is: one of the pinned roots, or the caller's.
    private func kind(of certificate: Certificate, _ certificates: [ParsedCertificate]) -> ReceiptTrustAnchor {
        let fingerprint = certificates.first { $0.certificate == certificate }?.fingerprint ?? certificate.sha256Fingerprint
        return self.pinnedRoots.first { $0.fingerprint.bytes == fingerprint }?.kind ?? .callerAnchor
    }
}
