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
        switch BearerTokenVerifier(keys: Array(keys.values)).check(authorization, now: now) {
        case .refused(let reason):
            return .refused(reason)
        case .accepted(let keyID, let bundleIdentifier):
            guard let key = keys[keyID], let appAppleID = apps[bundleIdentifier] else { return .refused("bundle") }
            return .accepted(SimulatedCaller(key: key, bundleIdentifier: bundleIdentifier, appAppleID: appAppleID))
        }
    }
}
