public import struct Foundation.Date

/// One attempt of the App Store to deliver a notification, as Get Notification History and Get Test Notification
/// Status report it (`{"attemptDate":…,"sendAttemptResult":"SUCCESS"}`).
public struct SimulatedSendAttempt: Sendable, Hashable {
    /// When the App Store tried.
    public var date: Date
    /// Apple's `sendAttemptResult`: `SUCCESS`, `TIMED_OUT`, `NO_RESPONSE`, `UNSUCCESSFUL_HTTP_RESPONSE_CODE`, ….
    public var result: String

    public init(date: Date, result: String = "SUCCESS") {
        self.date = date
        self.result = result
    }
}
