public import struct Foundation.Date
import _ReceiptKitShared
import AppStoreJWS

/// The body of Get Notification History (`NotificationHistoryRequest`): a window of at most 180 days in the past,
/// and optional filters (Apple accepts one of `notificationType` and `transactionId`).
public struct NotificationHistoryRequest: Sendable, Hashable {
    /// The window's start (`startDate`, milliseconds).
    public var startDate: Date
    /// The window's end (`endDate`, milliseconds).
    public var endDate: Date
    /// Only this notification type (`notificationType`, e.g. `SUBSCRIBED`).
    public var notificationType: String?
    /// Only this subtype (`notificationSubtype`), with ``notificationType``.
    public var notificationSubtype: String?
    /// Only notifications about this customer's transactions (`transactionId`).
    public var transactionID: String?
    /// Only notifications that never reached your server (`onlyFailures`).
    public var onlyFailures: Bool?

    public init(
        startDate: Date,
        endDate: Date,
        notificationType: String? = nil,
        notificationSubtype: String? = nil,
        transactionID: String? = nil,
        onlyFailures: Bool? = nil
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.notificationType = notificationType
        self.notificationSubtype = notificationSubtype
        self.transactionID = transactionID
        self.onlyFailures = onlyFailures
    }

    /// The JSON body.
    /// - Throws: ``AppStoreServerAPIError/Code/invalidConfiguration`` when a date is out of range for milliseconds.
    func json() throws(AppStoreServerAPIError) -> JSONValue {
        guard let start = EpochMilliseconds.exactly(self.startDate),
            let end = EpochMilliseconds.exactly(self.endDate)
        else {
            throw AppStoreServerAPIError(.invalidConfiguration, "a notification history date is out of range")
        }
        var members: [String: JSONValue] = [
            "startDate": .number(JSONNumber(start)),
            "endDate": .number(JSONNumber(end)),
        ]
        if let notificationType { members["notificationType"] = .string(notificationType) }
        if let notificationSubtype { members["notificationSubtype"] = .string(notificationSubtype) }
        if let transactionID { members["transactionId"] = .string(transactionID) }
        if let onlyFailures { members["onlyFailures"] = .bool(onlyFailures) }
        return .object(members)
    }
}
