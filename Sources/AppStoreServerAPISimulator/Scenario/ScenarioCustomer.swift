/// A customer of a scenario: an App Store account, named by the scenario (`alice`), and the `appAccountToken` the
/// app sets on its purchases, if any (what a backend usually keys its users by).
public struct ScenarioCustomer: Sendable, Hashable {
    public var id: String
    public var appAccountToken: String?
    /// The storefront its purchases report (`USA` by default).
    public var storefront: String

    public init(id: String, appAccountToken: String? = nil, storefront: String = "USA") {
        self.id = id
        self.appAccountToken = appAccountToken
        self.storefront = storefront
    }
}
