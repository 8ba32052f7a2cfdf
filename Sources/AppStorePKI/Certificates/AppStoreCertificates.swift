/// The certificates a signed object carries (a receipt's CMS certificates, a JWS's `x5c`), in order, each parsed
/// once: found in the trust cache among those that formed a trusted path before, or parsed here.
///
/// The first step of both verifiers: parse, check the signature with the signer's key, then — for a signature that
/// verified — ask ``ChainEvaluator/evaluate(_:signer:marker:at:)`` about the chain.
public struct AppStoreCertificates: Sendable {
    /// Each certificate's DER as carried, with its parsed form.
    let entries: [(der: ArraySlice<UInt8>, parsed: ParsedCertificate)]

    /// Parses `certificates` (DER), taking from `cache` those it holds.
    /// - Throws: ``MalformedCertificateError`` when one does not parse.
    public init(
        derEncoded certificates: some Collection<ArraySlice<UInt8>>,
        cache: AppStoreTrustCache?
    ) throws(MalformedCertificateError) {
        var entries: [(der: ArraySlice<UInt8>, parsed: ParsedCertificate)] = []
        entries.reserveCapacity(certificates.count)
        for der in certificates {
            if let cached = cache?.certificate(der) {
                entries.append((der, cached))
            } else {
                entries.append((der, try ParsedCertificate(derEncoded: der)))
            }
        }
        self.entries = entries
    }

    /// The parsed certificates, in the order carried.
    public var parsed: [ParsedCertificate] { self.entries.map(\.parsed) }

    /// The number of certificates.
    public var count: Int { self.entries.count }

    /// The parsed certificate at `index` (in the order carried), or `nil` when out of range.
    public subscript(_ index: Int) -> ParsedCertificate? {
        self.entries.indices.contains(index) ? self.entries[index].parsed : nil
    }

    /// The index of the first certificate satisfying `predicate`.
    public func firstIndex(where predicate: (ParsedCertificate) throws -> Bool) rethrows -> Int? {
        try self.entries.firstIndex { try predicate($0.parsed) }
    }
}
