/// Every primitive family of the generated validator with its real variants, as the generator draws from them and
/// the tests check them (each variant against swift-crypto or against the other).
enum PrimitiveCatalog {
    /// Families with more than one implementation, by the logical name their templates define.
    static let variants: [(family: String, templates: [String])] = [
        ("tlv", [DERTemplates.tlvRecursive, DERTemplates.tlvCounting]),
        ("kids", [DERTemplates.kidsWhile, DERTemplates.kidsRepeat]),
        ("octets", [DERTemplates.octetsRecursive, DERTemplates.octetsStack]),
        ("sha1", [HashTemplates.sha1SingleAssignment, HashTemplates.sha1InPlace]),
        ("sha256", [HashTemplates.sha256Schedule, HashTemplates.sha256Circular]),
        ("diff", [CompareTemplates.xorFold, CompareTemplates.squareSum]),
        ("modexp", [BigNumberTemplates.interleaved, BigNumberTemplates.productScanning]),
    ]

    /// One implementation of each family, drawn at random.
    static func draw(using random: inout SeededGenerator) -> [String] {
        self.variants.map { random.element($0.templates) }
    }
}
