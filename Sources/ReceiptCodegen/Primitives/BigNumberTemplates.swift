/// RSA's public operation for the generated validator, in two real variants: `«modexp»(signature, modulus) ->
/// [UInt8]?` is `signature^65537 mod modulus` as many big-endian bytes as the modulus has (leading zeros dropped),
/// or `nil` when the modulus is even, shorter than 512 or longer than 4096 bits, or the signature is not exactly as
/// long as the modulus or not smaller than it. Both use 64-bit words and Montgomery multiplication (operand scanning
/// in one variant, product scanning in the other): the signature enters Montgomery form as the remainder of a·R by n
/// (a long division, Knuth's algorithm D, in 64-bit digits in one variant and 32-bit digits in the other), then 16
/// squarings, and the last multiplication, by the plain signature, leaves Montgomery form by itself. 18
/// Montgomery-sized steps in all, against 24 when R² mod n came from doublings and squarings and the result from one
/// more reduction.
///
/// Speed, measured against `openssl speed rsa2048` on the same machine (the figures are in the ReceiptCodegen catalog's
/// Measurements article), decided the rest: R² mod n from the long division rather than from doublings, and the nested
/// functions forced inline (in a large generated file they were not inlined, and ran slower). The arithmetic runs on
/// one allocation of words through pointers (no array per product, no bounds or uniqueness checks in the inner loops; a
/// `defer` frees it on every way out, the decoys' early returns included), inner loops are `while` loops with wrapping
/// index arithmetic (a range's overflow check cost time), and a carry flag becomes a word with
/// `unsafeBitCast(_:to: UInt8.self)`: `flag ? 1 : 0` became a branch in the inner loops, mispredicted on random words,
/// and was many times slower. The loops over words are marked hot (see ``DecoyWriter/hotMarker``): decoys stand in them
/// only every few lines; the multiply-accumulate loops inside them are tight (``DecoyWriter/tightMarker``): no decoys,
/// their statements ordered and spelled per generation by ``TightLoopRewriter``. Every index stays inside its
/// allocation by construction (`s` words from the checked modulus length; the dividend has 2s + 1 words or 2s + d + 1
/// digits).
enum BigNumberTemplates {
    /// Finely integrated operand scanning (FIOS): one pass over the words adds a row of the product and of the
    /// reduction at once (faster than the same in two passes, CIOS; see the ReceiptCodegen catalog's Measurements
    /// article).
    static let interleaved = #"""
        private func «modexp»(_ sig: [UInt8], _ mod: [UInt8]) -> [UInt8]? {
            guard let lead = mod.firstIndex(where: { $0 != 0 }) else { return nil }
            let k = mod.count - lead
            guard (64...512).contains(k), sig.count == k, mod[mod.count - 1] % 2 == 1 else { return nil }
            let s = (k + 7) >> 3
            // Words, least significant first: the modulus, the signature, the result, the product row (s + 1), the
            // normalized modulus and the dividend (2s + 1) of the long division.
            let n = UnsafeMutablePointer<UInt64>.allocate(capacity: 7 * s + 2)
            defer { n.deallocate() }
            n.initialize(repeating: 0, count: 7 * s + 2)
            let a = n + s
            let acc = n + 2 * s
            let t = n + 3 * s
            let v = n + 4 * s + 1
            let u = n + 5 * s + 1
            // hot
            for i in 0..<k {
                let bit = (k - 1 - i) * 8
                n[bit >> 6] |= UInt64(mod[lead + i]) << UInt64(bit & 63)
                a[bit >> 6] |= UInt64(sig[i]) << UInt64(bit & 63)
            }
            func bit(_ b: Bool) -> UInt64 { UInt64(unsafeBitCast(b, to: UInt8.self)) }
            @inline(__always)
            func compare(_ x: UnsafeMutablePointer<UInt64>) -> Int {
                var q = s - 1
                // hot
                while q >= 0 {
                    if x[q] != n[q] { return x[q] < n[q] ? -1 : 1 }
                    q -= 1
                }
                return 0
            }
            @inline(__always)
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
            let n0: UInt64 = ~inv &+ 1
            @inline(__always)
            func montgomery(_ x: UnsafeMutablePointer<UInt64>, _ y: UnsafeMutablePointer<UInt64>, _ r: UnsafeMutablePointer<UInt64>) {
                t.update(repeating: 0, count: s + 1)
                // hot
                for i in 0..<s {
                    let xi = x[i]
                    let (hx, lx) = xi.multipliedFullWidth(by: y[0])
                    let (low, o) = lx.addingReportingOverflow(t[0])
                    var cx = hx &+ bit(o)
                    let m = low &* n0
                    let (hn, ln) = m.multipliedFullWidth(by: n[0])
                    let (_, p) = ln.addingReportingOverflow(low)
                    var cn = hn &+ bit(p)
                    var j = 1
                    // tight
                    while j < s {
                        let (ph, pl) = xi.multipliedFullWidth(by: y[j])
                        let (a1, o1) = pl.addingReportingOverflow(t[j])
                        let (a2, o2) = a1.addingReportingOverflow(cx)
                        cx = ph &+ bit(o1) &+ bit(o2)
                        let (qh, ql) = m.multipliedFullWidth(by: n[j])
                        let (b1, o3) = ql.addingReportingOverflow(a2)
                        let (b2, o4) = b1.addingReportingOverflow(cn)
                        cn = qh &+ bit(o3) &+ bit(o4)
                        t[j &- 1] = b2
                        j &+= 1
                    }
                    let (c1, o5) = t[s].addingReportingOverflow(cx)
                    let (c2, o6) = c1.addingReportingOverflow(cn)
                    t[s - 1] = c2
                    t[s] = bit(o5) &+ bit(o6)
                }
                if t[s] != 0 || compare(t) >= 0 { subtract(t) }
                r.update(from: t, count: s)
            }
            // a·R mod n, the signature in Montgomery form, as the remainder of a·2^(64s) by n: long division (Knuth D)
            // in 64-bit digits, each quotient digit estimated from the top two words and corrected at most twice. The
            // shifts rely on Swift's `>>` giving 0 for a shift by 64 (shift 0: nothing comes in from the word below);
            // u[s] is 0 once the division is done.
            let shift = UInt64(n[s - 1].leadingZeroBitCount)
            var q = s - 1
            while q > 0 {
                v[q] = (n[q] << shift) | (n[q - 1] >> (64 - shift))
                q -= 1
            }
            v[0] = n[0] << shift
            u[2 * s] = a[s - 1] >> (64 - shift)
            q = s - 1
            while q > 0 {
                u[s + q] = (a[q] << shift) | (a[q - 1] >> (64 - shift))
                q -= 1
            }
            u[s] = a[0] << shift
            let top = v[s - 1]
            let second = v[s - 2]
            var j = s
            while j >= 0 {
                var qhat: UInt64
                var rhat: UInt64
                var rhatOverflow = false
                if u[j + s] >= top {
                    qhat = UInt64.max
                    let (r, o) = u[j + s - 1].addingReportingOverflow(top)
                    rhat = r
                    rhatOverflow = o
                } else {
                    (qhat, rhat) = top.dividingFullWidth((u[j + s], u[j + s - 1]))
                }
                while !rhatOverflow {
                    let (ph, pl) = qhat.multipliedFullWidth(by: second)
                    guard ph > rhat || (ph == rhat && pl > u[j + s - 2]) else { break }
                    qhat &-= 1
                    (rhat, rhatOverflow) = rhat.addingReportingOverflow(top)
                }
                var borrow: UInt64 = 0
                var carry: UInt64 = 0
                // hot
                for i in 0..<s {
                    let (ph, pl) = qhat.multipliedFullWidth(by: v[i])
                    let (pl2, o1) = pl.addingReportingOverflow(carry)
                    carry = ph &+ bit(o1)
                    let (d1, b1) = u[j + i].subtractingReportingOverflow(pl2)
                    let (d2, b2) = d1.subtractingReportingOverflow(borrow)
                    u[j + i] = d2
                    borrow = bit(b1) &+ bit(b2)
                }
                let (d1, b1) = u[j + s].subtractingReportingOverflow(carry)
                let (d2, b2) = d1.subtractingReportingOverflow(borrow)
                u[j + s] = d2
                if b1 || b2 {
                    var c: UInt64 = 0
                    // hot
                    for i in 0..<s {
                        let (x1, o1) = u[j + i].addingReportingOverflow(v[i])
                        let (x2, o2) = x1.addingReportingOverflow(c)
                        u[j + i] = x2
                        c = bit(o1) &+ bit(o2)
                    }
                    u[j + s] = u[j + s] &+ c
                }
                j -= 1
            }
            for i in 0..<s {
                acc[i] = (u[i] >> shift) | (u[i + 1] << (64 - shift))
            }
            for _ in 0..<16 { montgomery(acc, acc, acc) }
            // a^65536·R times the plain signature: Montgomery's division by R leaves a^65537 mod n, out of Montgomery form.
            montgomery(acc, a, acc)
            var out = [UInt8](repeating: 0, count: k)
            // hot
            for i in 0..<k {
                let bit = (k - 1 - i) * 8
                out[i] = UInt8(truncatingIfNeeded: acc[bit >> 6] >> UInt64(bit & 63))
            }
            return out
        }
        """#

    /// Finely integrated product scanning (FIPS): the result column by column, each column's products of the operands
    /// and of the reduction summed in three words; a squaring takes each cross product once. It replaced a separated
    /// operand scanning variant (the whole product, then the reduction), slower in generated files and stand-alone;
    /// this variant and the interleaved one (its products in the written order, see ``TightLoopRewriter``) run alike.
    /// The figures are in the ReceiptCodegen catalog's Measurements article.
    static let productScanning = #"""
        private func «modexp»(_ sig: [UInt8], _ mod: [UInt8]) -> [UInt8]? {
            var nb = ArraySlice(mod)
            while let first = nb.first, first == 0 { nb = nb.dropFirst() }
            let k = nb.count
            guard k >= 64, k <= 512, sig.count == k, let low = nb.last, low & 1 == 1 else { return nil }
            let s = (k + 7) / 8
            // Words, least significant first: the modulus, the signature, the result, the reduction's multipliers.
            let n = UnsafeMutablePointer<UInt64>.allocate(capacity: 4 * s)
            defer { n.deallocate() }
            n.initialize(repeating: 0, count: 4 * s)
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
            @inline(__always)
            func atLeastN(_ v: UnsafeMutablePointer<UInt64>) -> Bool {
                var q = s - 1
                // hot
                while q >= 0 {
                    if v[q] != n[q] { return v[q] > n[q] }
                    q -= 1
                }
                return true
            }
            @inline(__always)
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
            let n0: UInt64 = 0 &- inverse
            // A low column's last step: its multiplier (kept in u), the one that zeroes the column's word with the
            // multiplier's product by n[0]; the sum then moves down a word.
            @inline(__always)
            func settle(_ i: Int, _ t0: inout UInt64, _ t1: inout UInt64, _ t2: inout UInt64) {
                let m = t0 &* n0
                u[i] = m
                let (qh, ql) = m.multipliedFullWidth(by: n[0])
                let (_, o2) = t0.addingReportingOverflow(ql)
                let (r1, o3) = t1.addingReportingOverflow(qh &+ flag(o2))
                t0 = r1
                t1 = t2 &+ flag(o3)
                t2 = 0
            }
            // Montgomery multiplication by product scanning (FIPS): column by column, the column's products of the
            // operands and of the reduction's multipliers (one per low column, kept in u) summed in three words
            // (t0, t1, t2); a low column's multiplier zeroes its word, a high column's word is the result's.
            // r = y·z/R mod n; r may be y or z (a result word is written once no later column reads it).
            @inline(__always)
            func multiply(_ y: UnsafeMutablePointer<UInt64>, _ z: UnsafeMutablePointer<UInt64>, _ r: UnsafeMutablePointer<UInt64>) {
                var t0: UInt64 = 0
                var t1: UInt64 = 0
                var t2: UInt64 = 0
                // hot
                for i in 0..<(2 * s) {
                    var j = i < s ? 0 : i &- s &+ 1
                    let top = i < s ? i : s
                    // tight
                    while j < top {
                        let (ph, pl) = y[j].multipliedFullWidth(by: z[i &- j])
                        let (s0, o0) = t0.addingReportingOverflow(pl)
                        let (s1, o1) = t1.addingReportingOverflow(ph &+ flag(o0))
                        let (qh, ql) = u[j].multipliedFullWidth(by: n[i &- j])
                        let (r0, o2) = s0.addingReportingOverflow(ql)
                        let (r1, o3) = s1.addingReportingOverflow(qh &+ flag(o2))
                        t2 = t2 &+ flag(o1) &+ flag(o3)
                        t0 = r0
                        t1 = r1
                        j &+= 1
                    }
                    if i < s {
                        let (ph, pl) = y[i].multipliedFullWidth(by: z[0])
                        let (s0, o0) = t0.addingReportingOverflow(pl)
                        let (s1, o1) = t1.addingReportingOverflow(ph &+ flag(o0))
                        (t0, t1, t2) = (s0, s1, t2 &+ flag(o1))
                        settle(i, &t0, &t1, &t2)
                    } else {
                        r[i &- s] = t0
                        (t0, t1, t2) = (t1, t2, 0)
                    }
                }
                if t0 != 0 || atLeastN(r) { minusN(r) }
            }
            // y = y²/R mod n, the same columns with each cross product once: summed apart (c0, c1, c2), doubled, the
            // column's square added (an even column), then the reduction's products.
            @inline(__always)
            func square(_ y: UnsafeMutablePointer<UInt64>) {
                var t0: UInt64 = 0
                var t1: UInt64 = 0
                var t2: UInt64 = 0
                // hot
                for i in 0..<(2 * s &- 1) {
                    var c0: UInt64 = 0
                    var c1: UInt64 = 0
                    var c2: UInt64 = 0
                    let low = i < s ? 0 : i &- s &+ 1
                    var j = low
                    let half = (i &+ 1) >> 1
                    // tight
                    while j < half {
                        let (ph, pl) = y[j].multipliedFullWidth(by: y[i &- j])
                        let (s0, o0) = c0.addingReportingOverflow(pl)
                        let (s1, o1) = c1.addingReportingOverflow(ph &+ flag(o0))
                        c2 = c2 &+ flag(o1)
                        c0 = s0
                        c1 = s1
                        j &+= 1
                    }
                    c2 = c2 << 1 | c1 >> 63
                    c1 = c1 << 1 | c0 >> 63
                    c0 = c0 << 1
                    if i & 1 == 0 {
                        let square = y[i >> 1].multipliedFullWidth(by: y[i >> 1])
                        let first = c0.addingReportingOverflow(square.low)
                        let second = c1.addingReportingOverflow(square.high &+ flag(first.overflow))
                        (c0, c1, c2) = (first.partialValue, second.partialValue, c2 &+ flag(second.overflow))
                    }
                    let (d0, e0) = t0.addingReportingOverflow(c0)
                    let (d1, e1) = t1.addingReportingOverflow(c1)
                    let (d2, e2) = d1.addingReportingOverflow(flag(e0))
                    t0 = d0
                    t1 = d2
                    t2 = t2 &+ c2 &+ flag(e1) &+ flag(e2)
                    j = low
                    let top = i < s ? i : s
                    // tight
                    while j < top {
                        let (qh, ql) = u[j].multipliedFullWidth(by: n[i &- j])
                        let (r0, o2) = t0.addingReportingOverflow(ql)
                        let (r1, o3) = t1.addingReportingOverflow(qh &+ flag(o2))
                        t2 = flag(o3) &+ t2
                        t1 = r1
                        t0 = r0
                        j &+= 1
                    }
                    if i < s {
                        settle(i, &t0, &t1, &t2)
                    } else {
                        y[i &- s] = t0
                        t0 = t1
                        t1 = t2
                        t2 = 0
                    }
                }
                y[s &- 1] = t0
                if t1 != 0 || atLeastN(y) { minusN(y) }
            }
            // x = a·R mod n, the signature in Montgomery form, as the remainder of a·2^(64s) by n: long division (Knuth D)
            // in 32-bit digits, each quotient digit from a 64-bit division, refined by the next digit and added back at most once.
            let d = (k + 3) / 4
            let digits = UnsafeMutablePointer<UInt32>.allocate(capacity: 2 * s + 2 * d + 1)
            defer { digits.deallocate() }
            digits.initialize(repeating: 0, count: 2 * s + 2 * d + 1)
            let dv = digits
            let du = digits + d
            func digit(_ w: UnsafeMutablePointer<UInt64>, _ i: Int) -> UInt32 {
                i < 0 ? 0 : UInt32(truncatingIfNeeded: w[i >> 1] >> UInt64((i & 1) << 5))
            }
            let sh = UInt32(digit(n, d - 1).leadingZeroBitCount)
            for i in 0..<d {
                dv[i] = (digit(n, i) << sh) | (digit(n, i - 1) >> (32 - sh))
                du[2 * s + i] = (digit(a, i) << sh) | (digit(a, i - 1) >> (32 - sh))
            }
            du[2 * s + d] = digit(a, d - 1) >> (32 - sh)
            let head = UInt64(dv[d - 1])
            let next = UInt64(dv[d - 2])
            var j = 2 * s
            while j >= 0 {
                let num = UInt64(du[j + d]) << 32 | UInt64(du[j + d - 1])
                var qhat = num / head
                var rhat = num - qhat &* head
                while qhat > 0xFFFF_FFFF || qhat &* next > (rhat << 32 | UInt64(du[j + d - 2])) {
                    qhat -= 1
                    rhat += head
                    if rhat > 0xFFFF_FFFF { break }
                }
                var borrow: Int64 = 0
                var i = 0
                // hot
                while i < d {
                    let p = qhat &* UInt64(dv[i])
                    let t = Int64(du[i + j]) &- borrow &- Int64(p & 0xFFFF_FFFF)
                    du[i + j] = UInt32(truncatingIfNeeded: t)
                    borrow = Int64(p >> 32) &- (t >> 32)
                    i += 1
                }
                let t = Int64(du[j + d]) &- borrow
                du[j + d] = UInt32(truncatingIfNeeded: t)
                if t < 0 {
                    var c: UInt64 = 0
                    i = 0
                    // hot
                    while i < d {
                        let sum = UInt64(du[i + j]) &+ UInt64(dv[i]) &+ c
                        du[i + j] = UInt32(truncatingIfNeeded: sum)
                        c = sum >> 32
                        i += 1
                    }
                    du[j + d] = du[j + d] &+ UInt32(truncatingIfNeeded: c)
                }
                j -= 1
            }
            for w in 0..<s {
                let lo = 2 * w < d ? (du[2 * w] >> sh) | (du[2 * w + 1] << (32 - sh)) : 0
                let hi = 2 * w + 1 < d ? (du[2 * w + 1] >> sh) | (du[2 * w + 2] << (32 - sh)) : 0
                x[w] = UInt64(lo) | UInt64(hi) << 32
            }
            for _ in 0..<16 { square(x) }
            // a^65536·R times the plain signature, divided by R: a^65537 mod n, out of Montgomery form.
            multiply(x, a, x)
            var out = [UInt8](repeating: 0, count: k)
            for i in 0..<k { out[k - 1 - i] = UInt8(truncatingIfNeeded: x[i >> 3] >> UInt64((i & 7) * 8)) }
            return out
        }
        """#
}
