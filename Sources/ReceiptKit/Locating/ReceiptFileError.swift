public import _ReceiptKitShared

/// An error reading a file ReceiptKit was pointed at: a receipt, a certificate, an application bundle.
///
/// Kept apart from ``ReceiptError``, which says what is wrong with bytes that were read. Two errors are equal when
/// their ``code`` is equal.
public struct ReceiptFileError: CodedError {
    /// The stable, machine-readable kind of the error.
    public let code: Code
    /// A human-readable explanation naming the file. Never branch on this text.
    public let reason: String

    package init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The kind of a ``ReceiptFileError``. New codes may be added in minor releases, so switch with a `default`.
    public struct Code: ErrorCode {
        /// The snake_case identifier used in JSON output and logs, e.g. `unreadable_file`.
        public let rawValue: String

        init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        /// A file could not be read: missing, unreadable, a directory, or larger than the limit.
        public static let unreadableFile = Code("unreadable_file")
        /// An application bundle's `Info.plist` is not a property list or lacks the keys ReceiptKit needs.
        public static let invalidBundle = Code("invalid_bundle")
    }
}
