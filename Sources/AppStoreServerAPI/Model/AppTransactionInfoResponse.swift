/// The answer of Get App Transaction Info (`AppTransactionInfoResponse`), as sent: the signed app transaction
/// unverified.
public struct AppTransactionInfoResponse: Sendable, Hashable, Codable {
    /// The signed `AppTransaction` (`signedAppTransactionInfo`), not verified.
    public var signedAppTransactionInfo: String?

    public init(signedAppTransactionInfo: String? = nil) {
        self.signedAppTransactionInfo = signedAppTransactionInfo
    }
}
