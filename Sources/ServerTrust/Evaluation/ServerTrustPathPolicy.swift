import Foundation
import SwiftASN1
import X509

/// The policy of a server-trust path search: it decides which candidate path is trusted and records in
/// ``PathFindings`` why the others are not.
///
/// A path is trusted when it meets the profile's certificate rules (``ProfileRules``: basic constraints, key usage,
/// path length, name constraints, key identifiers, …), every certificate on it is valid at the evaluation time, its
/// leaf allows serverAuth, the leaf names the identity (when the domain is validated) and, when pinning, a
/// certificate on it is pinned. Validity windows are checked here rather than by swift-certificates so that "sound
/// but expired" and "untrusted" are told apart from one Verifier run.
struct ServerTrustPathPolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier]
    private let rules: ProfileRules
    private let time: Date
    private let pins: PinnedPathPolicy?
    private var identity: ServerIdentityPolicy?
    private let leafAllowsServerAuth: Bool
    let findings: PathFindings

    /// - Parameters:
    ///   - identity: swift-certificates' identity check, for profiles that use it and only when nobody has decided
    ///     `findings.leafNamesIdentity` already.
    ///   - presented: The certificates the server sent. Critical extensions in them that nothing processes are
    ///     declared handled, so that the path reaches ``ProfileRules`` and fails as `unknown_critical_extension`
    ///     instead of vanishing from the search.
    init(
        rules: ProfileRules,
        time: Date,
        pins: PinnedPathPolicy?,
        identity: ServerIdentityPolicy?,
        leafAllowsServerAuth: Bool,
        findings: PathFindings,
        presented: [Certificate]
    ) {
        var handled = CertificateFacts.processedExtensions
        for certificate in presented {
            for unknown in certificate.extensions where unknown.critical && !handled.contains(unknown.oid) {
                handled.append(unknown.oid)
            }
        }
        self.verifyingCriticalExtensions = handled
        self.rules = rules
        self.time = time
        self.pins = pins
        self.identity = identity
        self.leafAllowsServerAuth = leafAllowsServerAuth
        self.findings = findings
    }

    mutating func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        let findings = self.findings
        var facts: [CertificateFacts] = []
        for certificate in chain { facts.append(findings.facts(of: certificate)) }
        let broken = self.rules.failures(facts)
        if !broken.isEmpty {
            if findings.profileFailures == nil { findings.profileFailures = broken }
            let reason = "breaks the \(self.rules.profile) profile: \(broken)"
            return .failsToMeetPolicy(reason: reason)
        }
        let time = self.time
        let inTime = chain.allSatisfy { $0.notValidBefore <= time && time <= $0.notValidAfter }
        let pinned = self.pins?.contains(chain) ?? true
        let namesIdentity: Bool
        if let known = findings.leafNamesIdentity {
            namesIdentity = known
        } else if var identity = self.identity {
            namesIdentity = identity.chainMeetsPolicyRequirements(chain: chain).meets
            findings.leafNamesIdentity = namesIdentity
        } else {
            namesIdentity = true
        }

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
