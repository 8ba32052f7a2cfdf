import AppStorePKI
import _ReceiptKitShared

extension SimulationScenario {
    /// The scenario as JSON that ``init(json:)`` reads back to an equal scenario: an app, product, customer, event
    /// or expectation a line, members in the documented order, members at their defaults left out.
    public var json: String {
        var sections: [String] = []
        var head: [(String, String)] = []
        if let name = self.name { head.append(("name", Self.quoted(name))) }
        head.append(("environment", Self.quoted(self.environment == .production ? "Production" : "Sandbox")))
        if let start = self.start, let text = RFC3339Format.string(start) { head.append(("start", Self.quoted(text))) }
        sections += head.map { "  \(Self.quoted($0.0)): \($0.1)" }
        sections.append(Self.list("apps", self.apps.map { app in
            [("bundle_id", Self.quoted(app.bundleIdentifier)), ("app_apple_id", String(app.appAppleID))]
        }))
        sections.append(Self.list("products", self.products.map { product in
            var members = [("product_id", Self.quoted(product.productID))]
            if product.bundleIdentifier != self.apps.first?.bundleIdentifier {
                members.append(("bundle_id", Self.quoted(product.bundleIdentifier)))
            }
            members.append(("type", Self.quoted(product.kind.rawValue)))
            if let group = product.subscriptionGroup { members.append(("subscription_group", Self.quoted(group))) }
            if let period = product.period { members.append(("period", Self.quoted(period.description))) }
            if product.level != 1 { members.append(("level", String(product.level))) }
            members.append(("price", String(product.price)))
            members.append(("currency", Self.quoted(product.currency)))
            return members
        }))
        sections.append(Self.list("customers", self.customers.map { customer in
            var members = [("id", Self.quoted(customer.id))]
            if let token = customer.appAccountToken { members.append(("app_account_token", Self.quoted(token))) }
            if customer.storefront != "USA" { members.append(("storefront", Self.quoted(customer.storefront))) }
            return members
        }))
        sections.append(Self.list("events", self.events.map(Self.members)))
        if !self.expectations.isEmpty {
            sections.append(Self.list("expect", self.expectations.map { expectation in
                [("customer", Self.quoted(expectation.customer)), ("product", Self.quoted(expectation.productID)),
                 ("state", Self.quoted(expectation.state))]
            }))
        }
        return "{\n" + sections.joined(separator: ",\n") + "\n}\n"
    }

    private static func members(_ event: ScenarioEvent) -> [(String, String)] {
        var members = [("at", Self.quoted(event.at.description)), ("customer", Self.quoted(event.customer))]
        if let group = event.subscriptionGroup { members.append(("group", Self.quoted(group))) }
        func named(_ name: String, _ rest: [(String, String)] = []) -> [(String, String)] {
            members + [("event", Self.quoted(name))] + rest
        }
        switch event.kind {
        case .purchase(let product): return named("purchase", [("product", Self.quoted(product))])
        case .renew: return named("renew")
        case .billingFailure(let grace):
            return named("billing_failure", grace.map { [("grace_period", Self.quoted($0.description))] } ?? [])
        case .gracePeriodExpired: return named("grace_period_expired")
        case .billingRecovery: return named("billing_recovery")
        case .expire(let reason): return named("expire", [("reason", Self.quoted(reason.rawValue))])
        case .autoRenew(let enabled): return named(enabled ? "auto_renew_on" : "auto_renew_off")
        case .upgrade(let product): return named("upgrade", [("product", Self.quoted(product))])
        case .downgrade(let product): return named("downgrade", [("product", Self.quoted(product))])
        case .offerRedeemed(let product, let offerType, let offerIdentifier):
            let types: [Int64: String] = [1: "introductory", 2: "promotional", 3: "offer_code", 4: "win_back"]
            var rest = [("product", Self.quoted(product)), ("offer_type", Self.quoted(types[offerType] ?? "promotional"))]
            if let offerIdentifier { rest.append(("offer_id", Self.quoted(offerIdentifier))) }
            return named("offer_redeemed", rest)
        case .refund(let product, let reason):
            return named("refund", [("product", Self.quoted(product)), ("reason", Self.quoted(reason == 1 ? "app_issue" : "other"))])
        case .refundDeclined(let product): return named("refund_declined", [("product", Self.quoted(product))])
        case .refundReversed(let product): return named("refund_reversed", [("product", Self.quoted(product))])
        case .consumptionRequest(let product): return named("consumption_request", [("product", Self.quoted(product))])
        case .familyShare(let product, let member):
            return named("family_share", [("product", Self.quoted(product)), ("member", Self.quoted(member))])
        case .familyRevoke(let product, let member):
            return named("family_revoke", [("product", Self.quoted(product)), ("member", Self.quoted(member))])
        case .extend(let period): return named("extend", [("period", Self.quoted(period.description))])
        }
    }

    private static func list(_ name: String, _ elements: [[(String, String)]]) -> String {
        let lines = elements.map { members in
            "    { " + members.map { "\(Self.quoted($0.0)): \($0.1)" }.joined(separator: ", ") + " }"
        }
        return lines.isEmpty ? "  \(Self.quoted(name)): []" : "  \(Self.quoted(name)): [\n" + lines.joined(separator: ",\n") + "\n  ]"
    }

    private static func quoted(_ text: String) -> String {
        String(decoding: JSONValue.string(text).serialized, as: UTF8.self)
    }
}
