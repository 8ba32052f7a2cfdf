import X509

/// What a path search learnt about the candidate paths it rejected, so that the one Verifier run that looked for a
/// valid path also explains why none was found (expired, or missing an Apple marker).
///
/// Owned by one evaluation on one task; never shared.
final class AppStorePathFindings {
    /// The first sound path with Apple's markers in place that is outside its validity window at the time asked.
    var expiredPath: [Certificate]?
    /// The first sound path missing a marker, and which one.
    var unmarkedPath: (path: [Certificate], verdict: ChainOutcome.MarkerVerdict)?

    init() {}
}
