/// Policies per host: exact hosts, `*.domain` and `**.domain` patterns; the most specific match wins.
public struct ServerTrustPolicies: Sendable {
    /// The policies and the patterns they apply to.
    public var entries: [(pattern: HostPattern, policy: ServerTrustPolicy)]
    /// The policy for hosts no pattern covers, or `nil` to refuse them (`no_policy_for_host`).
    public var fallback: ServerTrustPolicy?

    /// Creates a policy set.
    /// - Parameters:
    ///   - entries: Patterns and their policies.
    ///   - requiresPolicyForEveryHost: When `true`, a host no pattern covers is refused; otherwise it gets default
    ///     evaluation.
    public init(_ entries: [(pattern: HostPattern, policy: ServerTrustPolicy)] = [], requiresPolicyForEveryHost: Bool = false) {
        self.entries = entries
        self.fallback = requiresPolicyForEveryHost ? nil : .default
    }

    /// One policy for every host.
    public init(_ policy: ServerTrustPolicy) {
        self.entries = []
        self.fallback = policy
    }

    /// The policy for `host` (any spelling of it: see ``HostPattern``): the most specific matching pattern's, else
    /// the fallback.
    public func policy(for host: String) -> ServerTrustPolicy? {
        guard let host = CanonicalHost(host) else { return self.fallback }
        return self.policy(for: host)
    }

    func policy(for host: CanonicalHost) -> ServerTrustPolicy? {
        let matching = self.entries.filter { $0.pattern.matches(host) }
        let best = matching.max { lhs, rhs in lhs.pattern.specificity < rhs.pattern.specificity }
        return best?.policy ?? self.fallback
    }
}
