import AppStoreJWS
import AppStoreServerAPI

/// The JSON `receiptkit api --json` prints where an answer's own encoding is not Apple's shape: a notification with
/// each signed value in it (`signedPayload`, `data.signedTransactionInfo`, `data.signedRenewalInfo`,
/// `appData.signedAppTransactionInfo`) replaced by its verified payload.
enum APIJSON {
    /// `{"signedPayload":{…},"sendAttempts":[…]}`.
    static func item(_ item: NotificationHistoryItem<VerifiedNotification>) -> JSONValue {
        var members: [String: JSONValue] = [
            "sendAttempts": .array(item.sendAttempts.map(Self.attempt))
        ]
        if let notification = item.notification { members["signedPayload"] = Self.notification(notification) }
        return .object(members)
    }

    /// The notification's fields with the signed data nested in it replaced by the verified payloads.
    static func notification(_ notification: VerifiedNotification) -> JSONValue {
        var fields = notification.payload.fields
        if case .object(var data)? = fields["data"] {
            if let transaction = notification.transaction {
                data["signedTransactionInfo"] = .object(transaction.fields)
            }
            if let renewal = notification.renewalInfo { data["signedRenewalInfo"] = .object(renewal.fields) }
            fields["data"] = .object(data)
        }
        if case .object(var appData)? = fields["appData"], let appTransaction = notification.appTransaction {
            appData["signedAppTransactionInfo"] = .object(appTransaction.fields)
            fields["appData"] = .object(appData)
        }
        return .object(fields)
    }

    /// `{"attemptDate":…,"sendAttemptResult":…}`.
    static func attempt(_ attempt: SendAttempt) -> JSONValue {
        var members: [String: JSONValue] = [:]
        if let date = attempt.attemptDate { members["attemptDate"] = .number(date.number) }
        if let result = attempt.sendAttemptResult { members["sendAttemptResult"] = .string(result.rawValue) }
        return .object(members)
    }
}
