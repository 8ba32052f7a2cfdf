/// Strict UTF-8 decoding that rejects, instead of repairing, invalid byte sequences.
package enum UTF8Validation {
    /// Whether the bytes are valid UTF-8, without building a string.
    @inlinable
    package static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if bytes.allSatisfy({ $0 < 0x80 }) { return true }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// The string the bytes encode, or `nil` when they are not valid UTF-8.
    @inlinable
    package static func string(_ bytes: some Collection<UInt8>) -> String? {
        // Fast path: pure ASCII, which is every identifier Apple writes.
        if bytes.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var scalars = String.UnicodeScalarView()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .emptyInput: return String(scalars)
            case .error: return nil
            }
        }
    }
}
