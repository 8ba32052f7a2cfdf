import ReceiptKit

/// Writes ASN.1 tag-length-value encodings for minted receipts: DER definite lengths, or BER indefinite lengths
/// for the Xcode style.
enum DERWriter {
    static func definite(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        DEREncoding.element(tag, content)
    }

    /// A constructed encoding with indefinite length, closed by an end-of-contents marker.
    static func indefinite(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        [tag, 0x80] + content + [0x00, 0x00]
    }

    static func integer(_ value: Int64) -> [UInt8] {
        var bytes: [UInt8] = []
        var v = value
        repeat {
            bytes.insert(UInt8(truncatingIfNeeded: v), at: 0)
            v >>= 8
        } while v != 0 && v != -1
        if value >= 0, let first = bytes.first, first & 0x80 != 0 { bytes.insert(0, at: 0) }
        if value < 0, let first = bytes.first, first & 0x80 == 0 { bytes.insert(0xFF, at: 0) }
        return Self.definite(0x02, bytes)
    }

    static func objectIdentifier(_ arcs: [UInt64]) -> [UInt8] {
        var content: [UInt8] = []
        func base128(_ value: UInt64) {
            var chunk: [UInt8] = [UInt8(value & 0x7F)]
            var v = value >> 7
            while v > 0 {
                chunk.insert(UInt8(v & 0x7F) | 0x80, at: 0)
                v >>= 7
            }
            content += chunk
        }
        base128(arcs[0] * 40 + arcs[1])
        for arc in arcs.dropFirst(2) { base128(arc) }
        return Self.definite(0x06, content)
    }

    static func algorithm(_ arcs: [UInt64]) -> [UInt8] {
        Self.definite(0x30, Self.objectIdentifier(arcs) + [0x05, 0x00])
    }
}
