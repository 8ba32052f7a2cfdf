/// The generated validator's tag-length-value reader, in two real variants.
///
/// Contract of every variant (the rest of the generated code relies on it):
/// - `«tlv»(b, p, limit, depth) -> (tag, contentStart, contentEnd, next)?` reads the element at `p`, which must end
///   by `limit`; low tag numbers only; definite lengths of up to 4 length bytes; indefinite lengths (BER) on
///   constructed elements, ended by `00 00`, nested at most 24 deep; `nil` for anything else.
/// - `«kids»(b, start, end) -> [(tag, elementStart, contentStart, contentEnd, next)]?` the elements that exactly
///   fill `start..<end`, at most 4096.
/// - `«octets»(b, element) -> [UInt8]?` an OCTET STRING's bytes, primitive or (BER) constructed, 8 levels at most.
enum DERTemplates {
    /// Recursive: an indefinite-length element's end is found by reading its children.
    ///
    /// Both readers are hot (``DecoyWriter/hotMarker``): they ran once per element, thousands of times an entry point on
    /// a large receipt, and decoys at the usual density in the reader made a generation's validations
    /// markedly slower than sparse ones (see the ReceiptCodegen catalog's Measurements article). The payload's walker
    /// now reads its attributes' short-form headers itself (``StructureTemplates/payload``) and calls a reader only for
    /// the others, the purchases' SETs and the strings.
    static let tlvRecursive = #"""
        // hot
        private func «tlv»(_ b: [UInt8], _ p: Int, _ limit: Int, _ depth: Int) -> (UInt8, Int, Int, Int)? {
            guard p >= 0, limit <= b.count, p < limit else { return nil }
            let tag = b[p]
            if tag & 0x1F == 0x1F { return nil }
            var q = p + 1
            guard q < limit else { return nil }
            let first = b[q]
            q += 1
            if first < 0x80 {
                let e = q + Int(first)
                guard e <= limit else { return nil }
                return (tag, q, e, e)
            }
            if first == 0x80 {
                guard tag & 0x20 != 0, depth < 24 else { return nil }
                var c = q
                while c < limit {
                    if b[c] == 0 {
                        guard c + 1 < limit, b[c + 1] == 0 else { return nil }
                        return (tag, q, c, c + 2)
                    }
                    guard let child = «tlv»(b, c, limit, depth + 1) else { return nil }
                    c = child.3
                }
                return nil
            }
            let n = Int(first & 0x7F)
            guard n <= 4 else { return nil }
            var length = 0
            for _ in 0..<n {
                guard q < limit else { return nil }
                length = (length << 8) | Int(b[q])
                q += 1
            }
            guard length <= limit - q else { return nil }
            return (tag, q, q + length, q + length)
        }
        """#

    /// Iterative: an indefinite-length element's end is found by counting open indefinite elements.
    static let tlvCounting = #"""
        // hot
        private func «tlv»(_ b: [UInt8], _ p: Int, _ limit: Int, _ depth: Int) -> (UInt8, Int, Int, Int)? {
            guard depth >= 0, p >= 0, limit <= b.count, p < limit else { return nil }
            func head(_ at: Int) -> (UInt8, Int, Int)? {
                guard at + 1 < limit, b[at] & 0x1F != 0x1F else { return nil }
                let l = b[at + 1]
                switch l {
                case 0..<0x80:
                    return (b[at], at + 2, Int(l))
                case 0x80:
                    return b[at] & 0x20 == 0 ? nil : (b[at], at + 2, -1)
                case 0x81...0x84:
                    let n = Int(l) - 0x80
                    guard n <= limit - at - 2 else { return nil }
                    var v = 0
                    var i = 0
                    while i < n {
                        v = v &* 256 &+ Int(b[at + 2 + i])
                        i += 1
                    }
                    return (b[at], at + 2 + n, v)
                default:
                    return nil
                }
            }
            guard let h = head(p) else { return nil }
            if h.2 >= 0 {
                guard h.2 <= limit - h.1 else { return nil }
                return (h.0, h.1, h.1 + h.2, h.1 + h.2)
            }
            var open = 1
            var c = h.1
            while c < limit {
                if b[c] == 0 {
                    guard c + 1 < limit, b[c + 1] == 0 else { return nil }
                    open -= 1
                    if open == 0 { return (h.0, h.1, c, c + 2) }
                    c += 2
                    continue
                }
                guard let g = head(c) else { return nil }
                if g.2 < 0 {
                    open += 1
                    guard open <= 24 else { return nil }
                    c = g.1
                } else {
                    guard g.2 <= limit - g.1 else { return nil }
                    c = g.1 + g.2
                }
            }
            return nil
        }
        """#

    static let kidsWhile = #"""
        private func «kids»(_ b: [UInt8], _ start: Int, _ end: Int) -> [(UInt8, Int, Int, Int, Int)]? {
            var out: [(UInt8, Int, Int, Int, Int)] = []
            out.reserveCapacity(4)
            var p = start
            while p < end {
                guard out.count < 4096, let t = «tlv»(b, p, end, 0) else { return nil }
                out.append((t.0, p, t.1, t.2, t.3))
                p = t.3
            }
            return p == end ? out : nil
        }
        """#

    static let kidsRepeat = #"""
        private func «kids»(_ b: [UInt8], _ start: Int, _ end: Int) -> [(UInt8, Int, Int, Int, Int)]? {
            guard start <= end else { return nil }
            var found = [(UInt8, Int, Int, Int, Int)]()
            found.reserveCapacity(min(end - start, 8))
            var at = start
            if at == end { return found }
            repeat {
                guard let e = «tlv»(b, at, end, 0), found.count < 4096 else { return nil }
                found.append((e.0, at, e.1, e.2, e.3))
                at = e.3
            } while at < end
            return found
        }
        """#

    static let octetsRecursive = #"""
        private func «octets»(_ b: [UInt8], _ t: (UInt8, Int, Int, Int, Int), _ depth: Int) -> [UInt8]? {
            if t.0 == 0x04 { return Array(b[t.2..<t.3]) }
            guard t.0 == 0x24, depth < 8, let parts = «kids»(b, t.2, t.3) else { return nil }
            var out: [UInt8] = []
            for part in parts {
                guard let piece = «octets»(b, part, depth + 1) else { return nil }
                out.append(contentsOf: piece)
            }
            return out
        }
        """#

    static let octetsStack = #"""
        private func «octets»(_ b: [UInt8], _ t: (UInt8, Int, Int, Int, Int), _ depth: Int) -> [UInt8]? {
            var result = [UInt8]()
            var pending = [(t, depth)]
            while let (e, level) = pending.popLast() {
                switch e.0 {
                case 0x04:
                    result += b[e.2..<e.3]
                case 0x24:
                    guard level < 8, let parts = «kids»(b, e.2, e.3) else { return nil }
                    for part in parts.reversed() { pending.append((part, level + 1)) }
                default:
                    return nil
                }
            }
            return result
        }
        """#
}
