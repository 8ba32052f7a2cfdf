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
        case .span:
            return self.span(in: raw).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// For a `.span`, its validated UTF-8 bytes inside `raw` (`nil` if the span lies outside it); otherwise `nil`.
    func span(in raw: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard case .span(let offset, let count) = self else { return nil }
        let start = raw.startIndex + Int(offset)
        let end = start + Int(count)
        guard start >= raw.startIndex, end <= raw.endIndex else { return nil }
        return raw[start..<end]
    }
}
