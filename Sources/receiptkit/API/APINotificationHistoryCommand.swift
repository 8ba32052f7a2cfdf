import AppStoreJWS
import AppStoreServerAPI
import ArgumentParser
import Foundation
import ReceiptKit

/// `receiptkit api notification-history --start <RFC 3339> --end <RFC 3339>`: Get Notification History.
struct APINotificationHistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notification-history",
        abstract:
            "Get Notification History: the server notifications Apple sent in a window, every page, each verified.",
        discussion: """
            Apple keeps 180 days. Prints one line per notification: <signedDate> <type>[/<subtype>] \
            <notificationUUID> [transaction <id>] sent <result> <RFC 3339>, …. --json prints \
            {"notificationHistory":[{"signedPayload":{…},"sendAttempts":[…]}],"hasMore":false} with each signed \
            payload, and the transaction and renewal info in it, replaced by the verified payloads. Exit status as \
            `receiptkit api`.
            """
    )

    @OptionGroup var options: APIOptions

    @Option(help: "The window's start, an RFC 3339 time.")
    var start: String

    @Option(help: "The window's end, an RFC 3339 time.")
    var end: String

    @Option(name: .customLong("notification-type"), help: "Only this type (e.g. SUBSCRIBED).")
    var notificationType: String?

    @Option(name: .customLong("notification-subtype"), help: "Only this subtype, with --notification-type.")
    var notificationSubtype: String?

    @Option(name: .customLong("transaction-id"), help: "Only notifications about this customer's transactions.")
    var transactionID: String?

    @Flag(name: .customLong("only-failures"), help: "Only notifications that did not reach your server.")
    var onlyFailures = false

    func validate() throws {
        guard let start = RFC3339.date(self.start) else {
            throw ValidationError("--start takes an RFC 3339 time, not '\(self.start)'")
        }
        guard let end = RFC3339.date(self.end) else {
            throw ValidationError("--end takes an RFC 3339 time, not '\(self.end)'")
        }
        if end <= start { throw ValidationError("--end must be after --start") }
        if self.notificationSubtype != nil, self.notificationType == nil {
            throw ValidationError("--notification-subtype needs --notification-type")
        }
    }

    func run() async throws {
        let request = NotificationHistoryRequest(
            startDate: RFC3339.date(self.start) ?? Date(timeIntervalSince1970: 0),
            endDate: RFC3339.date(self.end) ?? Date(timeIntervalSince1970: 0),
            notificationType: self.notificationType,
            notificationSubtype: self.notificationSubtype,
            transactionID: self.transactionID,
            onlyFailures: self.onlyFailures ? true : nil
        )
        let history = try await self.options.call("api notification-history") { client throws(AppStoreServerAPIError) in
            try await client.notificationHistory(request)
        }
        if self.options.json {
            let object: JSONValue = .object([
                "hasMore": .bool(history.hasMore),
                "notificationHistory": .array(history.notificationHistory.map(APIJSON.item)),
            ])
            print(JSONOutput.line(object))
            return
        }
        for item in history.notificationHistory { print(APIText.notification(item)) }
    }
}
