/// A bounded, thread-safe cache of parsed certificates and of path-validation outcomes.
///
/// The same handful of Apple certificates sign millions of receipts. Without a cache, each receipt pays for
/// parsing three certificates and for three RSA verifications (two in the chain, one over the content). With it, a
/// receipt whose certificates were seen before costs one RSA verification — the content signature — while the
/// validity windows of its chain are still checked at that receipt's own validation time.
///
/// Only what validated is admitted: certificates enter the cache, and an outcome is stored, only when they formed a
/// trusted path for a receipt whose signature verified. A stream of hostile receipts with made-up certificates
/// therefore cannot evict Apple's. Certificates are keyed by their exact DER bytes (hashed whole, with a per-process
/// seed), outcomes by the SHA-256 fingerprints of the receipt's certificates, the signer and the anchor set. Share
/// one cache between validators; use ``ReceiptValidator/init(policy:cache:decodingConfiguration:)`` with `nil` to
/// validate without one.
public final class ReceiptTrustCache: Sendable {
    /// The most entries of each kind kept; beyond it, arbitrary entries are evicted.
    public let capacity: Int

    private struct State {
        var certificates: [DERBytesKey: ParsedCertificate] = [:]
        var outcomes: [OutcomeKey: ChainOutcome] = [:]
    }

    struct OutcomeKey: Hashable, Sendable {
        var certificates: [[UInt8]]
        var signer: Int
        var anchors: [UInt8]
    }

    private let state = LockedValue(State())

    /// Creates an empty cache.
    /// - Parameter capacity: The most parsed certificates, and the most chain outcomes, kept at once.
    public init(capacity: Int = 1024) {
        self.capacity = max(1, capacity)
    }

    /// A process-wide cache, used by validators created without an explicit one.
    public static let shared = ReceiptTrustCache()

    /// The number of cached certificates and chain outcomes.
    public var count: (certificates: Int, outcomes: Int) {
        self.state.withLock { ($0.certificates.count, $0.outcomes.count) }
    }

    /// Removes every entry.
    public func removeAll() {
        self.state.withLock {
            $0.certificates.removeAll()
            $0.outcomes.removeAll()
        }
    }

    /// The parsed form of `der`, if it was admitted before.
    package func certificate(_ der: ArraySlice<UInt8>) -> ParsedCertificate? {
        let key = DERBytesKey(der)
        return self.state.withLock { $0.certificates[key] }
    }

    /// Admits certificates that formed a trusted path, with the outcome of that path.
    func admit(_ certificates: [(der: ArraySlice<UInt8>, parsed: ParsedCertificate)], outcome: ChainOutcome, for key: OutcomeKey) {
        // Own the bytes before taking the lock: a key must not keep a whole receipt alive.
        let owned = certificates.map { (DERBytesKey(Array($0.der)[...]), $0.parsed) }
        self.state.withLock { state in
            for (key, parsed) in owned where state.certificates[key] == nil {
                if state.certificates.count >= self.capacity, let victim = state.certificates.keys.first {
                    state.certificates.removeValue(forKey: victim)
                }
                state.certificates[key] = parsed
            }
            if state.outcomes[key] == nil, state.outcomes.count >= self.capacity, let victim = state.outcomes.keys.first {
                state.outcomes.removeValue(forKey: victim)
            }
            state.outcomes[key] = outcome
        }
    }

    func outcome(_ key: OutcomeKey) -> ChainOutcome? {
        self.state.withLock { $0.outcomes[key] }
    }
}
