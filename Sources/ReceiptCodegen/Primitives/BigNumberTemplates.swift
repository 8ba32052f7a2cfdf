/// RSA's public operation for the generated validator, in two real variants: `«modexp»(signature, modulus) ->
/// [UInt8]?` is `signature^65537 mod modulus` as many big-endian bytes as the modulus has (leading zeros dropped),
/// or `nil` when the modulus is even, shorter than 512 or longer than 4096 bits, or the signature is not exactly as
/// long as the modulus or not smaller than it. Both use Montgomery multiplication (CIOS), 16 squarings and one
/// multiplication; R² mod n comes from a few doublings of n's top bit and log₂ squarings in Montgomery form (not
/// 2·bits doublings, which cost three times the exponentiation).
enum BigNumberTemplates {
    /// 32-bit limbs, products in `UInt64`.
    static let limbs32 = #"""
        private func «modexp»(_ sig: [UInt8], _ mod: [UInt8]) -> [UInt8]? {
            var nb = ArraySlice(mod)
            while let first = nb.first, first == 0 { nb = nb.dropFirst() }
            let k = nb.count
            guard k >= 64, k <= 512, sig.count == k, let low = nb.last, low & 1 == 1 else { return nil }
            let s = (k + 3) / 4
            func limbs(_ bytes: ArraySlice<UInt8>) -> [UInt32] {
                var out = [UInt32](repeating: 0, count: s)
                var i = 0
                for byte in bytes.reversed() {
                    out[i >> 2] |= UInt32(byte) << UInt32((i & 3) * 8)
                    i += 1
                }
                return out
            }
            let n = limbs(nb)
            let a = limbs(ArraySlice(sig))
            func atLeastN(_ x: [UInt32]) -> Bool {
                var q = s - 1
                while q >= 0 {
                    if x[q] != n[q] { return x[q] > n[q] }
                    q -= 1
                }
                return true
            }
            func minusN(_ x: inout [UInt32]) {
                var borrow: UInt64 = 0
                for q in 0..<s {
                    let d = UInt64(x[q]) &- UInt64(n[q]) &- borrow
                    x[q] = UInt32(truncatingIfNeeded: d)
                    borrow = d >> 63
                }
            }
            guard !atLeastN(a) else { return nil }
            var inverse: UInt32 = 1
            for _ in 0..<5 { inverse = inverse &* (2 &- n[0] &* inverse) }
            let n0 = 0 &- inverse
            func mul(_ x: [UInt32], _ y: [UInt32]) -> [UInt32] {
                var t = [UInt32](repeating: 0, count: s + 2)
                for i in 0..<s {
                    var c: UInt64 = 0
                    let xi = UInt64(x[i])
                    for j in 0..<s {
                        let v = UInt64(t[j]) &+ xi &* UInt64(y[j]) &+ c
                        t[j] = UInt32(truncatingIfNeeded: v)
                        c = v >> 32
                    }
                    var v = UInt64(t[s]) &+ c
                    t[s] = UInt32(truncatingIfNeeded: v)
                    t[s + 1] = UInt32(truncatingIfNeeded: v >> 32)
                    let m = UInt64(t[0] &* n0)
                    v = UInt64(t[0]) &+ m &* UInt64(n[0])
                    c = v >> 32
                    var j = 1
                    while j < s {
                        v = UInt64(t[j]) &+ m &* UInt64(n[j]) &+ c
                        t[j - 1] = UInt32(truncatingIfNeeded: v)
                        c = v >> 32
                        j += 1
                    }
                    v = UInt64(t[s]) &+ c
                    t[s - 1] = UInt32(truncatingIfNeeded: v)
                    t[s] = t[s + 1] &+ UInt32(truncatingIfNeeded: v >> 32)
                    t[s + 1] = 0
                }
                var r = Array(t[0..<s])
                if t[s] != 0 || atLeastN(r) { minusN(&r) }
                return r
            }
            // R² mod n (R = 2^(32s)): n's top bit doubled up to 2^odd·R (odd: the odd part of 32s), then squared in
            // Montgomery form (2^e·R → 2^2e·R) until 2^(32s)·R.
            var odd = 32 * s
            var squarings = 0
            while odd % 2 == 0 {
                odd /= 2
                squarings += 1
            }
            let top = 31 - n[s - 1].leadingZeroBitCount
            var r2 = [UInt32](repeating: 0, count: s)
            r2[s - 1] = UInt32(1) << UInt32(top)
            for _ in 0..<(32 + odd - top) {
                var carry: UInt32 = 0
                for q in 0..<s {
                    let v = r2[q]
                    r2[q] = (v << 1) | carry
                    carry = v >> 31
                }
                if carry != 0 || atLeastN(r2) { minusN(&r2) }
            }
            for _ in 0..<squarings { r2 = mul(r2, r2) }
            let am = mul(a, r2)
            var x = am
            for _ in 0..<16 { x = mul(x, x) }
            x = mul(x, am)
            var one = [UInt32](repeating: 0, count: s)
            one[0] = 1
            x = mul(x, one)
            var out = [UInt8](repeating: 0, count: k)
            for i in 0..<k { out[k - 1 - i] = UInt8(truncatingIfNeeded: x[i >> 2] >> UInt32((i & 3) * 8)) }
            return out
        }
        """#

    /// 64-bit limbs, full-width products and reported carries.
    static let limbs64 = #"""
        private func «modexp»(_ sig: [UInt8], _ mod: [UInt8]) -> [UInt8]? {
            guard let lead = mod.firstIndex(where: { $0 != 0 }) else { return nil }
            let nb = Array(mod[lead...])
            let k = nb.count
            guard (64...512).contains(k), sig.count == k, nb[k - 1] % 2 == 1 else { return nil }
            let s = (k + 7) >> 3
            func words(_ bytes: [UInt8]) -> [UInt64] {
                var out = [UInt64](repeating: 0, count: s)
                for (i, byte) in bytes.enumerated() {
                    let bit = (k - 1 - i) * 8
                    out[bit >> 6] |= UInt64(byte) << UInt64(bit & 63)
                }
                return out
            }
            let n = words(nb)
            let a = words(sig)
            func compare(_ x: [UInt64]) -> Int {
                for q in stride(from: s - 1, through: 0, by: -1) where x[q] != n[q] {
                    return x[q] < n[q] ? -1 : 1
                }
                return 0
            }
            func subtract(_ x: [UInt64]) -> [UInt64] {
                var out = x
                var borrow = false
                for q in 0..<s {
                    let (d1, o1) = out[q].subtractingReportingOverflow(n[q])
                    let (d2, o2) = d1.subtractingReportingOverflow(borrow ? 1 : 0)
                    out[q] = d2
                    borrow = o1 || o2
                }
                return out
            }
            guard compare(a) < 0 else { return nil }
            var inv: UInt64 = 1
            for _ in 0..<6 { inv = inv &* (2 &- n[0] &* inv) }
            let n0 = ~inv &+ 1
            func montgomery(_ x: [UInt64], _ y: [UInt64]) -> [UInt64] {
                var t = [UInt64](repeating: 0, count: s + 2)
                for i in 0..<s {
                    var carry: UInt64 = 0
                    for j in 0..<s {
                        let (hi, lo) = x[i].multipliedFullWidth(by: y[j])
                        let (l1, o1) = lo.addingReportingOverflow(t[j])
                        let (l2, o2) = l1.addingReportingOverflow(carry)
                        t[j] = l2
                        carry = hi &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
                    }
                    let (top, over) = t[s].addingReportingOverflow(carry)
                    t[s] = top
                    t[s + 1] = over ? 1 : 0
                    let m = t[0] &* n0
                    var (hi, lo) = m.multipliedFullWidth(by: n[0])
                    var (sum, o) = lo.addingReportingOverflow(t[0])
                    carry = hi &+ (o ? 1 : 0)
                    for j in 1..<max(s, 1) {
                        (hi, lo) = m.multipliedFullWidth(by: n[j])
                        let (l1, o1) = lo.addingReportingOverflow(t[j])
                        let (l2, o2) = l1.addingReportingOverflow(carry)
                        t[j - 1] = l2
                        carry = hi &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
                    }
                    (sum, o) = t[s].addingReportingOverflow(carry)
                    t[s - 1] = sum
                    t[s] = t[s + 1] &+ (o ? 1 : 0)
                    t[s + 1] = 0
                }
                let r = Array(t[0..<s])
                return t[s] != 0 || compare(r) >= 0 ? subtract(r) : r
            }
            // R² mod n (R = 2^(64s)): 2^(bits of n - 1), doubled to 2^odd·R (odd: the odd part of 64s), then
            // squared in Montgomery form until 2^(64s)·R.
            var odd = 64 * s
            var squarings = 0
            while odd % 2 == 0 {
                odd /= 2
                squarings += 1
            }
            let top = 63 - n[s - 1].leadingZeroBitCount
            var r2 = [UInt64](repeating: 0, count: s)
            r2[s - 1] = UInt64(1) << UInt64(top)
            for _ in 0..<(64 + odd - top) {
                let carry = r2[s - 1] >> 63
                for q in stride(from: s - 1, to: 0, by: -1) { r2[q] = (r2[q] << 1) | (r2[q - 1] >> 63) }
                r2[0] <<= 1
                if carry != 0 || compare(r2) >= 0 { r2 = subtract(r2) }
            }
            for _ in 0..<squarings { r2 = montgomery(r2, r2) }
            let base = montgomery(a, r2)
            var acc = base
            for _ in 0..<16 { acc = montgomery(acc, acc) }
            acc = montgomery(acc, base)
            var unit = [UInt64](repeating: 0, count: s)
            unit[0] = 1
            acc = montgomery(acc, unit)
            return (0..<k).map { i in
                let bit = (k - 1 - i) * 8
                return UInt8(truncatingIfNeeded: acc[bit >> 6] >> UInt64(bit & 63))
            }
        }
        """#
}
