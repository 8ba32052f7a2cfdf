/// A certificate that signed data carries, or that was supplied as an anchor, does not parse.
///
/// Each verifier reports it under its own error type and code (ReceiptKit's and AppStoreJWS's
/// `malformed_certificate`); ``reason`` says what was wrong, for people. Never branch on its text.
public struct MalformedCertificateError: Error, Sendable, CustomStringConvertible {
    /// A human-readable explanation.
    public let reason: String

    init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { self.reason }
}
