import ReceiptKitTesting
import AppStoreJWS
import struct Foundation.UUID
import NIOConcurrencyHelpers

extension AppStoreServerSimulator {
    /// How far back Get Notification History may start: Apple keeps 180 days.
    static let notificationHistoryDays: Int64 = 180

    /// What a Get Notification History body asks for.
    struct NotificationQuery {
        var start: Int64
        var end: Int64
        var type: String?
        var subtype: String?
        var transactionID: String?
        var onlyFailures: Bool
    }

    /// The body read, or refused with Apple's error.
    func notificationQuery(_ body: [UInt8]) -> SimulatorChecked<NotificationQuery> {
        guard let request = (try? JSONValue(jsonEncoded: body))?.objectValue else {
            return .refused(.generalBadRequest)
        }
        guard let start = request.integer("startDate"), start >= 0 else { return .refused(.invalidStartDate) }
        guard let end = request.integer("endDate"), end >= 0 else { return .refused(.invalidEndDate) }
        guard start < end else { return .refused(.startDateAfterEndDate) }
        let now = AppStoreTimestamp(self.now()).number.int64 ?? 0
        guard start >= now - Self.notificationHistoryDays * 86_400_000 else { return .refused(.startDateTooFarInPast) }
        let query = NotificationQuery(
            start: start, end: end, type: request.string("notificationType"),
            subtype: request.string("notificationSubtype"), transactionID: request.string("transactionId"),
            onlyFailures: request["onlyFailures"]?.boolValue ?? false)
        guard query.transactionID == nil || query.type == nil else { return .refused(.multipleFiltersSupplied) }
        return .accepted(query)
    }

    /// Get Notification History: the app's notifications whose first send attempt falls in `[startDate, endDate)`,
    /// oldest first, filtered, a page at a time (`paginationToken` only while `hasMore`).
    func notificationHistory(_ body: [UInt8], _ token: String?, _ caller: SimulatedCaller) -> SimulatorAnswer {
        let query: NotificationQuery
        switch self.notificationQuery(body) {
        case .accepted(let value): query = value
        case .refused(let error): return .error(error)
        }
        let offset: Int
        switch SimulatorPageToken.position(token, "notifications", refusal: .invalidPaginationToken) {
        case .accepted(let value): offset = value ?? 0
        case .refused(let error): return .error(error)
        }
        let (page, hasMore) = self.store.state.withLockedValue { state in
            let customer = query.transactionID.flatMap { state.transactions[$0]?.customer }
            let matching = state.notifications.filter { notification in
                self.admits(notification, query, caller, customer: customer, state: state)
            }.sorted { Self.firstAttempt($0) < Self.firstAttempt($1) }
            let page = Array(matching.dropFirst(offset).prefix(state.pageSize))
            return (page, matching.count > offset + page.count)
        }
        var history: [JSONValue] = []
        for notification in page {
            guard let jws = self.sign(notification.fields, keepsSignedDate: true) else {
                return .error(.generalInternal)
            }
            history.append(.object(["signedPayload": .string(jws), "sendAttempts": Self.attempts(notification)]))
        }
        var members: [String: JSONValue] = ["notificationHistory": .array(history), "hasMore": .bool(hasMore)]
        if hasMore {
            members["paginationToken"] = .string(SimulatorPageToken.encode("notifications", offset + page.count))
        }
        return .json(members)
    }

    func admits(
        _ notification: SimulatedAppStore.StoredNotification, _ query: NotificationQuery, _ caller: SimulatedCaller,
        customer: String?, state: SimulatedAppStore.State
    ) -> Bool {
        let first = Self.firstAttempt(notification)
        guard first >= query.start, first < query.end else { return false }
        let data = notification.fields["data"]?.objectValue ?? notification.fields["summary"]?.objectValue ?? [:]
        if let bundle = data.string("bundleId"), bundle != caller.bundleIdentifier { return false }
        if let type = query.type, notification.fields.string("notificationType") != type { return false }
        if let subtype = query.subtype, notification.fields.string("subtype") != subtype { return false }
        if query.onlyFailures, notification.attempts.allSatisfy({ $0.result == "SUCCESS" }) { return false }
        if let wanted = query.transactionID {
            let nested = data.string("signedTransactionInfo").flatMap { try? CompactJWS(Array($0.utf8)) }?.payload
            let ids = [nested?.string("transactionId"), nested?.string("originalTransactionId")].compactMap { $0 }
            let nestedCustomer = ids.lazy.compactMap { state.transactions[$0]?.customer }.first
            guard ids.contains(wanted) || (customer != nil && nestedCustomer == customer) else { return false }
        }
        return true
    }

    static func firstAttempt(_ notification: SimulatedAppStore.StoredNotification) -> Int64 {
        notification.attempts.first.flatMap { AppStoreTimestamp($0.date).number.int64 } ?? 0
    }

    static func attempts(_ notification: SimulatedAppStore.StoredNotification) -> JSONValue {
        .array(
            notification.attempts.map { attempt in
                .object([
                    "attemptDate": .number(AppStoreTimestamp(attempt.date).number),
                    "sendAttemptResult": .string(attempt.result),
                ])
            })
    }

    /// Request a Test Notification: a `TEST` notification "sent" now (with
    /// ``SimulatedAppStore/testNotificationResult``), kept under a new token and added to the history.
    func requestTestNotification(_ caller: SimulatedCaller) -> SimulatorAnswer {
        let now = self.now()
        let token = UUID().uuidString.lowercased()
        let fields = JWSSamplePayload.notification(
            type: .test, notificationUUID: UUID().uuidString.lowercased(), bundleIdentifier: caller.bundleIdentifier,
            appAppleID: self.environment == .production ? caller.appAppleID : nil, environment: self.environment,
            signedDate: now)
        self.store.state.withLockedValue { state in
            let notification = SimulatedAppStore.StoredNotification(
                fields: fields, attempts: [SimulatedSendAttempt(date: now, result: state.testNotificationResult)])
            state.testNotifications[token] = notification
            state.notifications.append(notification)
        }
        return .json(["testNotificationToken": .string(token)])
    }

    /// Get Test Notification Status: the notification and its send attempts, or Apple's 404.
    func testNotificationStatus(_ token: String?, _ caller: SimulatedCaller) -> SimulatorAnswer {
        let notification = self.store.state.withLockedValue { state in token.flatMap { state.testNotifications[$0] } }
        guard let notification,
            notification.fields["data"]?.objectValue?.string("bundleId") == caller.bundleIdentifier
        else { return .error(.testNotificationNotFound) }
        guard let jws = self.sign(notification.fields, keepsSignedDate: true) else { return .error(.generalInternal) }
        return .json(["signedPayload": .string(jws), "sendAttempts": Self.attempts(notification)])
    }
}
