import AppStoreServerAPI
import struct Foundation.Date

/// The App Store Server API's check of `Authorization: Bearer <JWT>` (``BearerTokenVerifier``), and that the app the
/// token names (`bid`) is one the store knows.
enum BearerTokenCheck {
    enum Outcome: Sendable {
        case accepted(SimulatedCaller)
        /// Refused, with the reason ``SimulatedRequest/tokenRefusal`` reports.
        case refused(String)
    }

    static func check(
        _ authorization: String?, keys: [String: SimulatedAPIKey], apps: [String: Int64], now: Date
    ) -> Outcome {
        let verifier = BearerTokenVerifier(keys: keys.values.map {
            BearerTokenVerifier.Key(
                keyID: $0.keyID, issuerID: $0.issuerID, publicKey: $0.publicKey, bundleIdentifiers: $0.bundleIdentifiers)
        })
        switch verifier.check(authorization, now: now) {
        case .refused(let reason):
            return .refused(reason)
        case .accepted(let keyID, let bundleIdentifier):
            guard let key = keys[keyID], let appAppleID = apps[bundleIdentifier] else { return .refused("bundle") }
            return .accepted(SimulatedCaller(key: key, bundleIdentifier: bundleIdentifier, appAppleID: appAppleID))
        }
    }
}
