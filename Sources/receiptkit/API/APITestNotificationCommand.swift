import AppStoreJWS
import AppStoreServerAPI
import ArgumentParser

/// `receiptkit api test-notification`: Request a Test Notification, then Get Test Notification Status.
struct APITestNotificationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test-notification",
        abstract: "Request a test notification to the app's notification URL, and ask what became of it.",
        discussion: """
            Prints `token <testNotificationToken>`, then the notification's line as Get Test Notification Status \
            reports it; while Apple has no status yet (errorCode 4040008) it prints `status not yet available`, and \
            `--token <token>` asks again later without requesting another. --json prints \
            {"testNotificationToken":…,"status":{"signedPayload":{…},"sendAttempts":[…]}} ("status" absent while \
            not available). Exit status as `receiptkit api`.
            """
    )

    @OptionGroup var options: APIOptions

    @Option(help: "Only ask the status of the test notification this token names.")
    var token: String?

    func validate() throws {
        if self.token?.isEmpty == true { throw ValidationError("--token must not be empty") }
    }

    func run() async throws {
        let given = self.token
        let (token, status) = try await self.options.call("api test-notification") {
            client throws(AppStoreServerAPIError) -> (String?, NotificationHistoryItem<VerifiedNotification>?) in
            var token = given
            if token == nil { token = try await client.requestTestNotification().testNotificationToken }
            guard let token else { return (nil, nil) }
            do throws(AppStoreServerAPIError) {
                return (token, try await client.testNotificationStatus(testNotificationToken: token))
            } catch let error where error.apiErrorCode == .testNotificationNotFound && given == nil {
                return (token, nil)
            }
        }
        guard let token else {
            let error = AppStoreServerAPIError(
                .malformedResponse, "the answer to Request a Test Notification has no testNotificationToken")
            throw APIFailure(error).reported(subject: "api test-notification", json: self.options.json)
        }
        if self.options.json {
            var members: [String: JSONValue] = [:]
            members["testNotificationToken"] = .string(token)
            if let status { members["status"] = APIJSON.item(status) }
            print(JSONOutput.line(JSONValue.object(members)))
            return
        }
        print("token \(token)")
        print(status.map(APIText.notification) ?? "status not yet available")
    }
}
