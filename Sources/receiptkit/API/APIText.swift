import AppStoreJWS
import AppStoreServerAPI
import ReceiptKit

/// The readable form of App Store Server API answers that `receiptkit api` prints without `--json`: one line per
/// transaction, renewal info or notification, dates in RFC 3339.
enum APIText {
    /// `<transactionId> original <originalTransactionId> <productId> purchased <date>[ expires <date>]
    /// [ revoked <date> reason <n>]`, `-` for what the payload lacks.
    static func transaction(_ payload: JWSTransactionPayload) -> String {
        var text = "\(payload.transactionID ?? "-") original \(payload.originalTransactionID ?? "-")"
        text += " \(payload.productID ?? "-") purchased \(Self.date(payload.purchaseDate))"
        if let expires = payload.expiresDate { text += " expires \(Self.date(expires))" }
        if let revoked = payload.revocationDate {
            text += " revoked \(Self.date(revoked))"
            if let reason = payload.revocationReason { text += " reason \(reason)" }
        }
        return text
    }

    /// `app transaction <appTransactionId> <bundleId> version <applicationVersion> original <originalApplicationVersion>
    /// purchased <originalPurchaseDate> <originalPlatform> <receiptType>`, `-` for what the payload lacks.
    static func appTransaction(_ payload: AppTransactionPayload) -> String {
        var text = "app transaction \(payload.appTransactionID ?? "-") \(payload.bundleIdentifier ?? "-")"
        text += " version \(payload.applicationVersion ?? "-") original \(payload.originalApplicationVersion ?? "-")"
        text += " purchased \(Self.date(payload.originalPurchaseDate)) \(payload.originalPlatform ?? "-")"
        text += " \(payload.environment?.rawValue ?? "-")"
        return text
    }

    /// `renewal <originalTransactionId> auto-renew on|off <autoRenewProductId>[ renews <date>][ expiration intent
    /// <n>][ billing retry][ grace until <date>]`.
    static func renewal(_ payload: JWSRenewalInfoPayload) -> String {
        var text = "renewal \(payload.originalTransactionID ?? "-")"
        switch payload.autoRenewStatus {
        case .on?: text += " auto-renew on"
        case .off?: text += " auto-renew off"
        default: text += " auto-renew -"
        }
        text += " \(payload.autoRenewProductID ?? "-")"
        if let renewal = payload.renewalDate { text += " renews \(Self.date(renewal))" }
        if let intent = payload.expirationIntent { text += " expiration intent \(intent)" }
        if payload.isInBillingRetryPeriod == true { text += " billing retry" }
        if let grace = payload.gracePeriodExpiresDate { text += " grace until \(Self.date(grace))" }
        return text
    }

    /// A subscription's `status` with its name: `1 active`, `5 revoked`.
    static func status(_ status: SubscriptionStatus?) -> String {
        guard let status else { return "-" }
        let names: [SubscriptionStatus: String] = [
            .active: "active", .expired: "expired", .billingRetry: "billing retry",
            .billingGracePeriod: "billing grace period", .revoked: "revoked",
        ]
        return names[status].map { "\(status.rawValue) \($0)" } ?? "\(status.rawValue)"
    }

    /// `<signedDate> <notificationType>[/<subtype>] <notificationUUID>[ transaction <id>] sent <result> <date>, …`.
    static func notification(_ item: NotificationHistoryItem<VerifiedNotification>) -> String {
        var text: String
        if let notification = item.notification {
            let payload = notification.payload
            let kind = [payload.notificationType?.rawValue, payload.subtype?.rawValue].compactMap { $0 }.joined(separator: "/")
            text = "\(Self.date(payload.signedDate)) \(kind.isEmpty ? "-" : kind) \(payload.notificationUUID ?? "-")"
            if let transaction = notification.transaction?.transactionID { text += " transaction \(transaction)" }
        } else {
            text = "- (no signed payload)"
        }
        if !item.sendAttempts.isEmpty {
            let attempts = item.sendAttempts.map {
                "\($0.sendAttemptResult?.rawValue ?? "-") \(Self.date($0.attemptDate))"
            }
            text += " sent " + attempts.joined(separator: ", ")
        }
        return text
    }

    /// The instant in RFC 3339 (UTC), or `-`.
    static func date(_ timestamp: AppStoreTimestamp?) -> String {
        timestamp.flatMap { RFC3339.string($0.date) } ?? "-"
    }
}
