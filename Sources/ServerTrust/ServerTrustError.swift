public import _ReceiptKitShared

/// An error in what a caller configured or supplied: an unparseable certificate or pin, or a policy that breaks a
/// rule (too few pins). Evaluating a server's chain never throws; it returns a ``ServerTrustResult``.
///
/// Equality compares ``code`` only.
public struct ServerTrustError: CodedError {
    public let code: Code, reason: String

    init(_ code: Code, _ reason: String) { (self.code, self.reason) = (code, reason) }

    /// The kind of a ``ServerTrustError``.
    public struct Code: ErrorCode {
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// A certificate (chain, anchor or pinned certificate) does not parse as DER or PEM.
        public static let malformedCertificate = Code("malformed_certificate")
        /// A pin is not `sha256/<base64>` (or sha384/sha512), nor hex of a digest's length.
        public static let malformedPin = Code("malformed_pin")
        /// A pinning policy has fewer than two pins and the backup-pin rule was not waived.
        public static let missingBackupPin = Code("missing_backup_pin")
        /// A policy names pins its mode would not use (pins with mode `none`, certificates with `publicKey`, keys
        /// with `certificate`): a pin the caller wrote is never silently ignored.
        public static let unusedPins = Code("unused_pins")
        /// A host pattern is not `host`, `*.domain` or `**.domain`.
        public static let malformedHostPattern = Code("malformed_host_pattern")
    }
}
