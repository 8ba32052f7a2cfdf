public import _ReceiptKitShared

/// An error thrown when bytes handed to AppStoreJWS are not a well-formed App Store signed payload.
///
/// A JWS that decodes but fails a check (an unknown algorithm, a signature that does not verify, a chain to another
/// root, another app's bundle id) is not an error: it is a ``JWSVerificationResult`` listing
/// ``JWSVerificationFailure`` codes. `JWSError` is reserved for input that is not a compact JWS with a JSON header
/// and payload at all: wrong number of parts, bad base64url, bad JSON, a documented field of the wrong type, a
/// certificate in `x5c` that does not parse, or input over the size limit.
///
/// Two errors are equal when their ``code`` is equal, so tests and callers can match on the code alone.
public struct JWSError: CodedError {
    public let code: Code, reason: String

    init(_ code: Code, _ reason: String) { (self.code, self.reason) = (code, reason) }

    /// The kind of a ``JWSError``. New codes may be added in minor releases, so switch with a `default`.
    public struct Code: ErrorCode {
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The input is longer than ``JWSDecodingConfiguration/maximumLength``.
        public static let inputTooLarge = Code("input_too_large")
        /// Not three base64url parts separated by dots, or a part is not base64url (RFC 7515 §2, no padding).
        public static let malformedJWS = Code("malformed_jws")
        /// The header or the payload is not a JSON object (RFC 8259), has a duplicate member name, or nests deeper
        /// than ``JWSDecodingConfiguration/maximumDepth``.
        public static let malformedJSON = Code("malformed_json")
        /// A header parameter this profile reads has the wrong type (`alg` not a string, `x5c` not an array of
        /// base64 strings).
        public static let malformedHeader = Code("malformed_header")
        /// A documented payload field has the wrong JSON type (a date that is not a number, say).
        public static let malformedPayload = Code("malformed_payload")
        /// Once thrown when no payload kind was given and the payload's fields named none, or several. Such a payload
        /// is now verified as ``AppStoreSignedDataKind/unknown``: a well-formed JWS is never an error for its kind.
        @available(
            *, deprecated, message: "never thrown: a payload whose fields name no single kind is AppStoreSignedDataKind.unknown"
        )
        public static let unknownPayloadKind = Code("unknown_payload_kind")
        /// A certificate in `x5c` does not parse, or there are more than ``JWSDecodingConfiguration/maximumCertificateCount``.
        public static let malformedCertificate = Code("malformed_certificate")
    }
}
