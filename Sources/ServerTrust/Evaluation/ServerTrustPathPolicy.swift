import Foundation
import SwiftASN1
// Disabling the validity check is SPI in swift-certificates; the window is checked here against the evaluation time
// so that "sound but expired" and "untrusted" are told apart from one Verifier run.
@_spi(DisableValidityCheck) import X509

/// The policy of a server-trust path search: it decides which candidate path is trusted and records in
/// ``PathFindings`` why the others are not.
///
/// A path is trusted when it meets RFC 5280 (swift-certificates' `RFC5280Policy`, validity windows checked here at
/// the evaluation time), its leaf allows serverAuth, the leaf names the identity (swift-certificates'
/// `ServerIdentityPolicy`, when the domain is validated) and, when pinning, a certificate on it is pinned.
struct ServerTrustPathPolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier]
    private let structure = RFC5280Policy.withValidityCheckDisabled()
    private let time: Date
    private let pins: PinnedPathPolicy?
    private var identity: ServerIdentityPolicy?
    private let leafAllowsServerAuth: Bool
    let findings: PathFindings

    init(
        time: Date,
        pins: PinnedPathPolicy?,
        identity: ServerIdentityPolicy?,
        leafAllowsServerAuth: Bool,
        findings: PathFindings
    ) {
        var handled = self.structure.verifyingCriticalExtensions + [.X509ExtensionID.extendedKeyUsage]
        if let identity { handled += identity.verifyingCriticalExtensions }
        self.verifyingCriticalExtensions = handled
        self.time = time
        self.pins = pins
        self.identity = identity
        self.leafAllowsServerAuth = leafAllowsServerAuth
        self.findings = findings
    }

    mutating func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        if case .failsToMeetPolicy(let reason) = self.structure.chainMeetsPolicyRequirements(chain: chain) {
            return .failsToMeetPolicy(reason: reason)
        }
        let time = self.time
        let inTime = chain.allSatisfy { $0.notValidBefore <= time && time <= $0.notValidAfter }
        let pinned = self.pins?.contains(chain) ?? true
        let namesIdentity: Bool
        if let known = self.findings.leafNamesIdentity {
            namesIdentity = known
        } else if var identity = self.identity {
            namesIdentity = identity.chainMeetsPolicyRequirements(chain: chain).meets
            self.findings.leafNamesIdentity = namesIdentity
        } else {
            namesIdentity = true
        }

        let findings = self.findings
        findings.sound = true
        findings.soundInTime = findings.soundInTime || inTime
        findings.soundPinned = findings.soundPinned || pinned
        findings.soundInTimePinned = findings.soundInTimePinned || (inTime && pinned)
        let meetsAllButPins = inTime && namesIdentity && self.leafAllowsServerAuth
        if meetsAllButPins, !pinned, findings.pathIgnoringPins == nil {
            // Kept only when the pins are what fails: a path that meets everything is what the Verifier returns.
            findings.pathIgnoringPins = Array(chain)
        }
        return meetsAllButPins && pinned
            ? .meetsPolicy : .failsToMeetPolicy(reason: "expired, unpinned, or the leaf does not serve this identity")
    }
}

extension PolicyEvaluationResult {
    var meets: Bool {
        if case .meetsPolicy = self { return true }
        return false
    }
}
