import Foundation
import SwiftASN1
// Disabling the validity check is SPI in swift-certificates; windows are checked here against the signed data's
// validation time, so that "sound but expired" and "untrusted" are told apart from one Verifier run.
@_spi(DisableValidityCheck) import X509

/// The policy of an App Store path search (receipts and signed JWS): RFC 5280 (swift-certificates'
/// `RFC5280Policy`), every certificate inside its validity window at the validation time, and Apple's marker
/// extensions (``AppleMarkerExtensions``).
///
/// Markers are checked *during* path building, like pins in ServerTrust: when several paths exist, a valid one is
/// found even if the first candidate misses a marker. Rejected candidates are recorded in ``AppStorePathFindings``.
///
/// The extended-key-usage extension is accepted when present: swift-certificates has no EKU policy, Xcode's StoreKit
/// certificate marks `codeSigning` critical, and signing a receipt or a JWS is not a use any EKU value names — what
/// a certificate may sign is decided by Apple's markers instead.
struct AppStorePathPolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier]
    private let structure = RFC5280Policy.withValidityCheckDisabled()
    private let time: Date
    private let marker: AppleSignerMarker
    let findings: AppStorePathFindings

    init(time: Date, marker: AppleSignerMarker, findings: AppStorePathFindings) {
        self.verifyingCriticalExtensions = self.structure.verifyingCriticalExtensions + [.X509ExtensionID.extendedKeyUsage]
        self.time = time
        self.marker = marker
        self.findings = findings
    }

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        if case .failsToMeetPolicy(let reason) = self.structure.chainMeetsPolicyRequirements(chain: chain) {
            return .failsToMeetPolicy(reason: reason)
        }
        let path = Array(chain)
        let markers = AppleMarkerExtensions.verdict(path, signer: self.marker)
        guard markers == .satisfied else {
            if self.findings.unmarkedPath == nil { self.findings.unmarkedPath = (path, markers) }
            return .failsToMeetPolicy(reason: "an Apple marker extension is missing")
        }
        let time = self.time
        guard path.allSatisfy({ $0.notValidBefore <= time && time <= $0.notValidAfter }) else {
            if self.findings.expiredPath == nil { self.findings.expiredPath = path }
            return .failsToMeetPolicy(reason: "a certificate is outside its validity window")
        }
        return .meetsPolicy
    }
}
