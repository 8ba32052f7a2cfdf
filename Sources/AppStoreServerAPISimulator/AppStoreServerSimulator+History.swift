import AppStoreJWS
import Hummingbird
import NIOConcurrencyHelpers

extension AppStoreServerSimulator {
    /// Apple's `productType` query values (the simulator's own reading of Apple's documentation, apart from the
    /// client's `ProductType`) and the transaction `type` each selects.
    static let productTypes: [String: TransactionType] = [
        "AUTO_RENEWABLE": .autoRenewableSubscription,
        "NON_RENEWABLE": .nonRenewingSubscription,
        "CONSUMABLE": .consumable,
        "NON_CONSUMABLE": .nonConsumable,
    ]

    /// What Get Transaction History's query selects, read from the query or refused with Apple's error.
    struct HistoryFilter {
        var descending = false
        var startDate: Int64?
        var endDate: Int64?
        var productIDs: Set<String> = []
        var types: Set<TransactionType> = []
        var subscriptionGroups: Set<String> = []
        var ownership: InAppOwnershipType?
        var revoked: Bool?

        func admits(_ fields: [String: JSONValue]) -> Bool {
            let purchased = fields.integer("purchaseDate") ?? 0
            if let startDate = self.startDate, purchased < startDate { return false }
            if let endDate = self.endDate, purchased >= endDate { return false }
            if !self.productIDs.isEmpty, !self.productIDs.contains(fields.string("productId") ?? "") { return false }
            if !self.types.isEmpty, !self.types.contains(where: { $0 == fields.enumeration("type") }) { return false }
            if !self.subscriptionGroups.isEmpty,
                !self.subscriptionGroups.contains(fields.string("subscriptionGroupIdentifier") ?? "")
            {
                return false
            }
            if let ownership = self.ownership, fields.enumeration("inAppOwnershipType") != ownership { return false }
            if let revoked = self.revoked, (fields["revocationDate"] != nil) != revoked { return false }
            return true
        }
    }

    static func historyFilter(_ query: Parameters) -> SimulatorChecked<HistoryFilter> {
        var filter = HistoryFilter()
        switch query.get("sort") {
        case nil, "ASCENDING": filter.descending = false
        case "DESCENDING": filter.descending = true
        default: return .refused(.invalidSort)
        }
        if let text = query.get("startDate") {
            guard let value = Int64(text), value >= 0 else { return .refused(.invalidStartDate) }
            filter.startDate = value
        }
        if let text = query.get("endDate") {
            guard let value = Int64(text), value >= 0 else { return .refused(.invalidEndDate) }
            filter.endDate = value
        }
        if let start = filter.startDate, let end = filter.endDate, start >= end {
            return .refused(.startDateAfterEndDate)
        }
        for name in query.getAll("productType") {
            guard let type = Self.productTypes[name] else { return .refused(.invalidProductType) }
            filter.types.insert(type)
        }
        filter.productIDs = Set(query.getAll("productId"))
        filter.subscriptionGroups = Set(query.getAll("subscriptionGroupIdentifier"))
        switch query.get("inAppOwnershipType") {
        case nil: break
        case let value?
        where [InAppOwnershipType.purchased, .familyShared, .assigned].contains(InAppOwnershipType(rawValue: value)):
            filter.ownership = InAppOwnershipType(rawValue: value)
        case _?: return .refused(.invalidInAppOwnershipType)
        }
        switch query.get("revoked") {
        case nil: break
        case "true": filter.revoked = true
        case "false": filter.revoked = false
        default: return .refused(.invalidRevoked)
        }
        return .accepted(filter)
    }

    /// Get Transaction History v2: the customer's transactions for the app in the order of their last change
    /// (`sort`), filtered, a page at a time; `revision` continues after the page it came with.
    func history(_ id: String?, _ query: Parameters, _ caller: SimulatedCaller) -> SimulatorAnswer {
        guard let id, Self.isValidIdentifier(id) else { return .error(.invalidTransactionId) }
        let filter: HistoryFilter
        switch Self.historyFilter(query) {
        case .accepted(let value): filter = value
        case .refused(let error): return .error(error)
        }
        let boundary: Int?
        switch SimulatorPageToken.position(query.get("revision"), "revision", refusal: .invalidRequestRevision) {
        case .accepted(let value): boundary = value
        case .refused(let error): return .error(error)
        }
        let page: (fields: [[String: JSONValue]], last: Int?, hasMore: Bool)? = self.store.state.withLockedValue {
            state in
            guard let stored = state.transactions[id], self.visible(stored, to: caller) else { return nil }
            var family = state.transactions.values.filter {
                $0.customer == stored.customer && self.visible($0, to: caller) && filter.admits($0.fields)
            }
            if let boundary {
                family = family.filter { filter.descending ? $0.sequence < boundary : $0.sequence > boundary }
            }
            family.sort { filter.descending ? $0.sequence > $1.sequence : $0.sequence < $1.sequence }
            let selected = family.prefix(state.pageSize)
            return (selected.map(\.fields), selected.last?.sequence, family.count > selected.count)
        }
        guard let page else { return .error(.transactionIdNotFound) }
        guard let signed = self.signAll(page.fields) else { return .error(.generalInternal) }
        // With nothing new the revision stays where the client is; a first empty descending page starts at the end.
        let position = page.last ?? boundary ?? (filter.descending ? Int.max : 0)
        var members = self.appMembers(caller)
        members["revision"] = .string(SimulatorPageToken.encode("revision", position))
        members["hasMore"] = .bool(page.hasMore)
        members["signedTransactions"] = .array(signed)
        return .json(members)
    }

    /// Get Refund History v2: the customer's refunded and revoked transactions for the app, oldest refund first,
    /// a page at a time.
    func refunds(_ id: String?, _ query: Parameters, _ caller: SimulatedCaller) -> SimulatorAnswer {
        guard let id, Self.isValidIdentifier(id) else { return .error(.invalidTransactionId) }
        let boundary: Int
        switch SimulatorPageToken.position(query.get("revision"), "refunds", refusal: .invalidRequestRevision) {
        case .accepted(let value): boundary = value ?? 0
        case .refused(let error): return .error(error)
        }
        let page: (fields: [[String: JSONValue]], last: Int?, hasMore: Bool)? = self.store.state.withLockedValue {
            state in
            guard let stored = state.transactions[id], self.visible(stored, to: caller) else { return nil }
            let refunded = state.transactions.values
                .filter { $0.customer == stored.customer && self.visible($0, to: caller) }
                .compactMap { transaction in transaction.refundSequence.map { ($0, transaction.fields) } }
                .filter { $0.0 > boundary }
                .sorted { $0.0 < $1.0 }
            let selected = refunded.prefix(state.pageSize)
            return (selected.map(\.1), selected.last?.0, refunded.count > selected.count)
        }
        guard let page else { return .error(.transactionIdNotFound) }
        guard let signed = self.signAll(page.fields) else { return .error(.generalInternal) }
        return .json([
            "signedTransactions": .array(signed),
            "revision": .string(SimulatorPageToken.encode("refunds", page.last ?? boundary)),
            "hasMore": .bool(page.hasMore),
        ])
    }
}
