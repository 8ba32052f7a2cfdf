import AppStoreJWS
import AppStorePKI
import AppStoreServerAPISimulator
import ReceiptLedger
import _ReceiptKitShared
import struct Foundation.Date

/// A ledger's real history written as a scenario (`receiptkit simulate export`): each customer's purchases, renewals
/// and what the notifications recorded about them, at the moments they happened, with every identifier replaced —
/// customers become `customer-1`, `customer-2`, …, app account tokens fresh UUIDs, and the timeline makes its own
/// transaction ids. Bundle and product ids stay (a backend is asked about them). Each customer is lived by the
/// simulator's timeline alone first: one whose history the simulator cannot tell is left out, with the reason.
struct ScenarioExport {
    /// A customer left out, and why.
    struct Dropped: Sendable, Hashable {
        var customer: String
        var reason: String
    }

    var scenario: SimulationScenario?
    /// Notification types the scenario format has no event for (or whose details the ledger lacks), with counts.
    var skipped: [String: Int] = [:]
    var dropped: [Dropped] = []
    /// Where the exported timeline ends otherwise than the ledger says.
    var disagreements: [String] = []
    /// The moment of the last event (the ledger's states are asked at it).
    var end: Date?

    /// A timed event before the scenario's offsets are known.
    private struct Timed {
        var milliseconds: Int64
        var customer: String
        var group: String?
        var kind: ScenarioEvent.Kind
    }

    /// A product as the ledger's transactions show it.
    private struct ProductSeen {
        var kind: ScenarioProduct.Kind
        var group: String?
        var durations: [(purchase: Int64, expires: Int64)] = []
        var price: Int64?
        var currency: String?
    }

    init(
        bundleIdentifier: String, environment: AppStoreEnvironment, appAppleID: Int64, customers: [ExportedCustomer],
        seed: UInt64
    ) {
        var generator = SeededGenerator(seed: seed)
        var products: [String: ProductSeen] = [:]
        var exported: [(customer: ScenarioCustomer, events: [Timed], expectations: [(product: String, state: String)])] = []
        for (index, customer) in customers.enumerated() {
            let name = "customer-\(index + 1)"
            var events: [Timed] = []
            var expectations: [(product: String, state: String)] = []
            var hasToken = false
            let groups = Set(customer.transactions.compactMap { Self.fields($0).string("subscription_group_identifier") })
            for original in customer.originalTransactionIdentifiers {
                let transactions = customer.transactions
                    .filter { $0.originalTransactionIdentifier == original }
                    .sorted { ($0.purchaseDateMilliseconds ?? 0, $0.transactionIdentifier) < ($1.purchaseDateMilliseconds ?? 0, $1.transactionIdentifier) }
                guard let first = transactions.first else { continue }
                if Self.fields(first).string("in_app_ownership_type") == InAppOwnershipType.familyShared.rawValue {
                    self.skipped["family-shared purchase (the purchaser is another customer)", default: 0] += 1
                    continue
                }
                for transaction in transactions {
                    let fields = Self.fields(transaction)
                    if fields.string("app_account_token") != nil || Self.payload(customer.signedTransactions[transaction.transactionIdentifier])?.string("appAccountToken") != nil { hasToken = true }
                    Self.note(transaction, fields: fields, payload: Self.payload(customer.signedTransactions[transaction.transactionIdentifier]), in: &products)
                }
                let group = Self.fields(first).string("subscription_group_identifier")
                let eventGroup = groups.count > 1 ? group : nil
                let notes = customer.notifications.filter { $0.originalTransactionIdentifier == original }
                let renewal = customer.renewalInfo.first { $0.originalTransactionIdentifier == original }
                let lived = self.events(
                    transactions: transactions, notes: notes, renewal: renewal, subscription: group != nil, customer: name,
                    group: eventGroup)
                events += lived
                let latest = transactions.last?.productIdentifier ?? first.productIdentifier
                if group != nil {
                    if let state = customer.states[original] { expectations.append((latest, state)) }
                } else {
                    expectations.append((latest, first.cancellationDateMilliseconds == nil ? "active" : "refunded"))
                }
            }
            guard !events.isEmpty else { continue }
            let token = hasToken ? generator.uuid() : nil
            exported.append((ScenarioCustomer(id: name, appAccountToken: token), events, expectations))
        }
        let scenarioProducts = Self.products(products, bundleIdentifier: bundleIdentifier, exported.flatMap(\.events))
        // Each customer alone first: one the simulator cannot live is left out, the rest kept.
        var kept: [(customer: ScenarioCustomer, events: [Timed], expectations: [(product: String, state: String)])] = []
        let app = ScenarioApp(bundleIdentifier: bundleIdentifier, appAppleID: appAppleID)
        for entry in exported {
            guard let alone = Self.scenario(environment: environment, app: app, products: scenarioProducts, [entry]),
                let start = alone.start
            else { continue }
            do throws(ScenarioError) {
                _ = try ScenarioTimeline(alone, start: start, seed: seed)
                kept.append(entry)
            } catch {
                self.dropped.append(Dropped(customer: entry.customer.id, reason: "\(error.code.rawValue): \(error.reason)"))
            }
        }
        self.scenario = Self.scenario(environment: environment, app: app, products: scenarioProducts, kept)
        // Then all together: where the timeline ends otherwise than the ledger says, said (the expectation stays).
        if let scenario = self.scenario, let start = scenario.start {
            do throws(ScenarioError) {
                let timeline = try ScenarioTimeline(scenario, start: start, seed: seed)
                self.end = timeline.end
                self.disagreements = timeline.unmetExpectations()
            } catch {
                self.disagreements = ["\(error.code.rawValue): \(error.reason)"]
            }
        }
    }

