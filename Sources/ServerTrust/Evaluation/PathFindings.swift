import X509

/// What a server-trust path search learnt about its candidate paths, so that a failing evaluation is explained from
/// the one Verifier run that decided it instead of by running the Verifier again for each question.
///
/// Owned by one evaluation on one task; never shared.
final class PathFindings {
    /// Some path is sound: signatures linked to an anchor, the profile's rules met at some instant.
    var sound = false
    /// Some sound path has every certificate inside its validity window at the evaluation time.
    var soundInTime = false
    /// Some sound path carries a pin.
    var soundPinned = false
    /// Some sound path, valid at the evaluation time, carries a pin.
    var soundInTimePinned = false
    /// The first path that meets every requirement but the pins (what report-only policies accept).
    var pathIgnoringPins: [Certificate]?
    /// Whether the leaf names the identity, once a candidate path has asked.
    var leafNamesIdentity: Bool?
    /// The profile rules broken by the first signed path that broke any: why no path is sound, when none is.
    var profileFailures: [ServerTrustFailure]?
    /// Each certificate's decoded facts, so that no candidate path decodes a certificate again. A list, not a
    /// dictionary: an evaluation meets a handful of certificates, and hashing one hashes all its bytes (measured: a
    /// `[Certificate: CertificateFacts]` cost a large share of a trusted evaluation; see the ServerTrust catalog's
    /// Measurements article), while comparing two differing certificates stops within their first bytes and comparing a
    /// certificate with itself is one storage check.
    private var facts: [(certificate: Certificate, facts: CertificateFacts)] = []

    init() {}

    func facts(of certificate: Certificate) -> CertificateFacts {
        for known in self.facts where known.certificate == certificate { return known.facts }
        let decoded = CertificateFacts(certificate)
        self.facts.append((certificate, decoded))
        return decoded
    }
}
