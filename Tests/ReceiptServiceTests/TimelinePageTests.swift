import AppStoreJWS
import AppStorePKI
import Foundation
import HTTPTypes
import HummingbirdTesting
import LedgerTestSupport
import NIOCore
import ReceiptKitTesting
import ReceiptLedger
import SharedFixtures
@testable import ReceiptService
import Testing

/// `GET /ui/subscriptions/{originalTransactionId}` and its search, over HTTP on every backend: the customer of the
/// mirror's tests (22 monthly renewals, a yearly subscription in its grace period, a refunded lifetime purchase),
/// with two notifications; HTTP Basic with the admin token; the page escapes what the ledger holds.
@Suite("Timeline page")
struct TimelinePageTests {
    typealias C = AppStoreMirrorCustomerTests
    typealias E = EntitlementsTests
    typealias N = NotificationServiceTests
    typealias H = ServiceHarness

    /// `Authorization: Basic` for `user` and `password`.
    static func basic(_ password: String, user: String = "support") -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    /// GETs `uri` with `authorization`: the status, the body as text, the headers.
    static func get(
        _ client: any TestClientProtocol, _ uri: String, authorization: String? = Self.basic(E.tokens[0])
    ) async throws -> (status: Int, html: String, headers: HTTPFields) {
        var headers: HTTPFields = [:]
        if let authorization { headers[.authorization] = authorization }
        return try await client.execute(uri: uri, method: .get, headers: headers) { response in
            (Int(response.status.code), String(buffer: response.body), response.headers)
        }
    }

    /// How often `needle` occurs in `text`.
    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    static let app = "bundle_id=\(N.bundle)&environment=Production"
    static let latestMonthly = String((Int64(C.monthly) ?? 0) + 21)

