import AppStoreJWS
import struct Foundation.Date
import ReceiptKit
import ReceiptLedger
import _ReceiptKitShared

/// The SVG timeline of one customer (`GET /ui/subscriptions/{id}`): a lane per original transaction, each of its
/// transactions a bar from purchase to expiry (to the chart's end for a purchase that does not expire), grace-period
/// and billing-retry spans after the latest expiry, refunds and revocations marked where they happened, offers
/// labelled, the notifications Apple sent as dots, the renewal intent at the lane's end, and a line at the moment
/// the states are for.
///
/// Every element the tests and a reader look for carries a class: `transaction` (with `refunded` when the App Store
/// refunded or revoked it), `refund-mark`, `grace`, `billing-retry`, `offer`, `notification`, `intent`, `now`.
/// Styling is the page's stylesheet; the SVG itself holds no script, no style attribute and no external reference.
struct TimelineChart: Sendable {
    /// One original transaction's row.
    struct Lane: Sendable {
        let originalTransactionID: String
        /// Its transactions, oldest purchase first.
        let purchases: [PurchaseFacts]
        let renewal: RenewalFacts?
        let item: EntitlementItem?
        let notifications: [LedgerNotificationEntry]
    }

    let lanes: [Lane]
    /// The moment the states are for, in milliseconds.
    let moment: Int64
    /// The first and last instant drawn, in milliseconds (`start < end`).
    let start: Int64
    let end: Int64

    static let width = 1000.0
    static let labelWidth = 200.0
    static let intentWidth = 170.0
    static let axisHeight = 36.0
    static let laneHeight = 70.0

    init(_ facts: CustomerFacts, notifications: [LedgerNotificationEntry]) {
        let moment = facts.moment.epochMilliseconds
        var byOriginal: [String: [PurchaseFacts]] = [:]
        for purchase in facts.purchases { byOriginal[purchase.originalTransactionID, default: []].append(purchase) }
        var itemOf: [String: EntitlementItem] = [:]
        for item in facts.items { itemOf[item.purchase.originalTransactionID] = item }
        var noticesOf: [String: [LedgerNotificationEntry]] = [:]
        for notice in notifications { noticesOf[notice.originalTransactionIdentifier, default: []].append(notice) }
        let lanes = byOriginal.map { original, purchases in
            Lane(
                originalTransactionID: original,
                purchases: purchases.sorted { ($0.purchaseMilliseconds ?? 0, $0.transactionID) < ($1.purchaseMilliseconds ?? 0, $1.transactionID) },
                renewal: facts.renewals[original], item: itemOf[original], notifications: noticesOf[original] ?? [])
        }
        self.lanes = lanes.sorted {
            ($0.purchases.first?.purchaseMilliseconds ?? 0, $0.originalTransactionID)
                < ($1.purchases.first?.purchaseMilliseconds ?? 0, $1.originalTransactionID)
        }
        self.moment = moment
        // From the first purchase to the last expiry or grace period, the moment and the last notification.
        var instants = [moment]
        for purchase in facts.purchases {
            instants += [purchase.purchaseMilliseconds, purchase.expiresMilliseconds, purchase.revocationMilliseconds]
                .compactMap { $0 }
        }
        for renewal in facts.renewals.values {
            if let grace = renewal.gracePeriodExpiresMilliseconds { instants.append(grace) }
        }
        instants += notifications.map(\.signedMilliseconds)
        let first = instants.min() ?? moment
        let last = instants.max() ?? moment
        // A margin of 3 % each side (at least an hour), so that nothing sits on the edge.
        let span = last.subtractingReportingOverflow(first)
        let margin = span.overflow ? Int64.max / 64 : max(3_600_000, span.partialValue / 33)
        self.start = first.subtractingReportingOverflow(margin).overflow ? Int64.min / 2 : first - margin
        self.end = last.addingReportingOverflow(margin).overflow ? Int64.max / 2 : last + margin
    }

    /// The chart's height for its lanes.
    var height: Double { Self.axisHeight + Self.laneHeight * Double(max(1, self.lanes.count)) + 8 }

    /// The x coordinate of `milliseconds`, clamped to the plot.
    func x(_ milliseconds: Int64) -> Double {
        let plot = Self.width - Self.labelWidth - Self.intentWidth
        let fraction = (Double(milliseconds) - Double(self.start)) / max(1, Double(self.end) - Double(self.start))
        return Self.labelWidth + plot * min(1, max(0, fraction))
    }

