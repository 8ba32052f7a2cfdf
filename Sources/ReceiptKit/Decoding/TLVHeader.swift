/// The identifier and length octets of one BER/DER element, read with explicit bounds checks.
///
/// Shared by ``PayloadTLVReader`` (DER only) and ``BERSkeletonReader`` (BER, indefinite lengths allowed). Only
/// single-byte tags are accepted: neither receipts nor X.509 certificates use the multi-byte tag form.
struct TLVHeader {
    var tag: UInt8
    /// The offset of the first content octet.
    var contentStart: Int
    /// The content length, or `nil` for the indefinite form (`0x80`).
    var length: Int?

    var isConstructed: Bool { self.tag & 0x20 != 0 }

    enum Failure: Error, CustomStringConvertible {
        case multiByteTag(Int)
        case truncated(Int)
        case badLength(Int)
        case overrun(Int, Int)

        var description: String {
            switch self {
            case .multiByteTag(let at): return "multi-byte ASN.1 tag at offset \(at)"
            case .truncated(let at): return "truncated header at offset \(at)"
            case .badLength(let at): return "unsupported length encoding at offset \(at)"
            case .overrun(let length, let left): return "length \(length) exceeds the \(left) bytes left"
            }
        }
    }

    /// Reads the header at `position`; `position < end <= buffer.count` is the caller's precondition, checked here.
    @inline(__always)
    static func read(
        _ buffer: UnsafeRawBufferPointer,
        at position: Int,
        end: Int
    ) -> Result<TLVHeader, Failure> {
        guard position >= 0, end <= buffer.count, position + 1 < end else { return .failure(.truncated(position)) }
        let tag = buffer[position]
        guard tag & 0x1F != 0x1F else { return .failure(.multiByteTag(position)) }
        let first = buffer[position + 1]
        var cursor = position + 2
        if first < 0x80 {
            let length = Int(first)
            guard length <= end - cursor else { return .failure(.overrun(length, end - cursor)) }
            return .success(TLVHeader(tag: tag, contentStart: cursor, length: length))
        }
        if first == 0x80 {
            return .success(TLVHeader(tag: tag, contentStart: cursor, length: nil))
        }
        let count = Int(first & 0x7F)
        guard count <= 8, count <= end - cursor else { return .failure(.badLength(position + 1)) }
        var length = 0
        for _ in 0..<count {
            guard length >> 55 == 0 else { return .failure(.badLength(position + 1)) }
            length = (length << 8) | Int(buffer[cursor])
            cursor += 1
        }
        guard length <= end - cursor else { return .failure(.overrun(length, end - cursor)) }
        return .success(TLVHeader(tag: tag, contentStart: cursor, length: length))
    }
}
