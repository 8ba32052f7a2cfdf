import NIOConcurrencyHelpers

/// A bounded, thread-safe cache of parsed certificates and of path-validation outcomes, shared by receipt
/// validation and App Store JWS verification.
///
/// The same handful of Apple certificates sign millions of receipts and transactions. Without a cache, each one
/// pays for parsing its certificates and for verifying every signature of its chain. With it, signed data whose
/// certificates were seen before costs one signature verification — its own — while the validity windows of its
/// chain are still checked at its own validation time.
///
/// Only what validated is admitted: certificates enter the cache, and an outcome is stored, only when they formed a
/// trusted path for data whose signature verified. A stream of hostile data with made-up certificates therefore
/// cannot evict Apple's. Certificates are keyed by their exact DER bytes (hashed whole, with a per-process seed),
/// outcomes by the SHA-256 fingerprints of the data's certificates, the signer, the marker asked for and the anchor
/// set. Share one cache between verifiers; pass `nil` to a verifier to validate every chain from scratch.
public final class AppStoreTrustCache: Sendable {
    /// The most entries of each kind kept; beyond it, arbitrary entries are evicted.
    public let capacity: Int

    private struct State {
        var certificates: [DERBytesKey: ParsedCertificate] = [:]
        var outcomes: [OutcomeKey: ChainOutcome] = [:]
    }

    struct OutcomeKey: Hashable, Sendable {
        var certificates: [[UInt8]]
        var signer: Int
        var marker: AppleSignerMarker
        var anchors: [UInt8]
    }

    private let state = NIOLockedValueBox(State())

    /// Creates an empty cache.
    /// - Parameter capacity: The most parsed certificates, and the most chain outcomes, kept at once.
    public init(capacity: Int = 1024) {
        self.capacity = max(1, capacity)
    }

    /// A process-wide cache, used by validators created without an explicit one.
    public static let shared = AppStoreTrustCache()

    /// The number of cached certificates and chain outcomes.
    public var count: (certificates: Int, outcomes: Int) {
        self.state.withLockedValue { ($0.certificates.count, $0.outcomes.count) }
    }

    /// Removes every entry.
    public func removeAll() {
        self.state.withLockedValue {
            $0.certificates.removeAll()
            $0.outcomes.removeAll()
        }
    }

    /// The parsed form of `der`, if it was admitted before.
    func certificate(_ der: ArraySlice<UInt8>) -> ParsedCertificate? {
        let key = DERBytesKey(der)
        return self.state.withLockedValue { $0.certificates[key] }
    }

    /// Admits certificates that formed a trusted path, with the outcome of that path.
    func admit(_ certificates: [(der: ArraySlice<UInt8>, parsed: ParsedCertificate)], outcome: ChainOutcome, for key: OutcomeKey) {
        // Own the bytes before taking the lock: a key must not keep a whole receipt or JWS alive.
        let owned = certificates.map { (DERBytesKey(Array($0.der)[...]), $0.parsed) }
        self.state.withLockedValue { state in
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
        self.state.withLockedValue { $0.outcomes[key] }
    }
}