    /// The customer, and two notifications about it as the ledger records verified ones: the latest monthly
    /// renewal and the lifetime purchase's refund.
    static func learn(into ledger: any Ledger) async throws {
        _ = try await C.learnCustomer(into: ledger)
        let fields = C.transactions()
        for (index, (type, id)) in [("DID_RENEW", Self.latestMonthly), ("REFUND", C.lifetime)].enumerated() {
            let transaction = try #require(fields.first { $0["transactionId"] == .string(id) })
            let row = try #require(
                LedgerTransaction(
                    verified: try JWSTransactionPayload(fields: transaction), jws: try C.sign(transaction),
                    environment: .production, source: .notification))
            let recorded = try await ledger.recordNotification(
                LedgerNotification(
                    notificationUUID: "7c1e0000-0000-4000-8000-00000000000\(index)", environment: .production,
                    bundleIdentifier: N.bundle, notificationType: type, subtype: nil,
                    signedMilliseconds: E.ms(N.signed) + Int64(index) * 1000, receivedMilliseconds: E.ms(ServiceTestPKI.now),
                    payloadJSON: Array("{}".utf8), transaction: row, renewalInfo: nil))
            #expect(recorded)
        }
    }

    @Test("the page: one bar per transaction, the refund marked, the grace period, offers, notifications, renewal intent; tables below",
          arguments: LedgerBackend.available)
    func customerPage(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            try await Self.learn(into: ledger)
            // The ledger finds the notifications by original transaction, newest first; none of another customer.
            let found = try await ledger.notifications(
                environment: .production, bundleIdentifier: N.bundle,
                originalTransactionIdentifiers: [C.monthly, C.yearly, C.lifetime], limit: 10)
            #expect(found.map(\.notificationType) == ["REFUND", "DID_RENEW"])
            #expect(found.map(\.originalTransactionIdentifier) == [C.lifetime, C.monthly])
            #expect(try await ledger.notifications(
                environment: .production, bundleIdentifier: N.bundle, originalTransactionIdentifiers: [C.monthly, C.lifetime],
                limit: 1).map(\.notificationType) == ["REFUND"])
            #expect(try await ledger.notifications(
                environment: .production, bundleIdentifier: N.bundle, originalTransactionIdentifiers: [C.stranger], limit: 10).isEmpty)
            #expect(try await ledger.notifications(
                environment: .sandbox, bundleIdentifier: N.bundle, originalTransactionIdentifiers: [C.monthly], limit: 10).isEmpty)

            try await H.withLiveService(try E.configuration(), ledger: ledger) { client, _ in
                let page = try await Self.get(client, "/ui/subscriptions/\(C.monthly)?\(Self.app)")
                #expect(page.status == 200)
                #expect(page.headers[.contentType] == "text/html; charset=utf-8")
                #expect(page.headers[.cacheControl] == "no-store")
                #expect(page.headers[.contentSecurityPolicy] == TimelinePage.contentSecurityPolicy)
                #expect(page.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'none'; style-src 'sha256-") == true)
                #expect(page.headers[.xContentTypeOptions] == "nosniff")
                let html = page.html
                #expect(!html.contains("<script"))
                #expect(!html.contains("style=\""), "no style attribute: the policy admits the stylesheet by its hash only")
                // No external resource: the one URL is the SVG namespace, nothing has a source, a link or a url().
                let unnamespaced = html.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
                for reference in ["http:", "https:", "//", "src=", "href=", "url(", "@import"] {
                    #expect(!unnamespaced.contains(reference), "\(reference)")
                }
                #expect(page.headers[try #require(TimelineAnswer.resourcePolicy)] == "same-origin")
                // 22 monthly renewals, the yearly subscription and the lifetime purchase: a bar each, in three lanes.
                #expect(Self.count("<rect class=\"transaction", in: html) == 24)
                #expect(Self.count("<g class=\"lane\"", in: html) == 3)
                #expect(Self.count("<rect class=\"transaction refunded lasting\" data-transaction-id=\"\(C.lifetime)\"", in: html) == 1)
                #expect(Self.count("<g class=\"refund-mark\" data-transaction-id=\"\(C.lifetime)\"", in: html) == 1)
                #expect(Self.count("<rect class=\"grace\"", in: html) == 1, "the yearly subscription's grace period")
                #expect(Self.count("<rect class=\"billing-retry\"", in: html) == 0, "the grace period has not ended")
                #expect(Self.count("<circle class=\"notification\"", in: html) == 2)
                #expect(html.contains(">active · renews</text>"), "the monthly subscription's intent")
                #expect(html.contains(">grace period · renews</text>"))
                #expect(html.contains(">refunded</text>"))
                #expect(Self.count("<line class=\"now\"", in: html) == 1)
                // The tables: every transaction, both notifications, the active entitlements.
                let transactions = try #require(html.components(separatedBy: "<table id=\"transactions\">").last)
                #expect(Self.count("<tr>", in: transactions.components(separatedBy: "</table>").first ?? "") == 24 + 1)
                let notifications = try #require(html.components(separatedBy: "<table id=\"notifications\">").last)
                #expect(notifications.contains("<td>REFUND</td>") && notifications.contains("<td>DID_RENEW</td>"))
                #expect(html.contains("active entitlements: <strong>archive, pro</strong>"))

                // Any id of the customer opens the same customer; a moment before the refund shows no refund state.
                let lifetime = try await Self.get(client, "/ui/subscriptions/\(C.lifetime)?\(Self.app)")
                #expect(Self.count("<rect class=\"transaction", in: lifetime.html) == 24)
                let earlier = ISO8601DateFormatter().string(from: ServiceTestPKI.now.addingTimeInterval(-40 * E.day))
                let before = try await Self.get(client, "/ui/subscriptions/\(C.monthly)?\(Self.app)&at=\(earlier)")
                #expect(before.status == 200)
                #expect(before.html.contains("states at \(earlier)"))
                #expect(before.html.contains("active entitlements: <strong>com.example.app.lifetime, pro</strong>"))
                // Environment defaults to Production.
                let implicit = try await Self.get(client, "/ui/subscriptions/\(C.monthly)?bundle_id=\(N.bundle)")
                #expect(implicit.status == 200 && Self.count("<rect class=\"transaction", in: implicit.html) == 24)
            }
        }
    }

    @Test("HTTP Basic with an admin token as the password, any user name; no token configured: no page (404)")
    func authentication() async throws {
        try await H.withMemoryLedger { ledger in
            try await Self.learn(into: ledger)
            try await H.withLiveService(try AppStoreMirrorTests.configuration(), ledger: ledger) { client, _ in
                let page = try await Self.get(client, "/ui/subscriptions/\(C.monthly)?\(Self.app)")
                let search = try await Self.get(client, "/ui/subscriptions")
                #expect(page.status == 404 && search.status == 404)
            }
            try await H.withLiveService(try E.configuration(), ledger: ledger) { client, _ in
                let path = "/ui/subscriptions/\(C.monthly)?\(Self.app)"
                for refused in [
                    nil, "Bearer " + E.tokens[0], Self.basic(E.tokens[0] + "x"), Self.basic(String(E.tokens[0].dropLast())),
                    "Basic " + Data(E.tokens[0].utf8).base64EncodedString(), "Basic not-base64!", "Basic ",
                ] as [String?] {
                    for uri in [path, "/ui/subscriptions", "/ui/subscriptions?\(Self.app)&q=\(C.monthly)"] {
                        let answer = try await Self.get(client, uri, authorization: refused)
                        #expect(answer.status == 401, "\(refused ?? "none") \(uri)")
                        #expect(answer.headers[.wwwAuthenticate] == "Basic realm=\"ReceiptKit\", charset=\"UTF-8\"")
                        #expect(!answer.html.contains(C.monthly), "nothing of the customer")
                    }
                }
                for authorization in [
                    Self.basic(E.tokens[0]), Self.basic(E.tokens[1], user: ""), Self.basic(E.tokens[0], user: "a b"),
                    "basic " + Data("x:\(E.tokens[1])".utf8).base64EncodedString(),
                ] {
                    #expect(try await Self.get(client, path, authorization: authorization).status == 200, "\(authorization)")
                }
                // A request another site's page made the browser send (it would carry the stored credentials) is
                // refused before the token is looked at; the same site's, and clients that say nothing, are not.
                let site = try #require(TimelineAnswer.fetchSite)
                for uri in [path, "/ui/subscriptions?\(Self.app)&q=\(C.monthly)"] {
                    let crossSite = try await client.execute(
                        uri: uri, method: .get,
                        headers: [.authorization: Self.basic(E.tokens[0]), site: "cross-site"]
                    ) { ($0.status.code, String(buffer: $0.body)) }
                    #expect(crossSite.0 == 403, "\(uri)")
                    #expect(!crossSite.1.contains(C.monthly))
                }
                let sameOrigin = try await client.execute(
                    uri: path, method: .get,
                    headers: [.authorization: Self.basic(E.tokens[0]), site: "same-origin"]
                ) { $0.status.code }
                #expect(sameOrigin == 200)
                // Only GET; the customer page's id is one segment.
                let post = try await client.execute(uri: "/ui/subscriptions", method: .post, headers: [:]) { Int($0.status.code) }
                #expect(post == 405)
                #expect(try await Self.get(client, "/ui/subscriptions/").status == 404)
                #expect(try await Self.get(client, "/ui/subscriptions/\(C.monthly)/x").status == 404)
            }
        }
    }

    @Test("the search: the form alone, a redirect to the page of the original transaction an id names, why not otherwise")
    func search() async throws {
        try await H.withMemoryLedger { ledger in
            try await Self.learn(into: ledger)
            try await H.withLiveService(try E.configuration(), ledger: ledger) { client, _ in
                let form = try await Self.get(client, "/ui/subscriptions")
                #expect(form.status == 200)
                #expect(form.html.contains("<form method=\"get\" action=\"/ui/subscriptions\" role=\"search\">"))
                #expect(!form.html.contains("<svg"))
                for (q, original) in [(Self.latestMonthly, C.monthly), (" \(C.lifetime) ", C.lifetime), (C.yearly, C.yearly)] {
                    let found = try await Self.get(client, "/ui/subscriptions?\(Self.app)&q=\(q.replacingOccurrences(of: " ", with: "+"))")
                    #expect(found.status == 303, "\(q)")
                    #expect(found.headers[.location] == "/ui/subscriptions/\(original)?bundle_id=\(N.bundle)&environment=Production", "\(q)")
                }
                let refusals: [(String, Int, String)] = [
                    ("\(Self.app)&q=", 400, "q is required: a transaction id, an original transaction id or an app account token"),
                    ("\(Self.app)&q=\(C.monthly)&q=\(C.yearly)", 400, "q is given more than once"),
                    ("bundle_id=\(N.bundle)&environment=Bogus&q=\(C.monthly)", 400, "environment is Production, Sandbox or Xcode"),
                    ("\(Self.app)&q=2000000000009999", 404, "the ledger knows no such customer of \(N.bundle) in Production"),
                    ("bundle_id=\(N.bundle)&environment=Sandbox&q=\(C.monthly)", 404, "the ledger knows no such customer of \(N.bundle) in Sandbox"),
                    ("\(Self.app)&q=12a", 400, "give a transaction id or original transaction id (digits) or an app account token (a UUID)"),
                    ("environment=Production&q=\(C.monthly)", 400, "bundle_id is required"),
                    ("\(Self.app)&q=\(C.monthly)&token=1", 400, "unknown parameter token"),
                ]
                for (query, status, message) in refusals {
                    let answer = try await Self.get(client, "/ui/subscriptions?\(query)")
                    #expect(answer.status == status, "\(query)")
                    #expect(answer.html.contains("<p class=\"message\" role=\"alert\">\(HTMLText.escaped(message))</p>"), "\(query)")
                    #expect(answer.html.contains("<form"), "the form again")
                }
                let page: [(String, Int, String)] = [
                    ("/ui/subscriptions/2000000000009999?\(Self.app)", 404, "the ledger knows no such customer of \(N.bundle) in Production"),
                    ("/ui/subscriptions/12a?\(Self.app)", 400, "original_transaction_id is not 1 to 64 digits"),
                    ("/ui/subscriptions/\(C.monthly)?\(Self.app)&at=yesterday", 400, "at is not an RFC 3339 date and time"),
                    ("/ui/subscriptions/\(C.monthly)?\(Self.app)&q=1", 400, "unknown parameter q"),
                ]
                for (uri, status, message) in page {
                    let answer = try await Self.get(client, uri)
                    #expect(answer.status == status, "\(uri)")
                    #expect(answer.html.contains(HTMLText.escaped(message)), "\(uri)")
                }
            }
        }
    }

    @Test("what the ledger holds is text on the page, never markup: a hostile product id and notification type")
    func escaping() async throws {
        let hostile = "com.x\"><script>alert(1)</script><svg onload='x'>&amp;"
        try await H.withMemoryLedger { ledger in
            var fields = JWSSamplePayload.transaction(
                bundleIdentifier: N.bundle, productID: hostile, transactionID: "5000000000000001",
                purchaseDate: ServiceTestPKI.now.addingTimeInterval(-E.day), signedDate: N.signed)
            fields["expiresDate"] = JWSSamplePayload.timestamp(ServiceTestPKI.now.addingTimeInterval(E.day))
            let row = try #require(
                LedgerTransaction(
                    verified: try JWSTransactionPayload(fields: fields), jws: try C.sign(fields), environment: .production,
                    source: .notification))
            try await ledger.recordNotification(
                LedgerNotification(
                    notificationUUID: "7c1e0000-0000-4000-8000-0000000000ff", environment: .production, bundleIdentifier: N.bundle,
                    notificationType: "<b>SUBSCRIBED</b>", subtype: "\u{1}'", signedMilliseconds: E.ms(N.signed),
                    receivedMilliseconds: E.ms(ServiceTestPKI.now), payloadJSON: Array("{}".utf8), transaction: row,
                    renewalInfo: nil))
            try await H.withLiveService(try E.configuration(), ledger: ledger) { client, _ in
                let page = try await Self.get(client, "/ui/subscriptions/5000000000000001?\(Self.app)")
                #expect(page.status == 200)
                #expect(!page.html.contains("<script"))
                #expect(!page.html.contains("<svg onload"))
                #expect(!page.html.contains("<b>SUBSCRIBED"))
                #expect(page.html.contains("com.x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;svg onload=&#39;x&#39;&gt;&amp;amp;"))
                #expect(page.html.contains("<td>&lt;b&gt;SUBSCRIBED&lt;/b&gt;</td><td>\u{FFFD}&#39;</td>"))
                #expect(Self.count("<rect class=\"transaction\"", in: page.html) == 1)
            }
        }
    }
}

