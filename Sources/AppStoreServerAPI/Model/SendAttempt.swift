public import AppStoreJWS

/// One attempt to send a notification to your server (`SendAttemptItem`).
public struct SendAttempt: Sendable, Hashable, Codable {
    /// When (`attemptDate`).
    public var attemptDate: AppStoreTimestamp?
    /// What happened (`sendAttemptResult`).
    public var sendAttemptResult: SendAttemptResult?

    public init(attemptDate: AppStoreTimestamp? = nil, sendAttemptResult: SendAttemptResult? = nil) {
        self.attemptDate = attemptDate
        self.sendAttemptResult = sendAttemptResult
    }
}