    /// The SVG element.
    var svg: String {
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" class="timeline" role="img" width="\(Self.number(Self.width))" \
            height="\(Self.number(self.height))" viewBox="0 0 \(Self.number(Self.width)) \(Self.number(self.height))" \
            aria-label="Timeline of \(self.lanes.count) original transaction\(self.lanes.count == 1 ? "" : "s")">

            """
        out += self.axis
        for (index, lane) in self.lanes.enumerated() {
            out += self.draw(lane, top: Self.axisHeight + Self.laneHeight * Double(index))
        }
        let now = self.x(self.moment)
        out += """
            <line class="now" x1="\(Self.number(now))" y1="\(Self.number(Self.axisHeight - 6))" x2="\(Self.number(now))" \
            y2="\(Self.number(self.height - 4))"><title>\(HTMLText.escaped("at " + Self.date(self.moment)))</title></line>

            """
        return out + "</svg>"
    }

    /// Five dates along the top.
    private var axis: String {
        var out = ""
        for step in 0...4 {
            let instant = Double(self.start) + (Double(self.end) - Double(self.start)) * Double(step) / 4
            let milliseconds = Int64(exactly: instant.rounded()) ?? self.start
            let x = self.x(milliseconds)
            let anchor = step == 0 ? "start" : step == 4 ? "end" : "middle"
            out += """
                <line class="grid" x1="\(Self.number(x))" y1="\(Self.number(Self.axisHeight - 4))" x2="\(Self.number(x))" \
                y2="\(Self.number(self.height - 4))"/>
                <text class="axis" x="\(Self.number(x))" y="14" text-anchor="\(anchor)">\(Self.day(milliseconds))</text>

                """
        }
        return out
    }

    private func draw(_ lane: Lane, top: Double) -> String {
        let bar = top + 26
        var out = "<g class=\"lane\" data-original-transaction-id=\"\(HTMLText.escaped(lane.originalTransactionID))\">\n"
        let product = lane.purchases.last?.productID ?? ""
        out += """
            <text class="lane-label" x="4" y="\(Self.number(bar + 8))">\(HTMLText.escaped(Self.clipped(product, 26)))</text>
            <text class="lane-id" x="4" y="\(Self.number(bar + 24))">\(HTMLText.escaped(Self.clipped(lane.originalTransactionID, 30)))</text>

            """
        var latestExpiry: Int64?
        for purchase in lane.purchases {
            let begin = purchase.purchaseMilliseconds ?? purchase.versionMilliseconds
            let finish = purchase.expiresMilliseconds ?? self.end
            if let expiry = purchase.expiresMilliseconds, expiry > (latestExpiry ?? Int64.min) { latestExpiry = expiry }
            let x0 = self.x(begin)
            let w = max(2, self.x(finish) - x0)
            let refunded = purchase.revocationMilliseconds != nil
            var title = "\(purchase.productID) · transaction \(purchase.transactionID)\n\(Self.date(begin))"
            title += purchase.expiresMilliseconds.map { " → \(Self.date($0))" } ?? " (does not expire)"
            if let offer = purchase.offer { title += "\noffer: \(Self.offerName(offer))" }
            if let revoked = purchase.revocationMilliseconds { title += "\nrefunded or revoked \(Self.date(revoked))" }
            out += """
                <rect class="transaction\(refunded ? " refunded" : "")\(purchase.expiresMilliseconds == nil ? " lasting" : "")" \
                data-transaction-id="\(HTMLText.escaped(purchase.transactionID))" x="\(Self.number(x0))" \
                y="\(Self.number(bar - 9))" width="\(Self.number(w))" height="18" rx="3"><title>\(HTMLText.escaped(title))</title></rect>

                """
            if let offer = purchase.offer {
                out += """
                    <text class="offer" x="\(Self.number(x0 + 2))" y="\(Self.number(bar - 12))">\(HTMLText.escaped(Self.offerName(offer)))</text>

                    """
            }
            if let revoked = purchase.revocationMilliseconds {
                let mark = self.x(revoked)
                let label = purchase.ownership == .familyShared ? "revoked" : "refunded"
                out += """
                    <g class="refund-mark" data-transaction-id="\(HTMLText.escaped(purchase.transactionID))">\
                    <line x1="\(Self.number(mark))" y1="\(Self.number(bar - 14))" x2="\(Self.number(mark))" y2="\(Self.number(bar + 14))"/>\
                    <text x="\(Self.number(mark + 3))" y="\(Self.number(bar + 24))">\(label)</text>\
                    <title>\(HTMLText.escaped("\(label) \(Self.date(revoked))"))</title></g>

                    """
            }
        }
        // After the latest expiry: the grace period, then billing retry while the App Store still tries.
        if let expiry = latestExpiry, let renewal = lane.renewal {
            var retryFrom = expiry
            if let grace = renewal.gracePeriodExpiresMilliseconds, grace > expiry {
                let x0 = self.x(expiry)
                out += """
                    <rect class="grace" x="\(Self.number(x0))" y="\(Self.number(bar - 5))" width="\(Self.number(max(2, self.x(grace) - x0)))" \
                    height="10"><title>\(HTMLText.escaped("grace period until \(Self.date(grace))"))</title></rect>

                    """
                retryFrom = grace
            }
            if renewal.isInBillingRetryPeriod == true, self.moment > retryFrom {
                let x0 = self.x(retryFrom)
                out += """
                    <rect class="billing-retry" x="\(Self.number(x0))" y="\(Self.number(bar - 5))" \
                    width="\(Self.number(max(2, self.x(self.moment) - x0)))" height="10"><title>billing retry</title></rect>

                    """
            }
        }
        for notice in lane.notifications {
            let name = notice.notificationType + (notice.subtype.map { " · \($0)" } ?? "")
            out += """
                <circle class="notification" cx="\(Self.number(self.x(notice.signedMilliseconds)))" cy="\(Self.number(top + 8))" \
                r="4"><title>\(HTMLText.escaped("\(name)\nsigned \(Self.date(notice.signedMilliseconds))"))</title></circle>

                """
        }
        out += """
            <text class="intent" x="\(Self.number(Self.width - Self.intentWidth + 8))" y="\(Self.number(bar + 4))">\
            \(HTMLText.escaped(Self.clipped(Self.intent(lane.item, lane.renewal), 30)))</text>
            </g>

            """
        return out
    }

    /// What happens at a lane's end: the item's state, then whether and into what it renews.
    static func intent(_ item: EntitlementItem?, _ renewal: RenewalFacts?) -> String {
        let state = item.map { Self.stateName($0.state) } ?? "—"
        guard let item, item.purchase.kind == .autoRenewable else { return state }
        switch renewal?.autoRenewStatus {
        case .on?:
            let next = renewal?.autoRenewProductID
            return next.map { $0 == item.purchase.productID ? "\(state) · renews" : "\(state) · renews as \($0)" }
                ?? "\(state) · renews"
        case .off?:
            return "\(state) · will not renew"
        default:
            return state
        }
    }

    static func stateName(_ state: EntitlementState) -> String {
        switch state {
        case .active: "active"
        case .gracePeriod: "grace period"
        case .billingRetry: "billing retry"
        case .expired: "expired"
        case .revoked: "revoked"
        case .refunded: "refunded"
        }
    }

    static func offerName(_ offer: PurchaseOffer) -> String {
        let kind =
            switch offer.kind {
            case "free_trial": "free trial"
            case "introductory": "introductory offer"
            case "promotional": "promotional offer"
            case "offer_code": "offer code"
            case "win_back": "win-back offer"
            default: "offer"
            }
        return offer.identifier.map { "\(kind) \($0)" } ?? kind
    }

    /// `text`, cut at `limit` characters with an ellipsis.
    static func clipped(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    /// An instant as RFC 3339 (UTC), or its milliseconds when the year is outside 0000–9999.
    static func date(_ milliseconds: Int64) -> String {
        RFC3339Format.string(EpochMilliseconds.date(milliseconds)) ?? "\(milliseconds) ms"
    }

    /// The day of an instant (`YYYY-MM-DD`).
    static func day(_ milliseconds: Int64) -> String {
        String(Self.date(milliseconds).prefix(10))
    }

    /// A coordinate with one decimal.
    static func number(_ value: Double) -> String {
        guard value.isFinite, value.magnitude < 1e12 else { return "0" }
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let magnitude = tenths.magnitude
        return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }
}