    /// The events of one original transaction: from its notifications where the ledger recorded them, and from its
    /// transactions for what no notification told (a purchase or renewal known from a receipt, a refund, an end).
    private mutating func events(
        transactions: [LedgerTransaction], notes: [LedgerNotificationEntry], renewal: LedgerRenewalInfo?,
        subscription: Bool, customer: String, group: String?
    ) -> [Timed] {
        var events: [Timed] = []
        func add(_ milliseconds: Int64, _ kind: ScenarioEvent.Kind) {
            events.append(Timed(milliseconds: milliseconds, customer: customer, group: group, kind: kind))
        }
        func product(at milliseconds: Int64) -> String {
            (transactions.last { ($0.purchaseDateMilliseconds ?? 0) <= milliseconds + 2_000 } ?? transactions[0]).productIdentifier
        }
        let renewalFields = renewal.map { Self.object($0.json) } ?? Fields([:])
        // Notifications that made a transaction, by its moment: a transaction none of them covers is told from the
        // transaction itself.
        var covered: [Int64] = []
        for (index, note) in notes.enumerated() {
            let at = note.signedMilliseconds
            switch (NotificationType(rawValue: note.notificationType), note.subtype.map(NotificationSubtype.init(rawValue:))) {
            case (.subscribed, _), (.oneTimeCharge, _):
                add(at, .purchase(product: product(at: at))); covered.append(at)
            case (.didRenew, .billingRecovery?):
                add(at, .billingRecovery); covered.append(at)
            case (.didRenew, _):
                add(at, .renew); covered.append(at)
            case (.didFailToRenew, let subtype):
                var grace: ScenarioPeriod?
                if subtype == .gracePeriod {
                    let ended = notes[(index + 1)...].first { $0.notificationType == NotificationType.gracePeriodExpired.rawValue }?.signedMilliseconds
                    let expires = transactions.last { ($0.purchaseDateMilliseconds ?? 0) <= at }?.expiresDateMilliseconds
                    let until = ended ?? renewalFields.milliseconds("grace_period_expires_date_ms")
                    if let until, let expires, until > expires {
                        grace = Self.period(milliseconds: until - expires)
                    } else if let until, until > at {
                        grace = Self.period(milliseconds: until - at)
                    } else {
                        // Apple's longest grace period; the ledger no longer says how long this one was.
                        grace = ScenarioPeriod("P16D")
                    }
                }
                add(at, .billingFailure(gracePeriod: grace))
            case (.gracePeriodExpired, _):
                add(at, .gracePeriodExpired)
            case (.expired, let subtype):
                let reasons: [NotificationSubtype: ScenarioEvent.ExpiryReason] = [
                    .voluntary: .voluntary, .billingRetry: .billingRetry, .priceIncrease: .priceIncrease,
                    .productNotForSale: .productNotForSale,
                ]
                add(at, .expire(reason: subtype.flatMap { reasons[$0] } ?? .voluntary))
            case (.didChangeRenewalStatus, let subtype):
                add(at, .autoRenew(enabled: subtype == .autoRenewEnabled))
            case (.didChangeRenewalPref, .upgrade?):
                add(at, .upgrade(product: product(at: at))); covered.append(at)
            case (.didChangeRenewalPref, .downgrade?):
                if let next = renewalFields.string("auto_renew_product_id"), next != product(at: at) {
                    add(at, .downgrade(product: next))
                } else {
                    self.skipped["DID_CHANGE_RENEWAL_PREF/DOWNGRADE (the product it moves to is no longer in the ledger)", default: 0] += 1
                }
            case (.offerRedeemed, _):
                let bought = transactions.last { ($0.purchaseDateMilliseconds ?? 0) <= at + 2_000 } ?? transactions[0]
                let fields = Self.fields(bought)
                let offer: (Int64, String?) =
                    fields.string("is_trial_period") == "true" || fields.string("is_in_intro_offer_period") == "true"
                    ? (1, nil)
                    : fields.string("offer_code_ref_name").map { (3, $0) } ?? (2, fields.string("promotional_offer_id"))
                add(at, .offerRedeemed(product: bought.productIdentifier, offerType: offer.0, offerIdentifier: offer.1))
                covered.append(at)
            case (.refund, _):
                let refunded = transactions.last { $0.cancellationDateMilliseconds != nil } ?? transactions[transactions.count - 1]
                add(at, .refund(product: refunded.productIdentifier, reason: Self.fields(refunded).string("cancellation_reason") == "1" ? 1 : 0))
            case (.refundDeclined, _):
                add(at, .refundDeclined(product: product(at: at)))
            case (.refundReversed, _):
                add(at, .refundReversed(product: product(at: at)))
            case (.consumptionRequest, _):
                add(at, .consumptionRequest(product: product(at: at)))
            case (let type, let subtype):
                let name = subtype.map { "\(type.rawValue)/\($0.rawValue)" } ?? type.rawValue
                self.skipped[name + (type == .renewalExtended ? " (its length is not in the ledger)" : ""), default: 0] += 1
            }
        }
        let refunded = notes.contains { $0.notificationType == NotificationType.refund.rawValue }
        var previous: LedgerTransaction?
        for transaction in transactions {
            defer { previous = transaction }
            guard let purchase = transaction.purchaseDateMilliseconds else { continue }
            if !covered.contains(where: { abs($0 - purchase) <= 2_000 }) {
                if let previous, subscription {
                    if previous.productIdentifier != transaction.productIdentifier {
                        if let expires = previous.expiresDateMilliseconds, purchase < expires {
                            add(purchase, .upgrade(product: transaction.productIdentifier))
                        } else {
                            add(purchase - 1_000, .downgrade(product: transaction.productIdentifier))
                            add(purchase, .renew)
                        }
                    } else {
                        add(purchase, .renew)
                    }
                } else if previous == nil {
                    add(purchase, .purchase(product: transaction.productIdentifier))
                }
            }
            if let cancelled = transaction.cancellationDateMilliseconds, !refunded {
                add(cancelled, .refund(product: transaction.productIdentifier, reason: Self.fields(transaction).string("cancellation_reason") == "1" ? 1 : 0))
            }
        }
        // Without notifications, how a subscription ended is told by its renewal information.
        if subscription, notes.isEmpty, let last = transactions.last, let expires = last.expiresDateMilliseconds,
            last.cancellationDateMilliseconds == nil, let renewal, renewal.updatedMilliseconds >= expires
        {
            if renewalFields.string("is_in_billing_retry_period") == "1" {
                let grace = renewalFields.milliseconds("grace_period_expires_date_ms").flatMap { $0 > expires ? Self.period(milliseconds: $0 - expires) : nil }
                add(expires, .billingFailure(gracePeriod: grace))
            } else if renewalFields.string("expiration_intent") != nil {
                let reasons: [String: ScenarioEvent.ExpiryReason] = ["1": .voluntary, "2": .billingRetry, "3": .priceIncrease, "4": .productNotForSale]
                add(expires, .expire(reason: renewalFields.string("expiration_intent").flatMap { reasons[$0] } ?? .voluntary))
            }
        }
        return events
    }

