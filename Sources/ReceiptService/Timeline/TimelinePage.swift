import AppStoreJWS
import Crypto
import struct Foundation.Data
import ReceiptLedger

/// The HTML of `GET /ui/subscriptions` and `GET /ui/subscriptions/{originalTransactionId}`: a search form, and for a
/// customer the timeline (``TimelineChart``) with the tables of their subscriptions and purchases, transactions and
/// notifications below it. Server-rendered, no script, no external resource: the one stylesheet is inline and
/// admitted by its hash in ``contentSecurityPolicy``.
enum TimelinePage {
    /// The page's stylesheet.
    static let style = """
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d1d1f;background:#fff}
        header{background:#f5f5f7;border-bottom:1px solid #d2d2d7;padding:12px 20px}
        h1{font-size:18px;margin:0 0 8px}h2{font-size:15px;margin:24px 0 8px}
        main{padding:8px 20px 40px}form{display:flex;gap:8px;flex-wrap:wrap;align-items:end}
        label{display:flex;flex-direction:column;font-size:12px;color:#515154}
        input,select,button{font:inherit;padding:4px 6px}
        .message{padding:8px 12px;border-radius:6px;background:#fff4e5;border:1px solid #f5c26b}
        .summary{color:#515154}
        table{border-collapse:collapse;width:100%;font-size:13px}
        th,td{border-bottom:1px solid #e5e5ea;padding:4px 8px;text-align:left;vertical-align:top}td{white-space:nowrap}
        th{background:#fafafa;font-weight:600}td.mono,span.mono{font-family:ui-monospace,Menlo,monospace}
        svg.timeline{max-width:100%;height:auto;border:1px solid #e5e5ea;border-radius:6px;background:#fff}
        .timeline text{font-size:11px;fill:#1d1d1f}.timeline .axis,.timeline .lane-id{fill:#6e6e73}
        .timeline .grid{stroke:#ececf0}.timeline .now{stroke:#0071e3;stroke-width:1.5;stroke-dasharray:4 3}
        .timeline .transaction{fill:#34c759;stroke:#248a3d}.timeline .transaction.lasting{fill:#5ac8fa;stroke:#0a84ff}
        .timeline .transaction.refunded{fill:#ffd1cf;stroke:#ff3b30;stroke-dasharray:3 2}
        .timeline .refund-mark line{stroke:#ff3b30;stroke-width:2}.timeline .refund-mark text{fill:#d70015}
        .timeline .grace{fill:#ffcc00}.timeline .billing-retry{fill:#ff9500;opacity:.6}
        .timeline .offer{fill:#8944ab;font-size:10px}.timeline .notification{fill:#0071e3}
        .timeline .intent{font-weight:600}.state-active,.state-grace_period{color:#248a3d}
        .state-refunded,.state-revoked{color:#d70015}
        """

    /// `default-src 'none'`: nothing loads, nothing runs; the inline stylesheet by its SHA-256; forms submit here only.
    static let contentSecurityPolicy: String = {
        let digest = Data(SHA256.hash(data: Array(Self.style.utf8))).base64EncodedString()
        return "default-src 'none'; style-src 'sha256-\(digest)'; img-src 'none'; form-action 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'"
    }()

    /// What the search form shows filled in.
    struct Search: Sendable {
        var bundleIdentifier = ""
        var environment = AppStoreEnvironment.production
        var text = ""
    }

    /// The page with the search form alone, and `message` when there is one.
    static func search(_ search: Search, message: String?) -> String {
        Self.document(title: "Subscriptions", search: search, message: message, body: "")
    }

    /// The customer's page.
    static func customer(
        _ facts: CustomerFacts, notifications: [LedgerNotificationEntry], notificationLimit: Int, search: Search
    ) -> String {
        let chart = TimelineChart(facts, notifications: notifications)
        var active = Set<String>()
        for item in facts.items where item.state.grantsAccess { active.formUnion(item.entitlements) }
        var body = """
            <p class="summary">\(HTMLText.escaped(search.bundleIdentifier)) · \(HTMLText.escaped(search.environment.rawValue)) · \
            states at \(HTMLText.escaped(TimelineChart.date(chart.moment))) · active entitlements: \
            <strong>\(active.isEmpty ? "none" : HTMLText.escaped(active.sorted().joined(separator: ", ")))</strong></p>
            \(chart.svg)

            """
        body += Self.itemsTable(facts.items)
        body += Self.transactionsTable(chart.lanes.flatMap(\.purchases))
        body += Self.notificationsTable(notifications, limit: notificationLimit)
        let first = facts.customer.originalTransactionIdentifiers.first ?? ""
        return Self.document(title: "Customer \(first)", search: search, message: nil, body: body)
    }

