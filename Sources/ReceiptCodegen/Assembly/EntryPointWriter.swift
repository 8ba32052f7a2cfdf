import Foundation

/// Writes one entry point: a complete, independent implementation of receipt validation — its own primitives (each a
/// variant drawn for it), its own masked constants, its checks in an order of its own — as
/// `«entry»(receipt, device, nowMilliseconds) -> UInt64`, a token equal to ``Written/expectedToken`` exactly when
/// every check passed.
struct EntryPointWriter {
    struct Written {
        var source: String
        var entryName: String
        var expectedToken: UInt64
        /// The variant of each ``PrimitiveCatalog`` family this entry point carries, by family.
        var variants: [String: Int]
    }

    let options: CodegenOptions

    /// The chance in percent that a place where a statement or a condition clause may stand gets a decoy.
    static let decoyDensity = 70

    /// Object identifiers and fixed byte strings the checks compare against.
    static let fixedConstants: [(String, [UInt8])] = [
        ("oidSignedData", [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]),
        ("oidData", [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]),
        ("oidRSA", [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]),
        ("oidSHA1RSA", [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x05]),
        ("oidSHA256RSA", [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B]),
        ("oidSHA1", [0x2B, 0x0E, 0x03, 0x02, 0x1A]),
        ("oidSHA256", [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]),
        ("oidMessageDigest", [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x04]),
        ("oidContentType", [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x03]),
        ("markerLeaf", [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x63, 0x64, 0x06, 0x0B, 0x01]),
        ("markerWWDR", [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x63, 0x64, 0x06, 0x02, 0x01]),
        ("prefix1", [0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2B, 0x0E, 0x03, 0x02, 0x1A, 0x05, 0x00, 0x04, 0x14]),
        (
            "prefix256",
            [0x30, 0x31, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20]
        ),
        ("exponent", [0x01, 0x00, 0x01]),
        ("environmentXcode", Array("Xcode".utf8)),
    ]

    func write(
        index: Int,
        names pool: inout IdentifierPool,
        dialect: Dialect,
        random: inout SeededGenerator
    ) throws(CodegenError) -> Written {
        var names: [String: String] = [:]
        for logical in [
            "tlv", "kids", "octets", "sha1", "sha256", "diff", "modexp", "civil", "monthDays", "digits", "asnTime", "rfc3339",
            "cert", "cms", "signedAttributes", "payload", "pkcs1", "verify", "constants", "entry", "opaque",
        ] {
            names[logical] = pool.fresh(using: &random)
        }

        var constants = MaskedConstants()
        for (name, bytes) in Self.fixedConstants { constants.add(name, bytes) }
        constants.add("bundle", Array(self.options.bundleIdentifier.utf8))
        constants.add("version", Array(self.options.appVersion.utf8))
        constants.add("root", self.options.rootFingerprint)
        if self.options.allowsXcodeReceipts { constants.add("xcode", self.options.xcodeFingerprint) }
        for (i, product) in self.options.requiredProducts.enumerated() { constants.add("product\(i)", Array(product.utf8)) }
        constants.shuffle(using: &random)

        let drawn = PrimitiveCatalog.draw(using: &random)
        var variants: [String: Int] = [:]
        for (family, template) in zip(PrimitiveCatalog.variants, drawn) {
            variants[family.family] = family.templates.firstIndex(of: template)
        }
        let primitives: [String] = drawn + [
            TimeTemplates.civil, TimeTemplates.monthLength, TimeTemplates.digits, TimeTemplates.asnTime, TimeTemplates.rfc3339,
            StructureTemplates.certificate, StructureTemplates.container, StructureTemplates.signedAttributes,
            StructureTemplates.payload, Self.pkcs1, Self.verify,
        ]
        let renderer = TemplateRenderer(names: names, constants: constants, dialect: dialect)
        var pieces: [String] = []
        let decoys = DecoyWriter(density: Self.decoyDensity, dialect: dialect)
        let style = StyleRewriter(dialect: dialect)
        let tight = TightLoopRewriter()
        for template in random.shuffled(primitives) {
            let rendered = tight.rewrite(try renderer.render(template, using: &random), using: &random)
            pieces.append(decoys.write(style.rewrite(rendered), using: &random))
        }
        let table = constants.render(name: names["constants"] ?? "k", dialect: dialect, using: &random)
        pieces.append(decoys.write(table, using: &random))
        let (entry, expected) = try self.entry(renderer: renderer, names: names, dialect: dialect, random: &random)
        pieces.append(decoys.write(style.rewrite(entry), using: &random))
        return Written(
            source: "// MARK: - \(index + 1)\n\n" + pieces.joined(separator: "\n\n"),
            entryName: names["entry"] ?? "",
            expectedToken: expected,
            variants: variants
        )
    }

