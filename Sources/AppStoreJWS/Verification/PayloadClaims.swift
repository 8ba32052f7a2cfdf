/// What ``JWSVerifier`` holds against the caller's expectations before any cryptography: the expectations a payload
/// fails, and whether it says it was signed on a developer's machine (which decides whether its one self-signed
/// certificate may be trusted as itself, on opt-in).
struct PayloadClaims: Sendable {
    /// The caller's expectations (bundle id, app Apple ID, environment) the payload fails, in that order.
    let expectationFailures: [JWSVerificationFailure]
    /// Whether the payload names an environment signed on a developer's machine (`Xcode`, `LocalTesting`).
    let isLocal: Bool

    /// By the payload's kind: a kind that names a bundle id must carry the expected one, a kind that names the app's
    /// Apple ID must carry the expected one in Production, and every kind must come from the expected environment;
    /// a field the kind names but the payload lacks fails. A kind that never names a bundle id (renewal info) or an
    /// app Apple ID (transactions, renewal info) passes that expectation: what carries it checks it.
    init<Payload: AppStoreSignedPayload>(_ payload: Payload, policy: JWSVerificationPolicy) {
        var failures: [JWSVerificationFailure] = []
        if let expected = policy.bundleIdentifier, Payload.namesBundleIdentifier,
            !(payload.bundleIdentifier?.utf8.elementsEqual(expected.utf8) ?? false)
        {
            failures.append(.bundleIDMismatch)
        }
        if let expected = policy.appAppleID, Payload.namesAppAppleID, payload.environment == .production,
            payload.appAppleID != expected
        {
            failures.append(.appAppleIDMismatch)
        }
        if let expected = policy.environment, payload.environment != expected {
            failures.append(.environmentMismatch)
        }
        self.expectationFailures = failures
        self.isLocal = payload.environment?.isLocal ?? false
    }

    /// A payload of no single kind: each expectation is checked on the field that carries it when the payload holds
    /// that field, by the rule of the kinds that carry it — `bundleId`; `appAppleId` in Production; `environment`
    /// and `receiptType`, each one present — and passes when it does not. It is local when any environment it names
    /// is, so a payload that also claims Xcode is never trusted as Apple-signed Production data without the opt-in.
    init(unknown payload: UnknownKindPayload, policy: JWSVerificationPolicy) {
        var failures: [JWSVerificationFailure] = []
        let environments = payload.namedEnvironments
        if let expected = policy.bundleIdentifier, let named = payload.bundleIdentifier,
            !named.utf8.elementsEqual(expected.utf8)
        {
            failures.append(.bundleIDMismatch)
        }
        if let expected = policy.appAppleID, let named = payload.appAppleID, environments.contains(.production),
            named != expected
        {
            failures.append(.appAppleIDMismatch)
        }
        if let expected = policy.environment, environments.contains(where: { $0 != expected }) {
            failures.append(.environmentMismatch)
        }
        self.expectationFailures = failures
        self.isLocal = environments.contains(where: \.isLocal)
    }
}
