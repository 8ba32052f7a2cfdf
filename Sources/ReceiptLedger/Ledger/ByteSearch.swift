/// Byte scans on the write path, over contiguous storage: the generic `String.UTF8View.contains(_:)` and
/// `Collection.firstRange(of:)` walked an 8 KB signed payload one witness call at a time — together about a fifth of
/// the service's samples while it recorded notifications (`perf`, `Benchmarks/serve/forwarding.sh`).
enum ByteSearch {
    /// Whether `text` holds U+0000 (PostgreSQL's `text` cannot store it).
    static func containsNUL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in bytes.contains(0) }
    }

    /// The offset of the first occurrence of `needle` in `haystack`, or `nil` (also for an empty needle).
    static func firstOffset(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                let first = pin[0]
                let last = hay.count - pin.count
                var start = 0
                while start <= last {
                    if hay[start] == first {
                        var matched = 1
                        while matched < pin.count && hay[start + matched] == pin[matched] { matched += 1 }
                        if matched == pin.count { return start }
                    }
                    start += 1
                }
                return nil
            }
        }
    }
}