    /// `«pkcs1»(m, prefix, digest) -> UInt64`: 0 when `m` is the PKCS #1 v1.5 encoding of the DigestInfo.
    static let pkcs1 = #"""
        private func «pkcs1»(_ m: [UInt8], _ prefix: [UInt8], _ digest: [UInt8]) -> UInt64 {
            let t = prefix + digest
            guard m.count >= t.count + 11 else { return 1 }
            var expected = [UInt8](repeating: 0xFF, count: m.count)
            expected[0] = 0
            expected[1] = 1
            expected[m.count - t.count - 1] = 0
            for (i, v) in t.enumerated() { expected[m.count - t.count + i] = v }
            return «diff»(m, expected)
        }
        """#

    /// `«verify»(data, sha256, signature, modulus, exponent, k) -> UInt64`: 0 for a valid RSA PKCS #1 v1.5 signature.
    static let verify = #"""
        private func «verify»(_ data: [UInt8], _ sha256: Bool, _ sig: [UInt8], _ n: [UInt8], _ e: [UInt8], _ k: [[UInt8]]) -> UInt64 {
            guard «diff»(e, k[«#exponent»]) == 0, let m = «modexp»(sig, n) else { return 1 }
            return sha256 ? «pkcs1»(m, k[«#prefix256»], «sha256»(data)) : «pkcs1»(m, k[«#prefix1»], «sha1»(data))
        }
        """#

    /// The entry function: preparation, then every check in a random order, some behind opaque predicates with decoys.
    private func entry(
        renderer: TemplateRenderer,
        names: [String: String],
        dialect: Dialect,
        random: inout SeededGenerator
    ) throws(CodegenError) -> (String, UInt64) {
        let start = random.next()
        let multiplier = random.next() | 1
        var token = start
        var parseFailure = random.next()
        var blocks: [String] = []

        var checks: [String] = [
            "fold(«diff»(p.0, k[«#bundle»]), @C)",
            "fold(«diff»(p.2, k[«#version»]), @C)",
            "fold(«diff»(«sha1»(device + p.3 + p.1), p.4), @C)",
            "fold(p.6 >= 0 && p.6 < now ? 1 : 0, @C)",
            "fold(signature, @C)",
            "fold(path.isEmpty ? 1 : 0, @C)",
            "fold(markers, @C)",
            "fold(expired, @C)",
        ]
        if !self.options.allowsXcodeReceipts {
            checks.append("fold(«diff»(p.8, k[«#environmentXcode»]) == 0 ? 1 : 0, @C)")
        }
        for i in self.options.requiredProducts.indices {
            checks.append("fold(p.7.contains(where: { «diff»(Array($0), k[«#product\(i)»]) == 0 }) ? 0 : 1, @C)")
        }
        for check in random.shuffled(checks) {
            let c = random.next()
            token = token &* multiplier &+ c
            var line = check.replacingOccurrences(of: "@C", with: "0x" + String(c, radix: 16))
            if random.below(3) == 0 {
                let decoy = random.next()
                let salt = random.next()
                line = """
                    if «opaque»(UInt64(truncatingIfNeeded: receipt.count) &* 0x\(String(salt | 1, radix: 16)) &+ UInt64(truncatingIfNeeded: now)) {
                        \(line)
                    } else {
                        token = token ^ 0x\(String(decoy, radix: 16))
                    }
                    """
            }
            blocks.append(line)
        }
        // What malformed input returns must never be the token of a receipt that passed every check.
        while parseFailure == token { parseFailure = random.next() }

        let shift = random.pick(40...52)
        let xcodePath =
            self.options.allowsXcodeReceipts
            ? """
            var xcode = false
            if signer >= 0, «diff»(«sha256»(certs[signer].0), k[«#xcode»]) == 0 {
                path = [signer]
                xcode = true
            }
            """ : ""
        let xcodeMarkers = self.options.allowsXcodeReceipts ? " else if xcode {\n        markers = 0\n    }" : ""
        let opaque = DecoyWriter.predicate(true, "x", dialect: dialect, using: &random)
        var body = """
            private func «entry»(_ receipt: [UInt8], _ device: [UInt8], _ now: Int64) -> UInt64 {
                func «opaque»(_ x: UInt64) -> Bool { \(opaque) }
                let k = «constants»(\(dialect.wideZero ? "UInt64(truncatingIfNeeded: receipt.count >> \(shift))" : "receipt.count >> \(shift)"))
                var token: UInt64 = 0x\(String(start, radix: 16))
                func fold(_ v: UInt64, _ c: UInt64) {
                    token = token &* 0x\(String(multiplier, radix: 16)) &+ (c ^ ((v | (0 &- v)) >> 63))
                }
                guard let c = «cms»(receipt, k), let p = «payload»(c.0) else { return 0x\(String(parseFailure, radix: 16)) }
                var certs: [([UInt8], ([UInt8], [UInt8], [UInt8], [UInt8], [UInt8], [UInt8], Int64, Int64, [UInt8], [UInt8], [[UInt8]]))] = []
                for der in c.1 {
                    guard let parsed = «cert»(der, k) else { return 0x\(String(parseFailure, radix: 16)) }
                    certs.append((der, parsed))
                }
                var signer = -1
                for (i, entry) in certs.enumerated() where signer < 0 {
                    if «diff»(entry.1.4, c.2) == 0, «diff»(entry.1.3, c.3) == 0 { signer = i }
                }
                func signs(_ child: Int, _ parent: Int) -> Bool {
                    let algorithm = certs[child].1.1
                    let sha256 = «diff»(algorithm, k[«#oidSHA256RSA»]) == 0
                    guard sha256 || «diff»(algorithm, k[«#oidSHA1RSA»]) == 0 else { return false }
                    return «verify»(certs[child].1.0, sha256, certs[child].1.2, certs[parent].1.8, certs[parent].1.9, k) == 0
                }
                var path: [Int] = []
                \(xcodePath)
                if path.isEmpty, signer >= 0 {
                    for mid in certs.indices where path.isEmpty && mid != signer {
                        guard «diff»(certs[mid].1.5, certs[signer].1.4) == 0, signs(signer, mid) else { continue }
                        for top in certs.indices where path.isEmpty && top != mid && top != signer {
                            guard «diff»(certs[top].1.5, certs[mid].1.4) == 0, «diff»(«sha256»(certs[top].0), k[«#root»]) == 0,
                                signs(mid, top)
                            else { continue }
                            path = [signer, mid, top]
                        }
                    }
                }
                var signature: UInt64 = 1
                if signer >= 0 {
                    let leaf = certs[signer].1
                    let sha256 = «diff»(c.4, k[«#oidSHA256»]) == 0
                    let sha1 = «diff»(c.4, k[«#oidSHA1»]) == 0
                    let matching =
                        «diff»(c.5, k[«#oidRSA»]) == 0 || (sha256 && «diff»(c.5, k[«#oidSHA256RSA»]) == 0)
                        || (sha1 && «diff»(c.5, k[«#oidSHA1RSA»]) == 0)
                    if matching, sha1 || sha256 {
                        if c.6.isEmpty {
                            signature = «verify»(c.0, sha256, c.7, leaf.8, leaf.9, k)
                        } else {
                            let digest = sha256 ? «sha256»(c.0) : «sha1»(c.0)
                            signature = «signedAttributes»(c.6, digest, k) | «verify»(c.6, sha256, c.7, leaf.8, leaf.9, k)
                        }
                    }
                }
                var markers: UInt64 = 1
                if path.count == 3 {
                    let leafMarked = certs[path[0]].1.10.contains(where: { «diff»($0, k[«#markerLeaf»]) == 0 })
                    let midMarked = certs[path[1]].1.10.contains(where: { «diff»($0, k[«#markerWWDR»]) == 0 })
                    markers = leafMarked && midMarked ? 0 : 1
                }\(xcodeMarkers)
                let when = p.5 >= 0 ? p.5 : now
                var expired: UInt64 = path.isEmpty ? 1 : 0
                for i in path where certs[i].1.6 > when || certs[i].1.7 < when { expired = 1 }

            """
        body += blocks.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n") }
            .joined(separator: "\n")
        body += "\n    return token\n}"

        return (try renderer.render(body, using: &random), token)
    }
}
