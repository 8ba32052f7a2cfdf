public import AppStoreJWS

/// A server notification from the App Store Server API (notification history, test notification status), verified
/// with the signed data nested in it.
public struct VerifiedNotification: Sendable, Hashable, Codable {
    /// The notification (`signedPayload`).
    public var payload: NotificationPayload
    /// `data.signedTransactionInfo`, verified.
    public var transaction: JWSTransactionPayload?
    /// `data.signedRenewalInfo`, verified.
    public var renewalInfo: JWSRenewalInfoPayload?
    /// `appData.signedAppTransactionInfo`, verified.
    public var appTransaction: AppTransactionPayload?

    public init(
        payload: NotificationPayload,
        transaction: JWSTransactionPayload? = nil,
        renewalInfo: JWSRenewalInfoPayload? = nil,
        appTransaction: AppTransactionPayload? = nil
    ) {
        self.payload = payload
        self.transaction = transaction
        self.renewalInfo = renewalInfo
        self.appTransaction = appTransaction
    }
}
