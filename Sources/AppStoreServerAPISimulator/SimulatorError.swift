public import _ReceiptKitShared

/// An error from the App Store Server API simulator: a payload it cannot file, or a server that did not start.
///
/// Equality compares ``code`` only.
public struct SimulatorError: CodedError {
    public let code: Code, reason: String

    init(_ code: Code, _ reason: String) { (self.code, self.reason) = (code, reason) }

    /// The kind of a ``SimulatorError``.
    public struct Code: ErrorCode {
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// A payload lacks a field the store keys it by (`transactionId`, `originalTransactionId`).
        public static let incompletePayload = Code("incomplete_payload")
        /// The simulator could not listen on a loopback port.
        public static let notStarted = Code("simulator_not_started")
    }
}