    /// The scenario of `customers`, its start the first event's moment (offsets in days and time, so that they
    /// add up on the calendar exactly as they happened); `nil` without events.
    private static func scenario(
        environment: AppStoreEnvironment, app: ScenarioApp, products: [ScenarioProduct],
        _ customers: [(customer: ScenarioCustomer, events: [Timed], expectations: [(product: String, state: String)])]
    ) -> SimulationScenario? {
        let timed = customers.flatMap(\.events).enumerated().sorted { ($0.element.milliseconds, $0.offset) < ($1.element.milliseconds, $1.offset) }
        guard let first = timed.first?.element.milliseconds else { return nil }
        let startSeconds = first / 1_000
        let events = timed.compactMap { entry -> ScenarioEvent? in
            guard let at = Self.period(milliseconds: (entry.element.milliseconds / 1_000 - startSeconds) * 1_000) else { return nil }
            return ScenarioEvent(at: at, customer: entry.element.customer, subscriptionGroup: entry.element.group, kind: entry.element.kind)
        }
        let expectations = customers.flatMap { entry in
            entry.expectations.map { ScenarioExpectation(customer: entry.customer.id, productID: $0.product, state: $0.state) }
        }
        return SimulationScenario(
            name: "Exported from a ledger: \(app.bundleIdentifier)", environment: environment,
            start: Date(timeIntervalSince1970: Double(startSeconds)), apps: [app],
            products: products,
            customers: customers.map(\.customer), events: events, expectations: expectations)
    }

