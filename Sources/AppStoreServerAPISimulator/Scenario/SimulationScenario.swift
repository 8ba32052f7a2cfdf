public import AppStorePKI
public import struct Foundation.Date

/// A story of an app's customers told as the App Store would live it: apps, products, customers, a timeline of
/// events (purchases, renewals, billing failures, upgrades, refunds, Family Sharing, …) and the states the author
/// expects at the end. ``ScenarioTimeline`` turns it into transactions, renewal info and signed notifications;
/// ``ScenarioPlayer`` plays it against a ``SimulatedAppStore`` and a backend. Read one from JSON with
/// ``init(json:)``; the format is documented in <doc:SimulatingTheAppStore> and by `Examples/Scenarios/scenario.schema.json`.
public struct SimulationScenario: Sendable, Hashable {
    /// The most bytes a scenario file may hold.
    public static let maximumBytes = 16 << 20
    /// The most events, customers or products a scenario may hold.
    public static let maximumEvents = 200_000

    public var name: String?
    public var environment: AppStoreEnvironment
    /// The moment `at: "P0D"` is; `nil`: the player places the timeline so that its last event is "now".
    public var start: Date?
    public var apps: [ScenarioApp]
    public var products: [ScenarioProduct]
    public var customers: [ScenarioCustomer]
    public var events: [ScenarioEvent]
    public var expectations: [ScenarioExpectation]

    public init(
        name: String? = nil, environment: AppStoreEnvironment = .sandbox, start: Date? = nil, apps: [ScenarioApp],
        products: [ScenarioProduct], customers: [ScenarioCustomer], events: [ScenarioEvent],
        expectations: [ScenarioExpectation] = []
    ) {
        self.name = name
        self.environment = environment
        self.start = start
        self.apps = apps
        self.products = products
        self.customers = customers
        self.events = events
        self.expectations = expectations
    }

    /// The product named `id`.
    public func product(_ id: String) -> ScenarioProduct? { self.products.first { $0.productID == id } }

    /// The app of `bundleIdentifier`.
    public func app(_ bundleIdentifier: String) -> ScenarioApp? {
        self.apps.first { $0.bundleIdentifier == bundleIdentifier }
    }
}
