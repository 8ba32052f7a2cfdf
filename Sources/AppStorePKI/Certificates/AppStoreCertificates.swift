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
    public init(derEncoded certificates: [ArraySlice<UInt8>], cache: AppStoreTrustCache?) throws(MalformedCertificateError) {
        var entries: [(der: ArraySlice<UInt8>, parsed: ParsedCertificate)] = []
        entries.reserveCapacity(certificates.count)
        for der in certificates {
            entries.append((der, try Self.parse(der, cache)))
        }
        self.entries = entries
    }

    /// Parses `certificates` (DER, each a whole array, as a JWS's `x5c` decodes), taking from `cache` those it holds.
    /// - Throws: ``MalformedCertificateError`` when one does not parse.
    public init(derEncoded certificates: [[UInt8]], cache: AppStoreTrustCache?) throws(MalformedCertificateError) {
        var entries: [(der: ArraySlice<UInt8>, parsed: ParsedCertificate)] = []
        entries.reserveCapacity(certificates.count)
        for certificate in certificates {
            entries.append((certificate[...], try Self.parse(certificate[...], cache)))
        }
        self.entries = entries
    }

    // Concrete collections on purpose: a generic initializer called from another module runs unspecialized, and
    // allocates on the cached path.
    private static func parse(_ der: ArraySlice<UInt8>, _ cache: AppStoreTrustCache?) throws(MalformedCertificateError) -> ParsedCertificate {
        if let cached = cache?.certificate(der) { return cached }
        return try ParsedCertificate(derEncoded: der)
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
