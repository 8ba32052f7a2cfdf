import AppStoreJWS

/// The fields of an answer that Apple does not sign — `bundleId`, `environment`, `appAppleId`, `status`,
/// `originalTransactionId` next to signed values, `hasMore`, `revision`, `paginationToken` — are only as trustworthy
/// as the connection that carried them. Where a signed value says the same thing, the two must agree; where a top-level
/// field names the app or the environment, it must name the client's. Otherwise the answer is
/// ``AppStoreServerAPIError/Code/malformedResponse``.
extension AppStoreServerAPIClient {
    /// A present top-level `bundleId` and `environment` must be the configuration's, and so must a present
    /// `appAppleId` in Production when the configuration names one.
    func checkApp(
        bundleIdentifier: String?,
        appAppleID: Int64?,
        environment: AppStoreEnvironment?,
        in answer: String
    ) throws(AppStoreServerAPIError) {
        if let bundleIdentifier, bundleIdentifier != self.configuration.bundleIdentifier {
            throw AppStoreServerAPIError(
                .malformedResponse,
                "\(answer) names bundleId \(bundleIdentifier), not \(self.configuration.bundleIdentifier)"
            )
        }
        if let environment, environment != self.configuration.environment {
            throw AppStoreServerAPIError(
                .malformedResponse,
                "\(answer) names environment \(environment), not \(self.configuration.environment)"
            )
        }
        if let appAppleID, let expected = self.configuration.appAppleID, self.configuration.environment == .production,
            appAppleID != expected
        {
            throw AppStoreServerAPIError(.malformedResponse, "\(answer) names appAppleId \(appAppleID), not \(expected)")
        }
    }

    /// The original transaction id of a `lastTransactions` item: the unsigned `originalTransactionId` and those of the
    /// verified transaction and renewal info, each when present, must be one id.
    static func originalTransactionID(
        _ unsigned: String?,
        transaction: JWSTransactionPayload?,
        renewalInfo: JWSRenewalInfoPayload?
    ) throws(AppStoreServerAPIError) -> String? {
        let named = [unsigned, transaction?.originalTransactionID, renewalInfo?.originalTransactionID].compactMap { $0 }
        guard let first = named.first else { return nil }
        guard named.allSatisfy({ $0 == first }) else {
            throw AppStoreServerAPIError(
                .malformedResponse,
                "a lastTransactions item's originalTransactionId does not match its signed transaction or renewal info"
            )
        }
        return first
    }
}
