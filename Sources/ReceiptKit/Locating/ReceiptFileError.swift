public import _ReceiptKitShared

/// An error reading a file ReceiptKit was pointed at: a receipt, a certificate, an application bundle.
///
/// Kept apart from ``ReceiptError``, which says what is wrong with bytes that were read. Two errors are equal when
/// their ``code`` is equal.
public struct ReceiptFileError: CodedError {
    public let code: Code, reason: String

    package init(_ code: Code, _ reason: String) { (self.code, self.reason) = (code, reason) }

    /// The kind of a ``ReceiptFileError``. New codes may be added in minor releases, so switch with a `default`.
    public struct Code: ErrorCode {
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// A file could not be read: missing, unreadable, a directory, or larger than the limit.
        public static let unreadableFile = Code("unreadable_file")
        /// An application bundle's `Info.plist` is not a property list or lacks the keys ReceiptKit needs.
        public static let invalidBundle = Code("invalid_bundle")
    }
}
