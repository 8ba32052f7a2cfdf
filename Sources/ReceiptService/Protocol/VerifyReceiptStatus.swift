/// verifyReceipt's `status`: 0 for a valid receipt, otherwise why not. Every verdict is sent with HTTP 200.
public struct VerifyReceiptStatus: Sendable, Hashable, CustomStringConvertible {
    /// The numeric status Apple defined.
    public let code: Int

    init(_ code: Int) { self.code = code }

    public var description: String { String(self.code) }

    /// The receipt is valid.
    public static let valid = VerifyReceiptStatus(0)
    /// The request body is not a JSON object, `receipt-data` is missing, empty, not a string or not base64, or the
    /// bytes are not a receipt.
    public static let malformed = VerifyReceiptStatus(21002)
    /// The receipt could not be authenticated: signature, chain or marker failure, an Xcode receipt the service
    /// does not allow, or another failed check (``VerifyReceiptAnswer/reasons`` names it).
    public static let notAuthenticated = VerifyReceiptStatus(21003)
    /// A shared secret is configured for the receipt's app and `password` does not match it.
    public static let sharedSecretMismatch = VerifyReceiptStatus(21004)
    /// A sandbox (or Xcode) receipt was sent to the production endpoint.
    public static let sandboxReceiptOnProduction = VerifyReceiptStatus(21007)
    /// A production receipt was sent to the sandbox endpoint.
    public static let productionReceiptOnSandbox = VerifyReceiptStatus(21008)
    /// Internal error; `is-retryable` says whether the same request may succeed later (e.g. database down).
    public static let internalError = VerifyReceiptStatus(21009)
    /// The receipt's app is not in the service's allow list.
    public static let bundleNotAllowed = VerifyReceiptStatus(21010)

    /// Every status the service answers with.
    static let all: [VerifyReceiptStatus] = [
        .valid, .malformed, .notAuthenticated, .sharedSecretMismatch, .sandboxReceiptOnProduction,
        .productionReceiptOnSandbox, .internalError, .bundleNotAllowed,
    ]
}