    private static func itemsTable(_ items: [EntitlementItem]) -> String {
        var rows = ""
        for item in items {
            rows += Self.row([
                (HTMLText.escaped(item.purchase.productID), nil),
                (HTMLText.escaped(item.purchase.originalTransactionID), "mono"),
                ("<span class=\"state-\(item.state.rawValue)\">\(HTMLText.escaped(TimelineChart.stateName(item.state)))</span>", nil),
                (HTMLText.escaped(item.entitlements.joined(separator: ", ")), nil),
                (Self.optionalDate(item.purchase.expiresMilliseconds), nil),
                (Self.optionalDate(item.renewal?.gracePeriodExpiresMilliseconds), nil),
                (item.purchase.kind == .autoRenewable ? HTMLText.escaped(TimelineChart.intent(item, item.renewal)) : "", nil),
                (item.purchase.offer.map { HTMLText.escaped(TimelineChart.offerName($0)) } ?? "", nil),
                (Self.ownership(item.purchase.ownership), nil),
            ])
        }
        return Self.table(
            "Subscriptions and purchases", id: "items",
            ["Product", "Original transaction", "State", "Entitlements", "Expires", "Grace period until", "Renewal", "Offer", "Ownership"],
            rows, empty: "No subscription or lasting purchase.")
    }

    private static func transactionsTable(_ purchases: [PurchaseFacts]) -> String {
        var rows = ""
        for purchase in purchases {
            rows += Self.row([
                (HTMLText.escaped(purchase.transactionID), "mono"),
                (HTMLText.escaped(purchase.originalTransactionID), "mono"),
                (HTMLText.escaped(purchase.productID), nil),
                (HTMLText.escaped(purchase.kind.rawValue), nil),
                (Self.optionalDate(purchase.purchaseMilliseconds), nil),
                (Self.optionalDate(purchase.expiresMilliseconds), nil),
                (purchase.offer.map { HTMLText.escaped(TimelineChart.offerName($0)) } ?? "", nil),
                (Self.ownership(purchase.ownership), nil),
                (purchase.revocationMilliseconds.map { HTMLText.escaped(TimelineChart.date($0)) } ?? "", nil),
                (HTMLText.escaped(purchase.source.rawValue), nil),
            ])
        }
        return Self.table(
            "Transactions", id: "transactions",
            ["Transaction", "Original transaction", "Product", "Type", "Purchased", "Expires", "Offer", "Ownership",
             "Refunded or revoked", "Learnt from"],
            rows, empty: "No transaction.")
    }

    private static func notificationsTable(_ notifications: [LedgerNotificationEntry], limit: Int) -> String {
        var rows = ""
        for notice in notifications {
            rows += Self.row([
                (HTMLText.escaped(TimelineChart.date(notice.signedMilliseconds)), nil),
                (HTMLText.escaped(notice.notificationType), nil),
                (HTMLText.escaped(notice.subtype ?? ""), nil),
                (HTMLText.escaped(notice.originalTransactionIdentifier), "mono"),
                (HTMLText.escaped(TimelineChart.date(notice.receivedMilliseconds)), nil),
                (HTMLText.escaped(notice.notificationUUID), "mono"),
            ])
        }
        var table = Self.table(
            "Notifications", id: "notifications",
            ["Signed", "Type", "Subtype", "Original transaction", "Received", "UUID"], rows,
            empty: "No notification recorded (the ledger notes whose they are from schema version 9 on).")
        if notifications.count >= limit {
            table += "<p class=\"summary\">The newest \(limit) notifications are shown.</p>\n"
        }
        return table
    }

    private static func table(_ title: String, id: String, _ headings: [String], _ rows: String, empty: String) -> String {
        guard !rows.isEmpty else { return "<h2>\(title)</h2>\n<p class=\"summary\" id=\"\(id)\">\(empty)</p>\n" }
        let head = headings.map { "<th>\($0)</th>" }.joined()
        return "<h2>\(title)</h2>\n<table id=\"\(id)\"><thead><tr>\(head)</tr></thead><tbody>\n\(rows)</tbody></table>\n"
    }

    /// A row of cells already escaped, each with an optional class.
    private static func row(_ cells: [(String, String?)]) -> String {
        "<tr>" + cells.map { cell in cell.1.map { "<td class=\"\($0)\">\(cell.0)</td>" } ?? "<td>\(cell.0)</td>" }.joined()
            + "</tr>\n"
    }

    private static func optionalDate(_ milliseconds: Int64?) -> String {
        milliseconds.map { HTMLText.escaped(TimelineChart.date($0)) } ?? ""
    }

    private static func ownership(_ ownership: InAppOwnershipType?) -> String {
        switch ownership {
        case .purchased?: "purchased"
        case .familyShared?: "family shared"
        case .assigned?: "assigned"
        default: ""
        }
    }

    private static func document(title: String, search: Search, message: String?, body: String) -> String {
        let environments = [AppStoreEnvironment.production, .sandbox, .xcode].map { environment in
            let selected = environment == search.environment ? " selected" : ""
            return "<option\(selected)>\(HTMLText.escaped(environment.rawValue))</option>"
        }.joined()
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>\(HTMLText.escaped(title)) · ReceiptKit</title><style>\(Self.style)</style></head>
            <body><header><h1>Subscription timeline</h1>
            <form method="get" action="/ui/subscriptions" role="search">
            <label>Bundle id<input name="bundle_id" required maxlength="255" value="\(HTMLText.escaped(search.bundleIdentifier))"></label>
            <label>Environment<select name="environment">\(environments)</select></label>
            <label>Transaction id, original transaction id or app account token<input name="q" required maxlength="64" \
            size="40" value="\(HTMLText.escaped(search.text))"></label>
            <button type="submit">Find</button></form></header>
            <main>\(message.map { "<p class=\"message\" role=\"alert\">\(HTMLText.escaped($0))</p>\n" } ?? "")\(body)</main>
            </body></html>

            """
    }
}
