public import _ReceiptKitShared

/// An error thrown when bytes handed to ReceiptKit cannot be decoded.
///
/// A receipt that decodes but fails a check is not an error: it is a ``ReceiptValidationResult`` listing
/// ``ReceiptValidationFailure`` codes. `ReceiptError` is reserved for input that is not a receipt at all (truncated,
/// hostile, too large, not CMS). Files that cannot be read are ``ReceiptFileError``s.
///
/// Two errors are equal when their ``code`` is equal, so tests and callers can match on the code alone:
///
/// ```swift
/// do {
///     _ = try AppReceipt(berEncoded: bytes)
/// } catch {
///     // Typed throws: `error` is a ReceiptError.
///     if error.code == .malformedContainer { … }
/// }
/// ```
public struct ReceiptError: CodedError {
    /// The stable, machine-readable kind of the error.
    public let code: Code
    /// A human-readable explanation. Never branch on this text.
    public let reason: String
    /// Where in ReceiptKit the error was raised, for diagnostics.
    public let file: String
    /// The line in ``file`` where the error was raised.
    public let line: UInt

    @usableFromInline
    init(_ code: Code, _ reason: String, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    /// The kind of a ``ReceiptError``. New codes may be added in minor releases, so switch with a `default`.
    public struct Code: ErrorCode {
        /// The snake_case identifier used in JSON output and logs, e.g. `malformed_payload`.
        public let rawValue: String

        init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        /// The input is larger than ``ReceiptDecodingConfiguration/maximumInputSize``.
        public static let inputTooLarge = Code("input_too_large")
        /// The input was declared as base64 but is not valid base64.
        public static let invalidBase64 = Code("invalid_base64")
        /// The PKCS#7 / CMS container is not a well-formed `SignedData` structure.
        public static let malformedContainer = Code("malformed_container")
        /// The signed content is not a well-formed receipt payload (a SET of receipt attributes).
        public static let malformedPayload = Code("malformed_payload")
        /// A certificate embedded in the receipt, or supplied as an anchor, cannot be parsed.
        public static let malformedCertificate = Code("malformed_certificate")
        /// The receipt has more in-app purchases than ``ReceiptDecodingConfiguration/maximumPurchaseCount``.
        public static let tooManyPurchases = Code("too_many_purchases")
        /// The receipt has more attributes than ``ReceiptDecodingConfiguration/maximumAttributeCount``.
        public static let tooManyAttributes = Code("too_many_attributes")
        /// A device identifier string is neither a UUID, a MAC address, `hex:` nor `base64:` bytes.
        public static let invalidDeviceIdentifier = Code("invalid_device_identifier")
    }
}
