/// The receipt's structures for the generated validator: CMS SignedData, X.509 certificates and the payload. `k` is
/// the entry point's table of constants, decoded at run time; `k[«#name»]` is one of them.
enum StructureTemplates {
    /// `«cert»(der, k) -> (tbs, signatureAlgorithm OID, signature, serial, issuer, subject, notBefore ms,
    /// notAfter ms, modulus, exponent, extension OIDs)?` — an RSA certificate; anything else is `nil`.
    static let certificate = #"""
        private func «cert»(_ b: [UInt8], _ k: [[UInt8]]) -> ([UInt8], [UInt8], [UInt8], [UInt8], [UInt8], [UInt8], Int64, Int64, [UInt8], [UInt8], [[UInt8]])? {
            guard let top = «tlv»(b, 0, b.count, 0), top.0 == 0x30, top.3 == b.count,
                let parts = «kids»(b, top.1, top.2), parts.count == 3,
                parts[0].0 == 0x30, parts[1].0 == 0x30, parts[2].0 == 0x03,
                let algorithm = «kids»(b, parts[1].2, parts[1].3), let algorithmOID = algorithm.first, algorithmOID.0 == 0x06,
                parts[2].3 > parts[2].2, b[parts[2].2] == 0,
                var fields = «kids»(b, parts[0].2, parts[0].3)
            else { return nil }
            if let version = fields.first, version.0 == 0xA0 { fields.removeFirst() }
            guard fields.count >= 6, fields[0].0 == 0x02, fields[2].0 == 0x30, fields[3].0 == 0x30, fields[4].0 == 0x30,
                fields[5].0 == 0x30,
                let validity = «kids»(b, fields[3].2, fields[3].3), validity.count == 2,
                let notBefore = «asnTime»(b, validity[0]), let notAfter = «asnTime»(b, validity[1]),
                let spki = «kids»(b, fields[5].2, fields[5].3), spki.count == 2, spki[0].0 == 0x30, spki[1].0 == 0x03,
                let keyAlgorithm = «kids»(b, spki[0].2, spki[0].3), let keyOID = keyAlgorithm.first, keyOID.0 == 0x06,
                «diff»(Array(b[keyOID.2..<keyOID.3]), k[«#oidRSA»]) == 0,
                spki[1].3 > spki[1].2, b[spki[1].2] == 0,
                let key = «tlv»(b, spki[1].2 + 1, spki[1].3, 0), key.0 == 0x30, key.3 == spki[1].3,
                let numbers = «kids»(b, key.1, key.2), numbers.count == 2, numbers[0].0 == 0x02, numbers[1].0 == 0x02
            else { return nil }
            var extensions: [[UInt8]] = []
            for field in fields.dropFirst(6) where field.0 == 0xA3 {
                guard let wrapper = «tlv»(b, field.2, field.3, 0), wrapper.0 == 0x30,
                    let list = «kids»(b, wrapper.1, wrapper.2)
                else { return nil }
                for item in list {
                    guard item.0 == 0x30, let pieces = «kids»(b, item.2, item.3), let oid = pieces.first, oid.0 == 0x06
                    else { return nil }
                    extensions.append(Array(b[oid.2..<oid.3]))
                }
            }
            let tbs = Array(b[parts[0].1..<parts[0].4])
            let signatureAlgorithm = Array(b[algorithmOID.2..<algorithmOID.3])
            let signatureBits = Array(b[(parts[2].2 + 1)..<parts[2].3])
            let serial = Array(b[fields[0].2..<fields[0].3])
            let issuer = Array(b[fields[2].1..<fields[2].4])
            let subject = Array(b[fields[4].1..<fields[4].4])
            let modulus = Array(b[numbers[0].2..<numbers[0].3])
            let exponent = Array(b[numbers[1].2..<numbers[1].3])
            return (tbs, signatureAlgorithm, signatureBits, serial, issuer, subject, notBefore, notAfter, modulus, exponent, extensions)
        }
        """#

    /// `«cms»(receipt, k) -> (content, certificates, signer issuer, signer serial, digest OID, signature OID,
    /// signed attributes re-tagged as SET or empty, signature)?` — a ContentInfo with SignedData, id-data content
    /// and exactly one signer identified by issuer and serial number.
    static let container = #"""
        private func «cms»(_ b: [UInt8], _ k: [[UInt8]]) -> ([UInt8], [[UInt8]], [UInt8], [UInt8], [UInt8], [UInt8], [UInt8], [UInt8])? {
            guard let top = «tlv»(b, 0, b.count, 0), top.0 == 0x30, top.3 == b.count,
                let info = «kids»(b, top.1, top.2), info.count == 2, info[0].0 == 0x06, info[1].0 == 0xA0,
                «diff»(Array(b[info[0].2..<info[0].3]), k[«#oidSignedData»]) == 0,
                let inner = «kids»(b, info[1].2, info[1].3), inner.count == 1, inner[0].0 == 0x30,
                let signed = «kids»(b, inner[0].2, inner[0].3), signed.count >= 4,
                signed[0].0 == 0x02, signed[1].0 == 0x31, signed[2].0 == 0x30,
                let encapsulated = «kids»(b, signed[2].2, signed[2].3), encapsulated.count == 2,
                encapsulated[0].0 == 0x06, encapsulated[1].0 == 0xA0,
                «diff»(Array(b[encapsulated[0].2..<encapsulated[0].3]), k[«#oidData»]) == 0,
                let wrapped = «kids»(b, encapsulated[1].2, encapsulated[1].3), wrapped.count == 1,
                let content = «octets»(b, wrapped[0], 0),
                let last = signed.last, last.0 == 0x31,
                let signers = «kids»(b, last.2, last.3), signers.count == 1, signers[0].0 == 0x30,
                let signer = «kids»(b, signers[0].2, signers[0].3), signer.count >= 5,
                signer[0].0 == 0x02, signer[1].0 == 0x30, signer[2].0 == 0x30,
                let sid = «kids»(b, signer[1].2, signer[1].3), sid.count == 2, sid[0].0 == 0x30, sid[1].0 == 0x02,
                let digest = «kids»(b, signer[2].2, signer[2].3), let digestOID = digest.first, digestOID.0 == 0x06
            else { return nil }
            var certificates: [[UInt8]] = []
            for field in signed[3..<(signed.count - 1)] {
                switch field.0 {
                case 0xA0:
                    guard let list = «kids»(b, field.2, field.3) else { return nil }
                    for item in list {
                        guard item.0 == 0x30 else { return nil }
                        certificates.append(Array(b[item.1..<item.4]))
                    }
                case 0xA1:
                    continue
                default:
                    return nil
                }
            }
            var at = 3
            var attributes: [UInt8] = []
            if signer[3].0 == 0xA0 {
                attributes = Array(b[signer[3].1..<signer[3].4])
                attributes[0] = 0x31
                at = 4
            }
            guard signer.count > at + 1, signer[at].0 == 0x30, signer[at + 1].0 == 0x04,
                signer.count == at + 2 || (signer.count == at + 3 && signer[at + 2].0 == 0xA1),
                let algorithm = «kids»(b, signer[at].2, signer[at].3), let signatureOID = algorithm.first, signatureOID.0 == 0x06
            else { return nil }
            let issuer = Array(b[sid[0].1..<sid[0].4])
            let serial = Array(b[sid[1].2..<sid[1].3])
            let digestAlgorithm = Array(b[digestOID.2..<digestOID.3])
            let signatureAlgorithm = Array(b[signatureOID.2..<signatureOID.3])
            let signatureBytes = Array(b[signer[at + 1].2..<signer[at + 1].3])
            return (content, certificates, issuer, serial, digestAlgorithm, signatureAlgorithm, attributes, signatureBytes)
        }
        """#

    /// `«signedAttributes»(attributes, contentDigest, k) -> UInt64`: 0 when the re-tagged signed attributes hold
    /// exactly one content-type (id-data) and one message-digest (equal to `contentDigest`), each single-valued.
    static let signedAttributes = #"""
        private func «signedAttributes»(_ a: [UInt8], _ digest: [UInt8], _ k: [[UInt8]]) -> UInt64 {
            guard let set = «tlv»(a, 0, a.count, 0), set.3 == a.count, let list = «kids»(a, set.1, set.2) else { return 1 }
            var digests = 0
            var types = 0
            var bad: UInt64 = 0
            for item in list {
                guard item.0 == 0x30, let pair = «kids»(a, item.2, item.3), pair.count == 2, pair[0].0 == 0x06, pair[1].0 == 0x31,
                    let values = «kids»(a, pair[1].2, pair[1].3)
                else { return 1 }
                let type = Array(a[pair[0].2..<pair[0].3])
                if «diff»(type, k[«#oidMessageDigest»]) == 0 {
                    digests += 1
                    guard values.count == 1, values[0].0 == 0x04 else { return 1 }
                    bad |= «diff»(Array(a[values[0].2..<values[0].3]), digest)
                } else if «diff»(type, k[«#oidContentType»]) == 0 {
                    types += 1
                    guard values.count == 1, values[0].0 == 0x06 else { return 1 }
                    bad |= «diff»(Array(a[values[0].2..<values[0].3]), k[«#oidData»])
                }
            }
            return digests == 1 && types == 1 ? bad : 1
        }
        """#

    /// `«payload»(content) -> (bundle id, bundle id raw value, version, opaque, hash, creation ms or -1,
    /// expiration ms or -1, product ids (slices of the content), environment)?` — `nil` when the SET of attributes
    /// does not walk, a used attribute repeats, or a string or date is malformed.
    ///
    /// The walk is most of a large receipt's parsing: a receipt with 187 purchases has about 2,300 attributes. A
    /// short-form header is read in place (a call to «tlv» for each of an attribute's four headers cost more than the
    /// reading), no purchase allocates (its attributes go to one reused array, its product id stays a slice of the
    /// content), the content's bounds are checked once per walk instead of in every header, and positions that cannot
    /// overflow use wrapping arithmetic. Each of these made the walk faster, the first two a generation's validations
    /// too; marking the walk hot, with sparse decoys, changed nothing. The figures are in the ReceiptCodegen catalog's
    /// Measurements article.
    static let payload = #"""
        private func «payload»(_ c: [UInt8]) -> ([UInt8], [UInt8], [UInt8], [UInt8], [UInt8], Int64, Int64, [ArraySlice<UInt8>], [UInt8])? {
            // The SEQUENCEs {type, version, value} that exactly fill s..<e, read in place: (type, value start, value
            // end) of the attributes of type `only`, or of every type when it is negative, into `out` (emptied first).
            func attributes(_ s: Int, _ e: Int, _ only: Int, _ out: inout [(Int, Int, Int)]) -> Bool {
                // The element at p, ending by end: a short-form length read here, any other through «tlv» (the same
                // result either way). Every p and end lies in s...e, checked once below to lie in the content, so
                // positions plus a short length (at most 257) cannot overflow.
                @inline(__always)
                func element(_ p: Int, _ end: Int) -> (UInt8, Int, Int, Int)? {
                    if p &+ 1 < end, c[p &+ 1] < 0x80, c[p] & 0x1F != 0x1F {
                        let q = p &+ 2 &+ Int(c[p &+ 1])
                        return q <= end ? (c[p], p &+ 2, q, q) : nil
                    }
                    return «tlv»(c, p, end, 0)
                }
                guard s >= 0, e <= c.count else { return false }
                out.removeAll(keepingCapacity: true)
                var p = s
                var count = 0
                while p < e {
                    guard count < 4096, let item = element(p, e), item.0 == 0x30,
                        let f0 = element(item.1, item.2), f0.0 == 0x02, f0.2 &- f0.1 >= 1, f0.2 &- f0.1 <= 4,
                        let f1 = element(f0.3, item.2), f1.0 == 0x02,
                        let f2 = element(f1.3, item.2), f2.0 == 0x04, f2.3 == item.2
                    else { return false }
                    var type = Int(Int8(bitPattern: c[f0.1]))
                    var i = f0.1 &+ 1
                    while i < f0.2 {
                        type = type << 8 | Int(c[i])
                        i &+= 1
                    }
                    if only < 0 || type == only { out.append((type, f2.1, f2.2)) }
                    count &+= 1
                    p = item.3
                }
                return true
            }
            func text(_ s: Int, _ e: Int) -> ArraySlice<UInt8>? {
                guard let t = «tlv»(c, s, e, 0), t.3 == e, t.0 == 0x0C || t.0 == 0x16 || t.0 == 0x13 else { return nil }
                return c[t.1..<t.2]
            }
            func date(_ s: Int, _ e: Int) -> Int64? {
                guard let t = text(s, e) else { return nil }
                return t.isEmpty ? -1 : «rfc3339»(Array(t))
            }
            var top: [(Int, Int, Int)] = []
            var fields: [(Int, Int, Int)] = []
            guard let set = «tlv»(c, 0, c.count, 0), set.0 == 0x31, set.3 == c.count, attributes(set.1, set.2, -1, &top)
            else { return nil }
            var seen = Set<Int>()
            var bundle: [UInt8] = []
            var bundleRaw: [UInt8] = []
            var version: [UInt8] = []
            var opaque: [UInt8] = []
            var hash: [UInt8] = []
            var created: Int64 = -1
            var expires: Int64 = -1
            var products: [ArraySlice<UInt8>] = []
            var environment: [UInt8] = []
            for (type, s, e) in top {
                if type != 17 {
                    guard !seen.contains(type) || ![0, 1, 2, 3, 4, 5, 10, 12, 15, 16, 18, 19, 21].contains(type) else { return nil }
                    seen.insert(type)
                }
                switch type {
                case 0:
                    guard let t = text(s, e) else { return nil }
                    environment = Array(t)
                case 2:
                    guard let t = text(s, e) else { return nil }
                    bundle = Array(t)
                    bundleRaw = Array(c[s..<e])
                case 3:
                    guard let t = text(s, e) else { return nil }
                    version = Array(t)
                case 4:
                    opaque = Array(c[s..<e])
                case 5:
                    hash = Array(c[s..<e])
                case 12:
                    guard let d = date(s, e) else { return nil }
                    created = d
                case 21:
                    guard let d = date(s, e) else { return nil }
                    expires = d
                case 17:
                    guard let inner = «tlv»(c, s, e, 0), inner.0 == 0x31, inner.3 == e, attributes(inner.1, inner.2, 1702, &fields)
                    else { return nil }
                    var product: ArraySlice<UInt8>?
                    for (_, fs, fe) in fields {
                        guard product == nil, let t = text(fs, fe) else { return nil }
                        product = t
                    }
                    if let product { products.append(product) }
                default:
                    continue
                }
            }
            return (bundle, bundleRaw, version, opaque, hash, created, expires, products, environment)
        }
        """#
}
