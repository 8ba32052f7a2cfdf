public import struct Foundation.Date
import X509
import _ReceiptKitShared

/// The one chain step of App Store verification: finds and checks the signer's certificate path with
/// swift-certificates' `Verifier`, through the trust cache.
///
/// ```swift
/// let certificates = try AppStoreCertificates(derEncoded: carried, cache: .shared)
/// // … verify the data's own signature with the signer's key first …
/// let evaluator = ChainEvaluator(anchors: .apple, pinnedRoots: [.appleRootCAG3], cache: .shared)
/// let verdict = await evaluator.evaluate(certificates, signer: 0, marker: .appStoreSigning, at: signedDate)
/// if verdict.isTrusted { … }   // else map verdict.failures to your reason codes
/// ```
///
/// On a cache miss one `Verifier` run (RFC 5280 plus Apple's markers) looks for a path that is sound, carries
/// Apple's markers and is valid at the requested time. When none is, what it saw decides the verdict: a sound,
/// marked path outside its window (``ChainVerdict/Failure/outsideValidity``), a sound path missing a marker
/// (``ChainVerdict/Failure/signerLacksMarker`` or ``ChainVerdict/Failure/intermediateLacksMarker``), or no sound
/// path (``ChainVerdict/Failure/untrusted``). A trusted outcome is time-independent and is cached with the
/// certificates that formed it; the windows of the path are then checked against each object's own validation time.
public struct ChainEvaluator: Sendable {
    var anchors: AppStoreTrustAnchors
    var pinnedRoots: [PinnedRoot]
    var cache: AppStoreTrustCache?

    /// - Parameters:
    ///   - anchors: The caller's anchors (their `trustsAppleRoot` is not read here: pass the pinned roots it allows).
    ///   - pinnedRoots: Certificates trusted by fingerprint when the signed data carries them.
    ///   - cache: The certificate and chain-outcome cache; `nil` evaluates every chain from scratch.
    public init(anchors: AppStoreTrustAnchors, pinnedRoots: [PinnedRoot], cache: AppStoreTrustCache?) {
        self.anchors = anchors
        self.pinnedRoots = pinnedRoots
        self.cache = cache
    }

    /// Evaluates the path from `certificates[signer]` to a trusted anchor at `validationTime`.
    ///
    /// Call it only for data whose own signature verified with the signer's key: a trusted outcome admits the
    /// certificates to the cache.
    /// - Parameters:
    ///   - certificates: The certificates the signed data carries.
    ///   - signer: The index of the signer's certificate in `certificates` (out of range: untrusted).
    ///   - marker: The marker extension the signer must carry under Apple's roots.
    ///   - validationTime: The instant at which every certificate of the path must be valid.
    public func evaluate(
        _ certificates: AppStoreCertificates,
        signer: Int,
        marker: AppleSignerMarker,
        at validationTime: Date
    ) async -> ChainVerdict {
        let entries = certificates.entries
        // Callers pass a signer index into `certificates`; one out of range finds no path rather than trapping.
        guard entries.indices.contains(signer) else {
            return ChainVerdict(.untrusted, isWithinValidity: false)
        }
        let key = AppStoreTrustCache.OutcomeKey(
            certificates: entries.map(\.parsed.fingerprint),
            signer: signer,
            marker: marker,
            anchors: self.anchors.identity + [self.pinnedRoots.reduce(0) { $0 | $1.tag }]
        )
        if let cached = self.cache?.outcome(key) {
            return ChainVerdict(cached, isWithinValidity: Self.isWithinValidity(cached, at: validationTime))
        }
        let parsed = entries.map(\.parsed)
        let outcome = await self.computeOutcome(parsed, signer: signer, marker: marker, at: validationTime)
        if case .trusted = outcome {
            self.cache?.admit(entries, outcome: outcome, for: key)
        }
        return ChainVerdict(outcome, isWithinValidity: Self.isWithinValidity(outcome, at: validationTime))
    }

    private static func isWithinValidity(_ outcome: ChainOutcome, at time: Date) -> Bool {
        guard case .trusted(let path, _, _) = outcome else { return false }
        return path.allSatisfy { $0.notValidBefore <= time && time <= $0.notValidAfter }
    }

    private func computeOutcome(
        _ certificates: [ParsedCertificate],
        signer signerIndex: Int,
        marker: AppleSignerMarker,
        at validationTime: Date
    ) async -> ChainOutcome {
        var roots: [Certificate] = self.anchors.certificates
        for parsed in certificates where self.pinnedRoots.contains(where: { $0.fingerprint.bytes == parsed.fingerprint }) {
            roots.append(parsed.certificate)
        }
        guard !roots.isEmpty else { return .untrusted }
        let leaf = certificates[signerIndex].certificate
        let intermediates = certificates.enumerated().filter { $0.offset != signerIndex }.map(\.element.certificate)

        let findings = AppStorePathFindings()
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
            AppStorePathPolicy(time: validationTime, marker: marker, findings: findings)
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
    private func kind(of certificate: Certificate, _ certificates: [ParsedCertificate]) -> AppStoreTrustAnchor {
        let carried = certificates.first { $0.certificate == certificate }
        let fingerprint = carried?.fingerprint ?? CertificateFingerprint.sha256(certificate)
        return self.pinnedRoots.first { $0.fingerprint.bytes == fingerprint }?.kind ?? .callerAnchor
    }
}
