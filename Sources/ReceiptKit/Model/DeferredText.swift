/// A string field that is either a `String`, or validated UTF-8 bytes inside the purchase record it was decoded
/// from, turned into a `String` when read.
///
/// Decoding validates every string eagerly (malformed UTF-8 throws at decode time) but does not allocate one
/// `String` per field: a 187-purchase receipt would otherwise allocate several hundred strings nobody may read.
enum DeferredText: Sendable {
    case absent
    case text(String)
    /// `count` bytes at `offset` from the start of the record's raw bytes.
    case span(offset: UInt32, count: UInt32)

    init(_ string: String?) {
        self = string.map(DeferredText.text) ?? .absent
    }

    func resolve(in raw: ArraySlice<UInt8>) -> String? {
        switch self {
        case .absent:
            return nil
        case .text(let text):
            return text
        case .span(let offset, let count):
            let start = raw.startIndex + Int(offset)
            let end = start + Int(count)
            guard start >= raw.startIndex, end <= raw.endIndex else { return nil }
            return String(decoding: raw[start..<end], as: UTF8.self)
        }
    }
}