    /// Every product the events name, with the kind, group, period and price the transactions show, and levels that
    /// make every upgrade a move up and every downgrade a move down.
    private static func products(_ seen: [String: ProductSeen], bundleIdentifier: String, _ events: [Timed]) -> [ScenarioProduct] {
        var levels: [String: Int] = [:]
        var moves: [(from: String, to: String, up: Bool)] = []
        var current: [String: String] = [:]
        for event in events.sorted(by: { $0.milliseconds < $1.milliseconds }) {
            let key = event.customer + "\u{0}" + (event.group ?? "")
            switch event.kind {
            case .purchase(let product): current[key] = product
            case .upgrade(let product):
                if let from = current[key] { moves.append((from, product, true)) }
                current[key] = product
            case .downgrade(let product):
                if let from = current[key] { moves.append((from, product, false)) }
            default: break
            }
        }
        // At most as many rounds as products: a cycle of moves stops there (and the timeline refuses the customer).
        for _ in 0..<seen.count {
            var changed = false
            for move in moves {
                let (from, to) = (levels[move.from, default: 1], levels[move.to, default: 1])
                if move.up, to >= from { levels[move.from] = to + 1; changed = true }
                if !move.up, to <= from { levels[move.to] = from + 1; changed = true }
            }
            if !changed { break }
        }
        return seen.sorted { $0.key < $1.key }.map { id, product in
            ScenarioProduct(
                productID: id, bundleIdentifier: bundleIdentifier, kind: product.kind, subscriptionGroup: product.group,
                period: product.kind == .autoRenewable || product.kind == .nonRenewing ? Self.period(of: product.durations) : nil,
                level: min(levels[id, default: 1], 1000), price: product.price ?? 990, currency: product.currency ?? "USD")
        }
    }

