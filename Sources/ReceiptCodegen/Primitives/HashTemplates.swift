/// SHA-1 and SHA-256 for the generated validator, two real variants each: `«sha1»(m) -> [UInt8]` (20 bytes) and
/// `«sha256»(m) -> [UInt8]` (32 bytes). `«T:name»` is a constant table the generator writes in its own way, `«U:name»`
/// SHA-1's unrolled rounds, written per generation (``SHA1Rounds``).
enum HashTemplates {
    /// Blocks read in place from the message, the tail padded in a block of its own, the state in one allocation, and
    /// the 80 rounds unrolled with a new constant for every value (``SHA1Rounds/Form/singleAssignment``), written per
    /// generation: much faster than the loop variants it replaced, an 80-word schedule or a circular one in memory (see
    /// ``SHA1Rounds``; the figures are in the ReceiptCodegen catalog's Measurements article).
    static let sha1SingleAssignment = sha1Unrolled(
        #"""
                // unrolled
                do {
                    «U:sha1SingleAssignment»
                }
        """#
    )

    /// As ``sha1SingleAssignment``, with the state in five variables updated in place and the schedule in sixteen
    /// (``SHA1Rounds/Form/inPlace``); about as fast (the ReceiptCodegen catalog's Measurements article).
    static let sha1InPlace = sha1Unrolled(
        #"""
                // unrolled
                do {
                    «U:sha1InPlace»
                }
        """#
    )

    /// An unrolled SHA-1 around `compress`'s body: whole blocks read where the message lies (no copy), the last one
    /// or two padded in a buffer of their own.
    private static func sha1Unrolled(_ compress: String) -> String {
        #"""
        private func «sha1»(_ m: [UInt8]) -> [UInt8] {
            let iv: [UInt32] = «T:sha1H»
            let h = UnsafeMutablePointer<UInt32>.allocate(capacity: 5)
            defer { h.deallocate() }
            h.initialize(repeating: 0, count: 5)
            for j in 0..<5 { h[j] = iv[j] }
            func compress(_ h: UnsafeMutablePointer<UInt32>, _ p: UnsafeRawPointer) {
                let k0: UInt32 = 0x5A827999
                let k1: UInt32 = 0x6ED9EBA1
                let k2: UInt32 = 0x8F1BBCDC
                let k3: UInt32 = 0xCA62C1D6

        """# + compress + #"""

            }
            let full = m.count / 64
            m.withUnsafeBytes { raw in
                if let base = raw.baseAddress { for n in 0..<full { compress(h, base + 64 * n) } }
            }
            let rest = m.count - 64 * full
            let end = rest < 56 ? 64 : 128
            var tail = [UInt8](repeating: 0, count: end)
            for j in 0..<rest { tail[j] = m[64 * full + j] }
            tail[rest] = 0x80
            let bits = UInt64(m.count) << 3
            for j in 0..<8 { tail[end - 1 - j] = UInt8(truncatingIfNeeded: bits >> UInt64(8 * j)) }
            for n in 0..<(end / 64) {
                tail.withUnsafeBytes { raw in
                    if let base = raw.baseAddress { compress(h, base + 64 * n) }
                }
            }
            var out = [UInt8]()
            for j in 0..<20 { out.append(UInt8(truncatingIfNeeded: h[j >> 2] >> UInt32(24 - 8 * (j & 3)))) }
            return out
        }
        """#
    }

    /// The padded message materialized in one allocation, a 64-word schedule and the round constants in another,
    /// eight named working variables, rotated in two halves. (Rotated one assignment a line, they were eight lines of
    /// the same shape in every generation with this variant; two generations' sparse decoys among them once drew
    /// the same shape in the same place, a run of seven lines the diversity proof refused.)
    static let sha256Schedule = #"""
        private func «sha256»(_ m: [UInt8]) -> [UInt8] {
            let kk: [UInt32] = «T:sha256K»
            let iv: [UInt32] = «T:sha256H»
            let total = (m.count + 72) / 64 * 64
            let msg = UnsafeMutablePointer<UInt8>.allocate(capacity: total)
            defer { msg.deallocate() }
            msg.initialize(repeating: 0, count: total)
            let bits: UInt64 = UInt64(m.count) &* 8
            for i in 0..<8 { msg[total - 8 + i] = UInt8(truncatingIfNeeded: bits >> (UInt64(7 - i) * 8)) }
            msg[m.count] = 0x80
            msg.update(from: m, count: m.count)
            func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
            let w = UnsafeMutablePointer<UInt32>.allocate(capacity: 128)
            defer { w.deallocate() }
            w.initialize(repeating: 0, count: 128)
            for i in 0..<64 { w[64 + i] = kk[i] }
            var h = (iv[0], iv[1], iv[2], iv[3], iv[4], iv[5], iv[6], iv[7])
            var block = 0
            while block < total {
                // hot
                for i in 0..<16 {
                    let o = block + 4 * i
                    w[i] = UInt32(msg[o]) << 24 | UInt32(msg[o + 1]) << 16 | UInt32(msg[o + 2]) << 8 | UInt32(msg[o + 3])
                }
                // hot
                for i in 16..<64 {
                    let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                    let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                    w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                }
                var a = h.0
                var b = h.1
                var c = h.2
                var d = h.3
                var e = h.4
                var f = h.5
                var g = h.6
                var hh = h.7
                // hot
                for i in 0..<64 {
                    let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                    let ch = (e & f) ^ (~e & g)
                    let t1 = hh &+ s1 &+ ch &+ w[64 + i] &+ w[i]
                    let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                    let maj = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = s0 &+ maj
                    (hh, g, f, e) = (g, f, e, d &+ t1)
                    (d, c, b, a) = (c, b, a, t1 &+ t2)
                }
                h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e, h.5 &+ f, h.6 &+ g, h.7 &+ hh)
                block += 64
            }
            var out = [UInt8]()
            out.reserveCapacity(32)
            for v in [h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7] {
                for s in stride(from: 24, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: v >> UInt32(s))) }
            }
            return out
        }
        """#

    /// Blocks read in place, the tail padded separately, a 16-word circular schedule, the state and the round constants
    /// in one allocation (with decoys sparse in the rounds, faster than with the state in an array; the ReceiptCodegen
    /// catalog's Measurements article gives the figures).
    static let sha256Circular = #"""
        private func «sha256»(_ m: [UInt8]) -> [UInt8] {
            let kk: [UInt32] = «T:sha256K»
            let iv: [UInt32] = «T:sha256H»
            let size: UInt64 = UInt64(m.count)
            let w = UnsafeMutablePointer<UInt32>.allocate(capacity: 88)
            defer { w.deallocate() }
            w.initialize(repeating: 0, count: 88)
            for j in 0..<64 { w[24 + j] = kk[j] }
            for j in 0..<8 { w[16 + j] = iv[j] }
            func ror(_ x: UInt32, _ n: UInt32) -> UInt32 { (x &>> n) | (x &<< (32 &- n)) }
            func compress(_ src: UnsafeRawPointer, _ at: Int) {
                // hot
                for j in 0..<16 {
                    w[j] = src.loadUnaligned(fromByteOffset: at + 4 * j, as: UInt32.self).bigEndian
                }
                var a = w[16]
                var b = w[17]
                var c = w[18]
                var d = w[19]
                var e = w[20]
                var f = w[21]
                var g = w[22]
                var hh = w[23]
                // hot
                for i in 0..<64 {
                    if i >= 16 {
                        let x = w[(i + 1) & 15]
                        let y = w[(i + 14) & 15]
                        w[i & 15] = w[i & 15] &+ (ror(x, 7) ^ ror(x, 18) ^ (x >> 3)) &+ w[(i + 9) & 15] &+ (ror(y, 17) ^ ror(y, 19) ^ (y >> 10))
                    }
                    let t1 = hh &+ (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) &+ (g ^ (e & (f ^ g))) &+ w[24 + i] &+ w[i & 15]
                    let t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) &+ ((a & b) | (c & (a | b)))
                    (a, b, c, d, e, f, g, hh) = (t1 &+ t2, a, b, c, d &+ t1, e, f, g)
                }
                w[16] &+= a
                w[17] &+= b
                w[18] &+= c
                w[19] &+= d
                w[20] &+= e
                w[21] &+= f
                w[22] &+= g
                w[23] &+= hh
            }
            let copy = UnsafeMutableRawPointer.allocate(byteCount: max(m.count, 1), alignment: 8)
            defer { copy.deallocate() }
            copy.copyMemory(from: m, byteCount: m.count)
            var offset = 0
            while m.count - offset >= 64 {
                compress(copy, offset)
                offset += 64
            }
            let rest = m.count - offset
            let blocks = rest < 56 ? 1 : 2
            var last = [UInt8](repeating: 0, count: 64 * blocks)
            for j in 0..<rest { last[j] = m[offset + j] }
            last[rest] = 0x80
            var length = size << 3
            var position = last.count - 1
            while length != 0 {
                last[position] = UInt8(length & 0xFF)
                length >>= 8
                position -= 1
            }
            for b in 0..<blocks { last.withUnsafeBytes { if let base = $0.baseAddress { compress(base, 64 * b) } } }
            var out = [UInt8](repeating: 0, count: 32)
            for j in 0..<32 { out[j] = UInt8(truncatingIfNeeded: w[16 + (j >> 2)] >> UInt32(24 - 8 * (j & 3))) }
            return out
        }
        """#

    /// Initial hash values and round constants, written into the generated source by ``ConstantTable``.
    static let tables: [String: [UInt32]] = [
        "sha1H": [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0],
        "sha256H": [0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19],
        "sha256K": [
            0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
            0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
            0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
            0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
            0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
            0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
            0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
            0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
        ],
    ]
}
