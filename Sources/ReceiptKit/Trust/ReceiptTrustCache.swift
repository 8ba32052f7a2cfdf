/// A bounded, thread-safe cache of parsed certificates and of path-validation outcomes.
///
/// The same handful of Apple certificates sign millions of receipts. Without a cache, each receipt pays for
/// parsing three certificates and for three RSA verifications (two in the chain, one over the content). With it, a
/// receipt whose certificates were seen before costs one RSA verification — the content signature — while the
/// validity windows of its chain are still checked at that receipt's own validation time.
///
/// Entries are keyed by the exact DER bytes of the certificates (and, for outcomes, by the signer and the anchor
/// set), so a certificate that differs in any byte is a different entry. Share one cache between validators; use
/// ``ReceiptValidator/init(policy:cache:)`` with `nil` to validate without one.
public final class ReceiptTrustCache: Sendable {
    /// The most entries of each kind kept; beyond it, arbitrary entries are evicted.
    public let capacity: Int

    private struct State {
        var certificates: [DERBytesKey: ParsedCertificate] = [:]
        var outcomes: [OutcomeKey: ChainOutcome] = [:]
        var nextIdentity = 0
    }

    struct OutcomeKey: Hashable, Sendable {
        var certificates: [Int]
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

    func certificate(_ der: ArraySlice<UInt8>) throws(ReceiptError) -> ParsedCertificate {
        let key = DERBytesKey(der)
        let (cached, identity) = self.state.withLock { state -> (ParsedCertificate?, Int) in
            if let hit = state.certificates[key] { return (hit, hit.identity) }
            state.nextIdentity &+= 1
            return (nil, state.nextIdentity)
        }
        if let cached { return cached }
        let parsed = try ParsedCertificate(derEncoded: der, identity: identity)
        self.state.withLock { state in
            if state.certificates.count >= self.capacity, let victim = state.certificates.keys.first {
                state.certificates.removeValue(forKey: victim)
            }
            // Own the bytes: the key must not keep a whole receipt alive.
            state.certificates[DERBytesKey(Array(der)[...])] = parsed
        }
        return parsed
    }

    func outcome(_ key: OutcomeKey) -> ChainOutcome? {
        self.state.withLock { $0.outcomes[key] }
    }

    func store(_ outcome: ChainOutcome, for key: OutcomeKey) {
        self.state.withLock { state in
            if state.outcomes.count >= self.capacity, let victim = state.outcomes.keys.first {
                state.outcomes.removeValue(forKey: victim)
            }
            state.outcomes[key] = outcome
        }
    }
}
