/// The verdict on an App Store Server Notification V2 and on the signed data nested in it.
public struct NotificationVerificationResult: Sendable {
    /// The notification itself.
    public let notification: JWSVerificationResult<NotificationPayload>
    /// `data.signedTransactionInfo`, verified with the same policy, when present.
    public let transaction: JWSVerificationResult<JWSTransactionPayload>?
    /// `data.signedRenewalInfo`, verified with the same policy, when present.
    public let renewalInfo: JWSVerificationResult<JWSRenewalInfoPayload>?
    /// `appData.signedAppTransactionInfo`, verified with the same policy, when present.
    public let appTransaction: JWSVerificationResult<AppTransactionPayload>?

    /// Whether the notification and everything nested in it verified.
    public var isValid: Bool {
        self.notification.isValid && (self.transaction?.isValid ?? true) && (self.renewalInfo?.isValid ?? true)
            && (self.appTransaction?.isValid ?? true)
    }

    /// Whether the notification failed only because a revocation check could not be made
    /// (`revocation_check_unavailable`, here or in nested data): ask again later, or let Apple retry.
    public var isRetryable: Bool { JWSVerdict(self).isRetryable }
}
