/// Text known to be the canonical standard Base64 of some bytes: exactly what `Data.base64EncodedString()` writes
/// for them, so only the Base64 alphabet and `=`, which ``JSONWriter`` writes as a string without an escaping pass.
///
/// Only ``Base64Decoder/decode(_:skippingWhitespace:)-(String,_)`` makes one, from text it has just decoded.
package struct CanonicalBase64: Sendable, Hashable {
    /// The text, as it was given.
    package let text: String

    init(verified text: String) {
        self.text = text
    }
}
