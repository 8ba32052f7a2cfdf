public import _ReceiptKitShared

/// An error from creating, saving or loading test authorities and minted receipts.
///
/// Equality compares ``code`` only.
public struct MintingError: CodedError {
    public let code: Code, reason: String

    init(_ code: Code, _ reason: String) { (self.code, self.reason) = (code, reason) }

    /// The kind of a ``MintingError``.
    public struct Code: ErrorCode {
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// A file of a saved authority is missing or cannot be read.
        public static let unreadableFile = Code("unreadable_file")
        /// A file of a saved authority does not hold the certificate or key it should.
        public static let malformedAuthority = Code("malformed_authority")
        /// A purchase spec is not `product_id[,transaction_id[,quantity]]`.
        public static let malformedPurchaseSpec = Code("malformed_purchase_spec")
        /// A file cannot be written.
        public static let unwritableFile = Code("unwritable_file")
    }
}
