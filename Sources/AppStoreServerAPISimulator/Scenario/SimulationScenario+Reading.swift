import AppStorePKI
import _ReceiptKitShared
import struct Foundation.Date

extension SimulationScenario {
    /// Reads a scenario from its JSON. Every member is checked (types, ranges, names that name something), and one
    /// not documented is refused, so that a typing error is not silently ignored.
    /// - Throws: ``ScenarioError``: ``ScenarioError/Code/malformed`` for what is not JSON or too large,
    ///   ``ScenarioError/Code/invalidMember`` and ``ScenarioError/Code/unknownName`` with the member's place.
    public init(json bytes: [UInt8]) throws(ScenarioError) {
        guard bytes.count <= Self.maximumBytes else {
            throw ScenarioError(.malformed, "a scenario is at most \(Self.maximumBytes) bytes; this one is \(bytes.count)")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, maximumDepth: 16)
        } catch {
            let (line, column) = error.position(in: bytes)
            throw ScenarioError(.malformed, "not JSON at line \(line), column \(column): \(error.reason)")
        }
        let root = try ScenarioObject(value, at: "")
        try root.only(["$schema", "name", "description", "environment", "start", "apps", "products", "customers", "events", "expect"])
        _ = try root.string("description", maximumLength: 4096)
        let environment: AppStoreEnvironment
        switch try root.string("environment", maximumLength: 16) {
        case nil, "Sandbox"?: environment = .sandbox
        case "Production"?: environment = .production
        case let other?: throw ScenarioError(.invalidMember, "environment is Sandbox or Production, not \(other)")
        }
        var start: Date?
        if let text = try root.string("start", maximumLength: 64) {
            guard let date = RFC3339Format.date(text) else {
                throw ScenarioError(.invalidMember, "start is not an RFC 3339 date (2026-11-01T00:00:00Z): \(text)")
            }
            start = date
        }
        let apps = try Self.apps(root)
        let products = try Self.products(root, apps: apps)
        let customers = try Self.customers(root)
        let events = try Self.events(root, products: products, customers: customers)
        let expectations = try Self.expectations(root, products: products, customers: customers)
        self.init(
            name: try root.string("name", maximumLength: 256), environment: environment, start: start, apps: apps,
            products: products, customers: customers, events: events, expectations: expectations)
    }

    private static func apps(_ root: ScenarioObject) throws(ScenarioError) -> [ScenarioApp] {
        var apps: [ScenarioApp] = []
        for (index, element) in try root.array("apps", maximumCount: 64).enumerated() {
            let object = try ScenarioObject(element, at: "apps[\(index)]")
            try object.only(["bundle_id", "app_apple_id"])
            let bundle = try object.requiredString("bundle_id", maximumLength: 155)
            guard !apps.contains(where: { $0.bundleIdentifier == bundle }) else {
                throw ScenarioError(.unknownName, "\(object.place("bundle_id")): \(bundle) is defined twice")
            }
            let appleID = try object.integer("app_apple_id", in: 1...Int64(Int32.max) * 4) ?? Int64(1_000_000_000 + index)
            apps.append(ScenarioApp(bundleIdentifier: bundle, appAppleID: appleID))
        }
        guard !apps.isEmpty else { throw ScenarioError(.invalidMember, "apps must name at least one app") }
        return apps
    }

    private static func products(_ root: ScenarioObject, apps: [ScenarioApp]) throws(ScenarioError) -> [ScenarioProduct] {
        var products: [ScenarioProduct] = []
        for (index, element) in try root.array("products", maximumCount: Self.maximumEvents).enumerated() {
            let object = try ScenarioObject(element, at: "products[\(index)]")
            try object.only(["product_id", "bundle_id", "type", "subscription_group", "period", "level", "price", "currency"])
            let id = try object.requiredString("product_id", maximumLength: 100)
            guard !products.contains(where: { $0.productID == id }) else {
                throw ScenarioError(.unknownName, "\(object.place("product_id")): \(id) is defined twice")
            }
            let bundle = try object.string("bundle_id", maximumLength: 155) ?? apps[0].bundleIdentifier
            guard apps.contains(where: { $0.bundleIdentifier == bundle }) else {
                throw ScenarioError(.unknownName, "\(object.place("bundle_id")): no app \(bundle) in apps")
            }
            guard let kind = try object.choice("type", of: ScenarioProduct.Kind.self) else {
                throw ScenarioError(.invalidMember, "\(object.place("type")) is missing")
            }
            let group = try object.string("subscription_group", maximumLength: 64)
            let period = try object.period("period")
            switch kind {
            case .autoRenewable:
                guard group != nil else {
                    throw ScenarioError(.invalidMember, "\(object.place("subscription_group")) is missing: an auto-renewable subscription belongs to a group")
                }
                guard let period, !period.isZero else {
                    throw ScenarioError(.invalidMember, "\(object.place("period")) is missing: an auto-renewable subscription has a period (P1M)")
                }
            case .nonRenewing:
                guard group == nil else { throw ScenarioError(.invalidMember, "\(object.place("subscription_group")): only an auto-renewable subscription has a group") }
                guard let period, !period.isZero else {
                    throw ScenarioError(.invalidMember, "\(object.place("period")) is missing: a non-renewing subscription lasts a period (P1Y)")
                }
            case .consumable, .nonConsumable:
                guard group == nil, period == nil else {
                    throw ScenarioError(.invalidMember, "\(object.path): a \(kind.rawValue) product has no subscription_group or period")
                }
            }
            let currency = try object.string("currency", maximumLength: 3) ?? "USD"
            guard currency.utf8.count == 3, currency.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else {
                throw ScenarioError(.invalidMember, "\(object.place("currency")) is an ISO 4217 code (USD), not \(currency)")
            }
            products.append(
                ScenarioProduct(
                    productID: id, bundleIdentifier: bundle, kind: kind, subscriptionGroup: group, period: period,
                    level: Int(try object.integer("level", in: 1...1000) ?? 1),
                    price: try object.integer("price", in: 0...1_000_000_000) ?? 990, currency: currency))
        }
        guard !products.isEmpty else { throw ScenarioError(.invalidMember, "products must name at least one product") }
        return products
    }

    private static func customers(_ root: ScenarioObject) throws(ScenarioError) -> [ScenarioCustomer] {
        var customers: [ScenarioCustomer] = []
        var seen = Set<String>()
        for (index, element) in try root.array("customers", maximumCount: Self.maximumEvents).enumerated() {
            let object = try ScenarioObject(element, at: "customers[\(index)]")
            try object.only(["id", "app_account_token", "storefront"])
            let id = try object.requiredString("id", maximumLength: 64)
            guard seen.insert(id).inserted else { throw ScenarioError(.unknownName, "\(object.place("id")): \(id) is defined twice") }
            let token = try object.string("app_account_token", maximumLength: 36)
            if let token, !UUIDText.isUUID(token, lowercase: true) {
                throw ScenarioError(.invalidMember, "\(object.place("app_account_token")) is a lowercase UUID, not \(token)")
            }
            let storefront = try object.string("storefront", maximumLength: 3) ?? "USA"
            customers.append(ScenarioCustomer(id: id, appAccountToken: token, storefront: storefront))
        }
        guard !customers.isEmpty else { throw ScenarioError(.invalidMember, "customers must name at least one customer") }
        return customers
    }

    private static let eventMembers: Set<String> = [
        "at", "customer", "event", "product", "group", "grace_period", "reason", "offer_type", "offer_id", "member",
        "period", "note",
    ]

    private static func events(
        _ root: ScenarioObject, products: [ScenarioProduct], customers: [ScenarioCustomer]
    ) throws(ScenarioError) -> [ScenarioEvent] {
        let customerIDs = Set(customers.map(\.id))
        let groups = Set(products.compactMap(\.subscriptionGroup))
        var events: [ScenarioEvent] = []
        for (index, element) in try root.array("events", maximumCount: Self.maximumEvents).enumerated() {
            let object = try ScenarioObject(element, at: "events[\(index)]")
            try object.only(Self.eventMembers)
            _ = try object.string("note", maximumLength: 1024)
            guard let at = try object.period("at") else { throw ScenarioError(.invalidMember, "\(object.place("at")) is missing") }
            let customer = try object.requiredString("customer", maximumLength: 64)
            guard customerIDs.contains(customer) else {
                throw ScenarioError(.unknownName, "\(object.place("customer")): no customer \(customer) in customers")
            }
            let group = try object.string("group", maximumLength: 64)
            if let group, !groups.contains(group) {
                throw ScenarioError(.unknownName, "\(object.place("group")): no product has subscription_group \(group)")
            }
            func product() throws(ScenarioError) -> String {
                let id = try object.requiredString("product", maximumLength: 100)
                guard products.contains(where: { $0.productID == id }) else {
                    throw ScenarioError(.unknownName, "\(object.place("product")): no product \(id) in products")
                }
                return id
            }
            func member() throws(ScenarioError) -> String {
                let id = try object.requiredString("member", maximumLength: 64)
                guard customerIDs.contains(id), id != customer else {
                    throw ScenarioError(.unknownName, "\(object.place("member")): \(id) is not another customer in customers")
                }
                return id
            }
            let name = try object.requiredString("event", maximumLength: 64)
            let allowed: Set<String>
            let kind: ScenarioEvent.Kind
            switch name {
            case "purchase":
                kind = .purchase(product: try product()); allowed = ["product"]
            case "renew":
                kind = .renew; allowed = []
            case "billing_failure":
                kind = .billingFailure(gracePeriod: try object.period("grace_period")); allowed = ["grace_period"]
            case "grace_period_expired":
                kind = .gracePeriodExpired; allowed = []
            case "billing_recovery":
                kind = .billingRecovery; allowed = []
            case "expire":
                kind = .expire(reason: try object.choice("reason", of: ScenarioEvent.ExpiryReason.self) ?? .voluntary)
                allowed = ["reason"]
            case "auto_renew_off":
                kind = .autoRenew(enabled: false); allowed = []
            case "auto_renew_on":
                kind = .autoRenew(enabled: true); allowed = []
            case "upgrade":
                kind = .upgrade(product: try product()); allowed = ["product"]
            case "downgrade":
                kind = .downgrade(product: try product()); allowed = ["product"]
            case "offer_redeemed":
                let offerType: Int64
                switch try object.string("offer_type", maximumLength: 32) {
                case "introductory"?: offerType = 1
                case nil, "promotional"?: offerType = 2
                case "offer_code"?: offerType = 3
                case "win_back"?: offerType = 4
                case let other?:
                    throw ScenarioError(.invalidMember, "\(object.place("offer_type")) is one of introductory, promotional, offer_code, win_back, not \(other)")
                }
                kind = .offerRedeemed(product: try product(), offerType: offerType, offerIdentifier: try object.string("offer_id", maximumLength: 64))
                allowed = ["product", "offer_type", "offer_id"]
            case "refund":
                let reason: Int64
                switch try object.string("reason", maximumLength: 32) {
                case nil, "other"?: reason = 0
                case "app_issue"?: reason = 1
                case let other?: throw ScenarioError(.invalidMember, "\(object.place("reason")) is other or app_issue, not \(other)")
                }
                kind = .refund(product: try product(), reason: reason); allowed = ["product", "reason"]
            case "refund_declined":
                kind = .refundDeclined(product: try product()); allowed = ["product"]
            case "refund_reversed":
                kind = .refundReversed(product: try product()); allowed = ["product"]
            case "consumption_request":
                kind = .consumptionRequest(product: try product()); allowed = ["product"]
            case "family_share":
                kind = .familyShare(product: try product(), member: try member()); allowed = ["product", "member"]
            case "family_revoke":
                kind = .familyRevoke(product: try product(), member: try member()); allowed = ["product", "member"]
            case "extend":
                guard let period = try object.period("period"), !period.isZero else {
                    throw ScenarioError(.invalidMember, "\(object.place("period")) is missing: how long the renewal date moves (P7D)")
                }
                kind = .extend(period: period); allowed = ["period"]
            default:
                throw ScenarioError(
                    .invalidMember,
                    "\(object.place("event")) is one of purchase, renew, billing_failure, grace_period_expired, billing_recovery, expire, auto_renew_off, auto_renew_on, upgrade, downgrade, offer_redeemed, refund, refund_declined, refund_reversed, consumption_request, family_share, family_revoke, extend; not \(name)")
            }
            let common: Set<String> = ["at", "customer", "event", "group", "note"]
            if let extra = object.members.keys.sorted().first(where: { !common.contains($0) && !allowed.contains($0) }) {
                throw ScenarioError(.invalidMember, "\(object.place(extra)) does not belong to a \(name) event")
            }
            events.append(ScenarioEvent(at: at, customer: customer, subscriptionGroup: group, kind: kind))
        }
        return events
    }

    private static func expectations(
        _ root: ScenarioObject, products: [ScenarioProduct], customers: [ScenarioCustomer]
    ) throws(ScenarioError) -> [ScenarioExpectation] {
        var expectations: [ScenarioExpectation] = []
        for (index, element) in try root.array("expect", maximumCount: Self.maximumEvents, required: false).enumerated() {
            let object = try ScenarioObject(element, at: "expect[\(index)]")
            try object.only(["customer", "product", "state"])
            let customer = try object.requiredString("customer", maximumLength: 64)
            guard customers.contains(where: { $0.id == customer }) else {
                throw ScenarioError(.unknownName, "\(object.place("customer")): no customer \(customer) in customers")
            }
            let product = try object.requiredString("product", maximumLength: 100)
            guard products.contains(where: { $0.productID == product }) else {
                throw ScenarioError(.unknownName, "\(object.place("product")): no product \(product) in products")
            }
            let state = try object.requiredString("state", maximumLength: 32)
            guard ScenarioExpectation.states.contains(state) else {
                throw ScenarioError(.invalidMember, "\(object.place("state")) is one of \(ScenarioExpectation.states.sorted().joined(separator: ", ")), not \(state)")
            }
            expectations.append(ScenarioExpectation(customer: customer, productID: product, state: state))
        }
        return expectations
    }
}