    /// What `transaction` tells of its product.
    private static func note(
        _ transaction: LedgerTransaction, fields: Fields, payload: Fields?, in products: inout [String: ProductSeen]
    ) {
        let group = fields.string("subscription_group_identifier") ?? payload?.string("subscriptionGroupIdentifier")
        let kind: ScenarioProduct.Kind
        switch payload?.string("type").map(TransactionType.init(rawValue:)) {
        case .autoRenewableSubscription?: kind = .autoRenewable
        case .nonRenewingSubscription?: kind = .nonRenewing
        case .consumable?: kind = .consumable
        case .nonConsumable?: kind = .nonConsumable
        default: kind = group != nil ? .autoRenewable : (transaction.expiresDateMilliseconds != nil ? .nonRenewing : .nonConsumable)
        }
        var product = products[transaction.productIdentifier] ?? ProductSeen(kind: kind, group: kind == .autoRenewable ? group ?? "group" : nil)
        let trial = fields.string("is_trial_period") == "true" || fields.string("is_in_intro_offer_period") == "true"
        if !trial, let purchase = transaction.purchaseDateMilliseconds, let expires = transaction.expiresDateMilliseconds, expires > purchase {
            product.durations.append((purchase, expires))
        }
        if let price = payload?.integer("price"), (0...1_000_000_000).contains(price) { product.price = price }
        if let currency = payload?.string("currency"), currency.utf8.count == 3,
            currency.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) })
        {
            product.currency = currency
        }
        products[transaction.productIdentifier] = product
    }

    /// The period that adds up, on the calendar, from most of the purchases to their expiries: a calendar period
    /// App Store Connect offers (or the sandbox's minutes for one), else the most common exact length.
    static func period(of durations: [(purchase: Int64, expires: Int64)]) -> ScenarioPeriod? {
        let candidates = ["P1W", "P1M", "P2M", "P3M", "P6M", "P1Y", "PT3M", "PT5M", "PT10M", "PT15M", "PT30M", "PT1H", "P3D", "P2W"]
            .compactMap { ScenarioPeriod($0) }
        guard !durations.isEmpty else { return ScenarioPeriod("P1M") }
        var best: (period: ScenarioPeriod, matches: Int)?
        for candidate in candidates {
            let matches = durations.filter { sample in
                guard let end = candidate.after(Date(timeIntervalSince1970: Double(sample.purchase) / 1_000)) else { return false }
                let difference = abs(end.timeIntervalSince1970 * 1_000 - Double(sample.expires))
                return difference <= max(2_000, Double(sample.expires - sample.purchase) / 100)
            }.count
            if matches > (best?.matches ?? 0) { best = (candidate, matches) }
        }
        if let best { return best.period }
        var counts: [Int64: Int] = [:]
        for sample in durations { counts[(sample.expires - sample.purchase) / 1_000, default: 0] += 1 }
        let common = counts.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key ?? 2_592_000
        return Self.period(milliseconds: common * 1_000) ?? ScenarioPeriod("P1M")
    }

    /// `milliseconds` (whole seconds of it) as days and time: `P31DT2H5M`, `P0D`.
    static func period(milliseconds: Int64) -> ScenarioPeriod? {
        guard milliseconds >= 0 else { return nil }
        let seconds = milliseconds / 1_000
        let (days, hours, minutes, rest) = (seconds / 86_400, seconds % 86_400 / 3_600, seconds % 3_600 / 60, seconds % 60)
        var text = "P"
        if days > 0 { text += "\(days)D" }
        if hours + minutes + rest > 0 {
            text += "T"
            if hours > 0 { text += "\(hours)H" }
            if minutes > 0 { text += "\(minutes)M" }
            if rest > 0 { text += "\(rest)S" }
        }
        return ScenarioPeriod(text == "P" ? "P0D" : text)
    }

    /// A JSON object's members, read leniently (a value of another type is absent).
    struct Fields {
        let members: [String: JSONValue]
        init(_ members: [String: JSONValue]) { self.members = members }
        func string(_ name: String) -> String? { self.members[name]?.stringValue }
        func integer(_ name: String) -> Int64? {
            self.members[name]?.numberValue?.int64
        }
        func milliseconds(_ name: String) -> Int64? { self.string(name).flatMap { Int64($0) } ?? self.integer(name) }
    }

    static func object(_ bytes: [UInt8]) -> Fields {
        Fields((try? JSONParser.parse(bytes, maximumDepth: 8))?.objectValue ?? [:])
    }

    /// The transaction's stored verifyReceipt JSON.
    static func fields(_ transaction: LedgerTransaction) -> Fields { Self.object(transaction.json) }

    /// The payload of a transaction's JWS, when the ledger stored one (its signature was checked when it was
    /// recorded).
    static func payload(_ jws: String?) -> Fields? {
        guard let jws, let members = try? CompactJWS.payload(of: jws.utf8) else { return nil }
        return Fields(members)
    }
}
