/// RSA's public operation for the generated validator, in two real variants: `«modexp»(signature, modulus) ->
/// [UInt8]?` is `signature^65537 mod modulus` as many big-endian bytes as the modulus has (leading zeros dropped),
/// or `nil` when the modulus is even, shorter than 512 or longer than 4096 bits, or the signature is not exactly as
/// long as the modulus or not smaller than it. Both use 64-bit words and Montgomery multiplication, 16 squarings and
/// one multiplication; R² mod n comes from doublings of n's top bit up to about 2^64·R and a few squarings in
/// Montgomery form (not 2·bits doublings, which cost three times the exponentiation, nor log₂(bits) squarings: a
/// doubling costs about a fortieth of a squaring).
///
/// Speed, measured (one core, 2048-bit modulus): the arithmetic runs on one allocation of words through pointers (no
/// array per product, no bounds or uniqueness checks in the inner loops; a `defer` frees it on every way out, the
/// decoys' early returns included) and turns a carry flag into a word with `unsafeBitCast(_:to: UInt8.self)`:
/// `flag ? 1 : 0` became a branch in the inner loops, mispredicted on random words, and cost 8× (315 µs against
/// 38 µs a verification; 27–30 µs with the cheaper R² and FIOS). The loops over words are marked hot (see
/// ``DecoyWriter/hotMarker``): decoys stand in them only every few lines. Every index stays below
/// `5s + 1` words by construction (`s` from the checked modulus length).
enum BigNumberTemplates {
    /// Finely integrated operand scanning (FIOS): one pass over the words adds a row of the product and of the
    /// reduction at once (27 µs against 33 µs for the same in two passes, CIOS).
    static let interleaved = #"""
        private func «modexp»(_ sig: [UInt8], _ mod: [UInt8]) -> [UInt8]? {
            guard let lead = mod.firstIndex(where: { $0 != 0 }) else { return nil }
            let k = mod.count - lead
            guard (64...512).contains(k), sig.count == k, mod[mod.count - 1] % 2 == 1 else { return nil }
            let s = (k + 7) >> 3
            let n = UnsafeMutablePointer<UInt64>.allocate(capacity: 5 * s + 1)
            defer { n.deallocate() }
            n.initialize(repeating: 0, count: 5 * s + 1)
            let a = n + s
            let acc = n + 2 * s
            let base = n + 3 * s
            let t = n + 4 * s
            // hot
            for i in 0..<k {
                let bit = (k - 1 - i) * 8
                n[bit >> 6] |= UInt64(mod[lead + i]) << UInt64(bit & 63)
                a[bit >> 6] |= UInt64(sig[i]) << UInt64(bit & 63)
            }
            func bit(_ b: Bool) -> UInt64 { UInt64(unsafeBitCast(b, to: UInt8.self)) }
            func compare(_ x: UnsafeMutablePointer<UInt64>) -> Int {
                var q = s - 1
                // hot
                while q >= 0 {
                    if x[q] != n[q] { return x[q] < n[q] ? -1 : 1 }
                    q -= 1
                }
                return 0
            }
            func subtract(_ x: UnsafeMutablePointer<UInt64>) {
                var borrow = false
                // hot
                for q in 0..<s {
                    let (d1, o1) = x[q].subtractingReportingOverflow(n[q])
                    let (d2, o2) = d1.subtractingReportingOverflow(bit(borrow))
                    x[q] = d2
                    borrow = o1 || o2
                }
            }
            guard compare(a) < 0 else { return nil }
            var inv: UInt64 = 1
            for _ in 0..<6 { inv = inv &* (2 &- n[0] &* inv) }
            let n0 = ~inv &+ 1
            func montgomery(_ x: UnsafeMutablePointer<UInt64>, _ y: UnsafeMutablePointer<UInt64>, _ r: UnsafeMutablePointer<UInt64>) {
                t.update(repeating: 0, count: s + 1)
                // hot
                for i in 0..<s {
                    let xi = x[i]
                    var (hx, lx) = xi.multipliedFullWidth(by: y[0])
                    var (low, o) = lx.addingReportingOverflow(t[0])
                    var cx = hx &+ bit(o)
                    let m = low &* n0
                    var (hn, ln) = m.multipliedFullWidth(by: n[0])
                    (ln, o) = ln.addingReportingOverflow(low)
                    var cn = hn &+ bit(o)
                    for j in 1..<s {
                        (hx, lx) = xi.multipliedFullWidth(by: y[j])
                        let (a1, o1) = lx.addingReportingOverflow(t[j])
                        let (a2, o2) = a1.addingReportingOverflow(cx)
                        cx = hx &+ bit(o1) &+ bit(o2)
                        (hn, ln) = m.multipliedFullWidth(by: n[j])
                        let (b1, o3) = ln.addingReportingOverflow(a2)
                        let (b2, o4) = b1.addingReportingOverflow(cn)
                        cn = hn &+ bit(o3) &+ bit(o4)
                        t[j - 1] = b2
                    }
                    let (c1, o5) = t[s].addingReportingOverflow(cx)
                    let (c2, o6) = c1.addingReportingOverflow(cn)
                    t[s - 1] = c2
                    t[s] = bit(o5) &+ bit(o6)
                }
                if t[s] != 0 || compare(t) >= 0 { subtract(t) }
                r.update(from: t, count: s)
            }
            let top = 63 - n[s - 1].leadingZeroBitCount
            var start = 64 * s
            var squarings = 0
            while start % 2 == 0, start > 64 {
                start /= 2
                squarings += 1
            }
            acc[s - 1] = UInt64(1) << UInt64(top)
            for _ in 0..<(64 + start - top) {
                let carry = acc[s - 1] >> 63
                for q in stride(from: s - 1, to: 0, by: -1) { acc[q] = (acc[q] << 1) | (acc[q - 1] >> 63) }
                acc[0] <<= 1
                if carry != 0 || compare(acc) >= 0 { subtract(acc) }
            }
            for _ in 0..<squarings { montgomery(acc, acc, acc) }
            montgomery(a, acc, base)
            acc.update(from: base, count: s)
            for _ in 0..<16 { montgomery(acc, acc, acc) }
            montgomery(acc, base, acc)
            base.update(repeating: 0, count: s)
            base[0] = 1
            montgomery(acc, base, acc)
            var out = [UInt8](repeating: 0, count: k)
            // hot
            for i in 0..<k {
                let bit = (k - 1 - i) * 8
                out[i] = UInt8(truncatingIfNeeded: acc[bit >> 6] >> UInt64(bit & 63))
            }
            return out
        }
        """#

    /// Separated operand scanning (SOS): the whole double-width product (squares with each cross product once,
    /// doubled), then the reduction; leaving Montgomery form is a reduction alone.
    static let separated = #"""
        private func «modexp»(_ sig: [UInt8], _ mod: [UInt8]) -> [UInt8]? {
            var nb = ArraySlice(mod)
            while let first = nb.first, first == 0 { nb = nb.dropFirst() }
            let k = nb.count
            guard k >= 64, k <= 512, sig.count == k, let low = nb.last, low & 1 == 1 else { return nil }
            let s = (k + 7) / 8
            // Words, least significant first: the modulus, the signature, the result, the double-width product.
            let n = UnsafeMutablePointer<UInt64>.allocate(capacity: 5 * s + 1)
            defer { n.deallocate() }
            n.initialize(repeating: 0, count: 5 * s + 1)
            var w = 0
            var end = k
            while end > 0 {
                var word: UInt64 = 0
                for byte in nb[(nb.startIndex + max(end - 8, 0))..<(nb.startIndex + end)] { word = word << 8 | UInt64(byte) }
                n[w] = word
                word = 0
                for byte in sig[max(end - 8, 0)..<end] { word = word << 8 | UInt64(byte) }
                n[s + w] = word
                w += 1
                end -= 8
            }
            let a = n + s
            let x = n + 2 * s
            let u = n + 3 * s
            func flag(_ b: Bool) -> UInt64 { UInt64(unsafeBitCast(b, to: UInt8.self)) }
            func atLeastN(_ v: UnsafeMutablePointer<UInt64>) -> Bool {
                var q = s - 1
                // hot
                while q >= 0 {
                    if v[q] != n[q] { return v[q] > n[q] }
                    q -= 1
                }
                return true
            }
            func minusN(_ v: UnsafeMutablePointer<UInt64>) {
                var borrow: UInt64 = 0
                // hot
                for q in 0..<s {
                    let (d, o1) = v[q].subtractingReportingOverflow(n[q])
                    let (e, o2) = d.subtractingReportingOverflow(borrow)
                    v[q] = e
                    borrow = flag(o1 || o2)
                }
            }
            guard !atLeastN(a) else { return nil }
            var inverse = n[0]
            for _ in 0..<5 { inverse = inverse &* (2 &- n[0] &* inverse) }
            let n0 = 0 &- inverse
            // u (2s + 1 words) reduced by n: u / R mod n into v.
            func reduce(_ v: UnsafeMutablePointer<UInt64>) {
                // hot
                for i in 0..<s {
                    let m = u[i] &* n0
                    var c: UInt64 = 0
                    for j in 0..<s {
                        let (hi, lo) = m.multipliedFullWidth(by: n[j])
                        let (l1, o1) = lo.addingReportingOverflow(u[i + j])
                        let (l2, o2) = l1.addingReportingOverflow(c)
                        u[i + j] = l2
                        c = hi &+ flag(o1) &+ flag(o2)
                    }
                    var q = i + s
                    while c != 0, q <= 2 * s {
                        let (v, o) = u[q].addingReportingOverflow(c)
                        u[q] = v
                        c = flag(o)
                        q += 1
                    }
                }
                if u[2 * s] != 0 || atLeastN(u + s) { minusN(u + s) }
                v.update(from: u + s, count: s)
            }
            // u = y · z, schoolbook.
            func product(_ y: UnsafeMutablePointer<UInt64>, _ z: UnsafeMutablePointer<UInt64>) {
                u.update(repeating: 0, count: 2 * s + 1)
                // hot
                for i in 0..<s {
                    var c: UInt64 = 0
                    let yi = y[i]
                    for j in 0..<s {
                        let (hi, lo) = yi.multipliedFullWidth(by: z[j])
                        let (l1, o1) = lo.addingReportingOverflow(u[i + j])
                        let (l2, o2) = l1.addingReportingOverflow(c)
                        u[i + j] = l2
                        c = hi &+ flag(o1) &+ flag(o2)
                    }
                    u[i + s] = c
                }
            }
            // u = y², each cross product once, doubled, then the squares of the words added.
            func square(_ y: UnsafeMutablePointer<UInt64>) {
                u.update(repeating: 0, count: 2 * s + 1)
                // hot
                for i in 0..<s {
                    var c: UInt64 = 0
                    let yi = y[i]
                    var j = i + 1
                    while j < s {
                        let (hi, lo) = yi.multipliedFullWidth(by: y[j])
                        let (l1, o1) = lo.addingReportingOverflow(u[i + j])
                        let (l2, o2) = l1.addingReportingOverflow(c)
                        u[i + j] = l2
                        c = hi &+ flag(o1) &+ flag(o2)
                        j += 1
                    }
                    u[i + s] = c
                }
                var shifted: UInt64 = 0
                // hot
                for q in 0..<(2 * s) {
                    let v = u[q]
                    u[q] = v << 1 | shifted
                    shifted = v >> 63
                }
                var c: UInt64 = 0
                // hot
                for i in 0..<s {
                    let (hi, lo) = y[i].multipliedFullWidth(by: y[i])
                    let (l1, o1) = u[2 * i].addingReportingOverflow(lo)
                    let (l2, o2) = l1.addingReportingOverflow(c)
                    u[2 * i] = l2
                    let (h1, o3) = u[2 * i + 1].addingReportingOverflow(hi)
                    let (h2, o4) = h1.addingReportingOverflow(flag(o1) &+ flag(o2))
                    u[2 * i + 1] = h2
                    c = flag(o3) &+ flag(o4)
                }
            }
            // R² mod n (R = 2^(64s)): n's top bit doubled up to 2^lead·R (lead: 64s halved while even and at
            // least 128), then squared in Montgomery form until 2^(64s)·R. A doubling costs a fortieth of a squaring.
            var lead = 64 * s
            var squarings = 0
            while lead & 1 == 0 && lead >= 128 {
                lead >>= 1
                squarings += 1
            }
            let top = 63 - n[s - 1].leadingZeroBitCount
            x[s - 1] = UInt64(1) << UInt64(top)
            for _ in 0..<(64 + lead - top) {
                var carry: UInt64 = 0
                // hot
                for q in 0..<s {
                    let v = x[q]
                    x[q] = (v << 1) | carry
                    carry = v >> 63
                }
                if carry != 0 || atLeastN(x) { minusN(x) }
            }
            for _ in 0..<squarings {
                square(x)
                reduce(x)
            }
            product(a, x)
            reduce(a)
            x.update(from: a, count: s)
            for _ in 0..<16 {
                square(x)
                reduce(x)
            }
            product(x, a)
            reduce(x)
            u.update(repeating: 0, count: 2 * s + 1)
            u.update(from: x, count: s)
            reduce(x)
            var out = [UInt8](repeating: 0, count: k)
            for i in 0..<k { out[k - 1 - i] = UInt8(truncatingIfNeeded: x[i >> 3] >> UInt64((i & 7) * 8)) }
            return out
        }
        """#
}
