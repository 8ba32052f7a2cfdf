/// Standard Base64 (RFC 4648 §4, with padding), decoded strictly where Foundation's `Data(base64Encoded:)` is not:
/// on Linux it decodes `"QU=D"` to `[0x41, 0x03]` and `"===="` to `[0x00]`. Here `=` may only end the text (one or
/// two of them, completing its last group of four), the symbols are the standard alphabet's, and their count is a
/// multiple of four. ASCII whitespace anywhere is skipped when the caller allows it (clients send receipts broken
/// into lines).
///
/// Unused bits of the last symbol that are not zero (`"QR=="`) are accepted, as Foundation accepts them and clients
/// may have sent such text for years, but they make the text non-canonical: it is not the text
/// `Data.base64EncodedString()` writes for its bytes.
package enum Base64Decoder {
    /// The bytes `text` encodes and whether `text` is their canonical encoding (no whitespace, unused bits zero),
    /// or `nil` when `text` is not standard Base64.
    package static func decode(_ text: UnsafeBufferPointer<UInt8>, skippingWhitespace: Bool) -> (bytes: [UInt8], isCanonical: Bool)? {
        let (pad, space) = (Self.pad, Self.space)
        return Self.values.withUnsafeBufferPointer { values in
            var failed = false
            var isCanonical = true
            // Every complete group of four writes at most three bytes, and there are at most count / 4 groups.
            let capacity = text.count / 4 * 3
            let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { output, initialized in
                var group: UInt32 = 0
                var symbols = 0  // in the current group, `=` included
                var padding = 0  // `=` seen; once one is, only `=` (to the group's end) and whitespace may follow
                var written = 0
                for byte in text {
                    let value = values[Int(byte)]
                    if value < 64 {
                        guard padding == 0 else { failed = true; return }
                        group = group << 6 | UInt32(value)
                    } else if value == pad {
                        // `=` stands for the third or fourth symbol of the last group.
                        guard symbols >= 2, padding < 2 else { failed = true; return }
                        padding += 1
                        group <<= 6
                    } else if value == space, skippingWhitespace {
                        isCanonical = false
                        continue
                    } else {
                        failed = true
                        return
                    }
                    symbols += 1
                    guard symbols == 4 else { continue }
                    // A whole group: three bytes, less one per `=`.
                    let count = 3 - padding
                    guard written + count <= output.count else { failed = true; return }
                    output[written] = UInt8(truncatingIfNeeded: group >> 16)
                    if count > 1 { output[written + 1] = UInt8(truncatingIfNeeded: group >> 8) }
                    if count > 2 { output[written + 2] = UInt8(truncatingIfNeeded: group) }
                    // The bits `=` left unused: 4 of the second symbol, or 2 of the third.
                    if padding > 0, !Self.unusedBitsAreZero(group, padding: padding) { isCanonical = false }
                    written += count
                    symbols = 0
                    group = 0
                }
                // The text ends with a whole group (`=` counts), or there is nothing to decode.
                if symbols != 0 { failed = true }
                initialized = failed ? 0 : written
            }
            return failed ? nil : (bytes, isCanonical)
        }
    }

    /// Decodes `text` (see ``decode(_:skippingWhitespace:)-(UnsafeBufferPointer<UInt8>,_)``), keeping it as
    /// ``CanonicalBase64`` when it is canonical, for writing it again without encoding its bytes.
    package static func decode(_ text: String, skippingWhitespace: Bool) -> (bytes: [UInt8], canonical: CanonicalBase64?)? {
        var utf8 = text
        guard let (bytes, isCanonical) = utf8.withUTF8({ Self.decode($0, skippingWhitespace: skippingWhitespace) }) else {
            return nil
        }
        return (bytes, isCanonical ? CanonicalBase64(verified: text) : nil)
    }

    /// The bytes `text` encodes, whitespace not allowed, or `nil` when it is not standard Base64.
    package static func bytes(of text: String) -> [UInt8]? {
        Self.decode(text, skippingWhitespace: false)?.bytes
    }

    /// Whether the bits of the last group's last symbol that encode no byte are zero.
    private static func unusedBitsAreZero(_ group: UInt32, padding: Int) -> Bool {
        // The group is 24 bits, the first symbol's on top. Two `=`: 12 bits of symbols, the top 8 a byte, bits
        // 15–12 unused; one `=`: 18 bits, the top 16 bytes, bits 7–6 unused.
        padding == 2 ? group & 0xF000 == 0 : group & 0xC0 == 0
    }

    private static let pad: UInt8 = 0xFD
    private static let space: UInt8 = 0xFE
    private static let invalid: UInt8 = 0xFF

    /// Each byte's symbol value (0–63), or `pad`, `space` (ASCII whitespace) or `invalid`.
    private static let values: [UInt8] = {
        var values = [UInt8](repeating: invalid, count: 256)
        for (index, symbol) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            values[Int(symbol)] = UInt8(index)
        }
        values[Int(UInt8(ascii: "="))] = pad
        for byte: UInt8 in [0x20, 0x0A, 0x0D, 0x09, 0x0C, 0x0B] { values[Int(byte)] = space }
        return values
    }()
}
