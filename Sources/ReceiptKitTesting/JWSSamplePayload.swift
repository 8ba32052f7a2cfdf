public import AppStoreJWS
public import Foundation

/// App Store–shaped payloads for ``JWSMinter``: the fields Apple documents, with plausible values, so minted data
/// looks like what a backend receives. Dates are whole milliseconds as the App Store writes them.
public enum JWSSamplePayload {
    /// A signed transaction (`JWSTransactionDecodedPayload`). Subscriptions expire 30 days after purchase.
    public static func transaction(
        bundleIdentifier: String,
        productID: String,
        transactionID: String,
        originalTransactionID: String? = nil,
        type: TransactionType = .autoRenewableSubscription,
        environment: AppStoreEnvironment = .production,
        purchaseDate: Date,
        signedDate: Date
    ) -> [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "transactionId": .string(transactionID),
            "originalTransactionId": .string(originalTransactionID ?? transactionID),
            "bundleId": .string(bundleIdentifier),
            "productId": .string(productID),
            "purchaseDate": Self.timestamp(purchaseDate),
            "originalPurchaseDate": Self.timestamp(purchaseDate),
            "quantity": .number(JSONNumber(1)),
            "type": .string(type.rawValue),
            "inAppOwnershipType": .string(InAppOwnershipType.purchased.rawValue),
            "signedDate": Self.timestamp(signedDate),
            "environment": .string(environment.rawValue),
            "transactionReason": .string(TransactionReason.purchase.rawValue),
            "storefront": .string("USA"),
            "storefrontId": .string("143441"),
            "price": .number(JSONNumber(990)),
            "currency": .string("USD"),
        ]
        if type == .autoRenewableSubscription {
            fields["expiresDate"] = Self.timestamp(purchaseDate.addingTimeInterval(30 * 86_400))
            fields["subscriptionGroupIdentifier"] = .string("21000001")
            fields["webOrderLineItemId"] = .string(transactionID)
        }
        return fields
    }

    /// Renewal info (`JWSRenewalInfoDecodedPayload`) for a subscription that renews into the same product.
    public static func renewalInfo(
        productID: String,
        originalTransactionID: String,
        environment: AppStoreEnvironment = .production,
        autoRenewStatus: AutoRenewStatus = .on,
        signedDate: Date
    ) -> [String: JSONValue] {
        [
            "originalTransactionId": .string(originalTransactionID),
            "productId": .string(productID),
            "autoRenewProductId": .string(productID),
            "autoRenewStatus": .number(JSONNumber(autoRenewStatus.rawValue)),
            "signedDate": Self.timestamp(signedDate),
            "environment": .string(environment.rawValue),
            "recentSubscriptionStartDate": Self.timestamp(signedDate),
            "renewalDate": Self.timestamp(signedDate.addingTimeInterval(30 * 86_400)),
        ]
    }

    /// An `AppTransaction` (`AppTransaction.jwsRepresentation`).
    public static func appTransaction(
        bundleIdentifier: String,
        appAppleID: Int64,
        applicationVersion: String = "1",
        environment: AppStoreEnvironment = .production,
        signedDate: Date
    ) -> [String: JSONValue] {
        [
            "bundleId": .string(bundleIdentifier),
            "appAppleId": .number(JSONNumber(appAppleID)),
            "applicationVersion": .string(applicationVersion),
            "originalApplicationVersion": .string(applicationVersion),
            "receiptType": .string(environment.rawValue),
            "receiptCreationDate": Self.timestamp(signedDate),
            "originalPurchaseDate": Self.timestamp(signedDate),
            "requestDate": Self.timestamp(signedDate),
            "signedDate": Self.timestamp(signedDate),
            "originalPlatform": .string("iOS"),
            "appTransactionId": .string("70\(appAppleID)"),
        ]
    }

    /// A server notification V2 (`ResponseBodyV2DecodedPayload`) with its `data`.
    /// - Parameters:
    ///   - type: `notificationType` (`SUBSCRIBED`, `DID_RENEW`, `REFUND`, `TEST`, …).
    ///   - subtype: `subtype`, when the type has one.
    ///   - notificationUUID: The notification's unique identifier (what replay protection keys on).
    ///   - bundleIdentifier: `data.bundleId`.
    ///   - appAppleID: `data.appAppleId` (Apple sends it in Production).
    ///   - environment: `data.environment`.
    ///   - signedDate: `signedDate`.
    ///   - signedTransactionInfo: A compact JWS of a transaction, when the notification carries one.
    ///   - signedRenewalInfo: A compact JWS of renewal info, when the notification carries one.
    public static func notification(
        type: NotificationType,
        subtype: NotificationSubtype? = nil,
        notificationUUID: String,
        bundleIdentifier: String,
        appAppleID: Int64? = nil,
        environment: AppStoreEnvironment = .production,
        signedDate: Date,
        signedTransactionInfo: String? = nil,
        signedRenewalInfo: String? = nil
    ) -> [String: JSONValue] {
        var data: [String: JSONValue] = [
            "bundleId": .string(bundleIdentifier),
            "bundleVersion": .string("1"),
            "environment": .string(environment.rawValue),
        ]
        if let appAppleID { data["appAppleId"] = .number(JSONNumber(appAppleID)) }
        if let signedTransactionInfo { data["signedTransactionInfo"] = .string(signedTransactionInfo) }
        if let signedRenewalInfo { data["signedRenewalInfo"] = .string(signedRenewalInfo) }
        if signedTransactionInfo != nil { data["status"] = .number(JSONNumber(1)) }
        var fields: [String: JSONValue] = [
            "notificationType": .string(type.rawValue),
            "notificationUUID": .string(notificationUUID),
            "version": .string("2.0"),
            "signedDate": Self.timestamp(signedDate),
            "data": .object(data),
        ]
        if let subtype { fields["subtype"] = .string(subtype.rawValue) }
        return fields
    }

    /// `date` as the App Store writes timestamps: whole milliseconds since 1970.
    public static func timestamp(_ date: Date) -> JSONValue {
        .number(AppStoreTimestamp(date).number)
    }
}