/// The timeline page in a real browser: headless Chromium opens it with the admin token as HTTP Basic credentials,
/// draws it and takes a screenshot. Skipped without a Chromium unless `RECEIPTKIT_REQUIRE_CHROMIUM=1` (`.ci/run`).
@Suite("Timeline page in headless Chromium")
struct TimelineBrowserTests {
    typealias T = TimelinePageTests
    typealias C = AppStoreMirrorCustomerTests
    typealias E = EntitlementsTests

    @Test("Chromium draws the page: one bar per transaction, the refunded one marked, the stylesheet applied, nothing refused")
    func chromiumDrawsThePage() async throws {
        guard HeadlessChromium.path != nil else {
            #expect(!HeadlessChromium.isRequired, "RECEIPTKIT_REQUIRE_CHROMIUM=1 but no chromium on PATH")
            print("skipping the browser test: no chromium on PATH (RECEIPTKIT_CHROMIUM names one)")
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-chromium-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await ServiceHarness.withMemoryLedger { ledger in
            try await T.learn(into: ledger)
            try await ServiceHarness.withLiveService(try E.configuration(), ledger: ledger) { client, _ in
                let port = try #require(client.port)
                let url = "http://support:\(E.tokens[0])@127.0.0.1:\(port)/ui/subscriptions/\(C.monthly)?\(T.app)"
                // The DOM as the browser parsed it: the SVG's elements are elements, not text.
                let dom = try await HeadlessChromium.run(["--dump-dom", url], in: directory)
                #expect(dom.status == 0, "\(dom.errors.suffix(2000))")
                #expect(T.count("<rect class=\"transaction", in: dom.output) == 24, "\(dom.output.prefix(600))")
                #expect(T.count("<rect class=\"transaction refunded lasting\" data-transaction-id=\"\(C.lifetime)\"", in: dom.output) == 1)
                #expect(T.count("<g class=\"refund-mark\"", in: dom.output) == 1)
                #expect(dom.output.contains("<table id=\"transactions\">"))
                // Nothing the Content-Security-Policy refused (Chromium logs a refusal as "Refused to …").
                #expect(!dom.errors.contains("Refused to"), "\(dom.errors.suffix(2000))")

                let shot = directory.appendingPathComponent("timeline.png")
                let screenshot = try await HeadlessChromium.run(
                    ["--window-size=1280,1600", "--screenshot=\(shot.path)", url], in: directory)
                #expect(screenshot.status == 0, "\(screenshot.errors.suffix(2000))")
                #expect(!screenshot.errors.contains("Refused to"))
                let png = try Data(contentsOf: shot)
                #expect(png.count > 10_000)
                // The bars' green and the refund's red come from the page's stylesheet only: counted in the
                // screenshot, they show it applied (an unstyled SVG rect is black).
                let colours = try Self.colours(of: shot, ["34c759", "ff3b30", "ffcc00"])
                #expect(colours["width"] == 1280)
                #expect((colours["34c759"] ?? 0) > 1000, "\(colours)")
                #expect((colours["ff3b30"] ?? 0) > 5, "the refund mark, \(colours)")
                #expect((colours["ffcc00"] ?? 0) > 20, "the grace period, \(colours)")
                // Kept for a person to look at when the test runs in CI.
                if let keep = ProcessInfo.processInfo.environment["RECEIPTKIT_SCREENSHOT_DIR"] {
                    try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
                    try? png.write(to: URL(fileURLWithPath: keep).appendingPathComponent("timeline.png"))
                }

                // Without the credentials the browser gets the 401 page, and no customer.
                let refused = try await HeadlessChromium.run(
                    ["--dump-dom", "http://127.0.0.1:\(port)/ui/subscriptions/\(C.monthly)?\(T.app)"], in: directory)
                #expect(!refused.output.contains("<svg"))
                #expect(!refused.output.contains(C.lifetime))
            }
        }
    }

    /// `Scripts/png-colors.py`'s counts for `colours` in the PNG at `file`.
    static func colours(of file: URL, _ colours: [String]) throws -> [String: Int] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scripts/png-colors.py")
        let process = try SpawnedProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, file.path] + colours, standardOutput: .pipe)
        let data = process.readToEnd(.output)
        process.waitUntilExit()
        return (try JSONSerialization.jsonObject(with: data) as? [String: Int]) ?? [:]
    }
}
