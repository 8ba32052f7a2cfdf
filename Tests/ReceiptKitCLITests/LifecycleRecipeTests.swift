import Foundation
import LoopbackHTTPSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps ReceiptService's "Testing subscription lifecycle events" article true: its ```bash blocks run, in order, in
/// one `bash -eu` with the built `receiptkit` first on the `PATH` and the service on a free port; every notification
/// they post must be answered `recorded` (HTTP 200), and every `/verifyReceipt` answer they save must hold the values
/// the article's prose promises.
@Suite("Subscription lifecycle recipes (SubscriptionLifecycle.md)", .serialized)
struct LifecycleRecipeTests {
    static let article = CLIRunner.packageRoot.appendingPathComponent(
        "Sources/ReceiptService/Docs.docc/SubscriptionLifecycle.md")

    /// One ```bash block and the heading it sits under.
    struct Block {
        var heading: String
        var script: String

        /// The files `verify RECEIPT > FILE.json` lines save, in order.
        var savedAnswers: [String] {
            self.script.split(separator: "\n").compactMap { line in
                let words = line.split(separator: " ")
                guard words.count == 4, words[0] == "verify", words[2] == ">" else { return nil }
                return String(words[3])
            }
        }

        /// How many notifications it posts (`notify FILE` lines).
        var notifications: Int {
            self.script.split(separator: "\n").filter { $0.hasPrefix("notify ") }.count
        }
    }

    /// Every ```bash block of `markdown`, in order, with the text of the last heading before it.
    static func blocks(_ markdown: String) -> [Block] {
        var blocks: [Block] = []
        var heading = ""
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if var lines = current {
                if line.hasPrefix("```") {
                    blocks.append(Block(heading: heading, script: lines.joined(separator: "\n")))
                    current = nil
                } else {
                    lines.append(line)
                    current = lines
                }
            } else if line.hasPrefix("```bash") {
                current = []
            } else if line.hasPrefix("#") {
                heading = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            }
        }
        return blocks
    }

    /// Every heading of `markdown` outside code blocks, without its `#`s.
    static func headings(_ markdown: String) -> [String] {
        var headings: [String] = []
        var inCode = false
        for line in markdown.split(separator: "\n") {
            if line.hasPrefix("```") {
                inCode.toggle()
            } else if !inCode, line.hasPrefix("#") {
                headings.append(line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces))
            }
        }
        return headings
    }

    struct RecipeFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The value at `path` in a decoded JSON answer: `key.0.key` (an array index is a number), a string or number as
    /// text; `…#` is an array's count; `nil` when absent.
    static func value(_ path: String, in json: Any) -> String? {
        var node: Any? = json
        for step in path.split(separator: ".") {
            if step == "#" {
                return (node as? [Any]).map { String($0.count) }
            } else if let index = Int(step) {
                guard let array = node as? [Any], index < array.count else { return nil }
                node = array[index]
            } else {
                node = (node as? [String: Any])?[String(step)]
            }
        }
        switch node {
        case let text as String: return text
        case let number as NSNumber: return number.stringValue
        default: return nil
        }
    }

    // The answers the article describes, file by file: the values the ledger must produce (nil: the key is absent).
    static let lri = "latest_receipt_info"
    static let pri = "pending_renewal_info"
    static let expected: [String: [(String, String?)]] = [
        "before-initial-buy.json": [
            ("\(lri).#", "1"), ("\(lri).0.transaction_id", "1000000000000101"),
            ("\(lri).0.expires_date_ms", "1738368000000"), ("\(lri).0.product_type", "3"),
            ("\(lri).0.in_app_ownership_type", nil), (pri, nil),
        ],
        "after-initial-buy.json": [
            ("\(lri).#", "1"), ("\(lri).0.transaction_id", "1000000000000101"),
            ("\(lri).0.expires_date_ms", "1738368000000"), ("\(lri).0.purchase_date_ms", "1735689600000"),
            ("\(lri).0.in_app_ownership_type", "PURCHASED"), ("\(lri).0.subscription_group_identifier", "21000001"),
            ("\(lri).0.is_trial_period", "false"), ("\(lri).0.is_in_intro_offer_period", "false"),
            ("\(lri).0.product_type", nil),
            ("\(pri).#", "1"), ("\(pri).0.original_transaction_id", "1000000000000101"),
            ("\(pri).0.product_id", "com.example.app.monthly"),
            ("\(pri).0.auto_renew_product_id", "com.example.app.monthly"),
            ("\(pri).0.auto_renew_status", "1"),
            ("receipt.in_app.#", "1"), ("receipt.in_app.0.product_type", "3"),
        ],
        "after-resubscribe.json": [
            ("\(lri).#", "2"), ("\(lri).0.transaction_id", "1000000000000102"),
            ("\(lri).0.original_transaction_id", "1000000000000101"),
            ("\(lri).0.purchase_date_ms", "1744243200000"), ("\(lri).0.expires_date_ms", "1746835200000"),
            ("\(lri).0.original_purchase_date_ms", "1735689600000"),
            ("\(lri).1.transaction_id", "1000000000000101"), ("\(lri).1.expires_date_ms", "1738368000000"),
            ("\(pri).0.auto_renew_status", "1"),
        ],
        "after-did-renew.json": [
            ("\(lri).#", "2"), ("\(lri).0.transaction_id", "1000000000000202"),
            ("\(lri).0.purchase_date_ms", "1738368000000"), ("\(lri).0.expires_date_ms", "1740787200000"),
            ("\(lri).0.web_order_line_item_id", "1000000000000202"),
            ("\(lri).1.transaction_id", "1000000000000201"), ("\(lri).1.expires_date_ms", "1738368000000"),
            ("\(lri).1.product_type", "3"),
            ("\(pri).#", "1"), ("\(pri).0.auto_renew_status", "1"),
        ],
        "after-billing-recovery.json": [
            ("\(lri).#", "3"), ("\(lri).0.transaction_id", "1000000000000203"),
            ("\(lri).0.purchase_date_ms", "1741046400000"), ("\(lri).0.expires_date_ms", "1743724800000"),
            ("\(pri).0.is_in_billing_retry_period", "0"), ("\(pri).0.auto_renew_status", "1"),
            ("\(pri).0.expiration_intent", nil),
        ],
        "after-auto-renew-disabled.json": [
            ("\(lri).#", "1"), ("\(lri).0.expires_date_ms", "1738368000000"),
            ("\(pri).0.auto_renew_status", "0"),
        ],
        "after-auto-renew-enabled.json": [
            ("\(lri).#", "1"), ("\(lri).0.expires_date_ms", "1738368000000"),
            ("\(pri).0.auto_renew_status", "1"),
        ],
        "after-upgrade.json": [
            ("\(lri).#", "2"), ("\(lri).0.transaction_id", "1000000000000402"),
            ("\(lri).0.product_id", "com.example.app.yearly"), ("\(lri).0.purchase_date_ms", "1736899200000"),
            ("\(lri).0.expires_date_ms", "1768435200000"),
            ("\(lri).1.transaction_id", "1000000000000401"), ("\(lri).1.product_id", "com.example.app.monthly"),
            ("\(lri).1.is_upgraded", nil), ("\(lri).1.cancellation_date_ms", nil),
            ("\(pri).0.product_id", "com.example.app.yearly"),
            ("\(pri).0.auto_renew_product_id", "com.example.app.yearly"),
        ],
        "after-downgrade.json": [
            ("\(lri).#", "2"), ("\(lri).0.transaction_id", "1000000000000402"),
            ("\(lri).0.expires_date_ms", "1768435200000"),
            ("\(pri).0.product_id", "com.example.app.yearly"),
            ("\(pri).0.auto_renew_product_id", "com.example.app.monthly"),
        ],
        "after-did-fail-to-renew.json": [
            ("\(lri).#", "1"), ("\(lri).0.expires_date_ms", "1738368000000"),
            ("\(pri).0.is_in_billing_retry_period", "1"), ("\(pri).0.expiration_intent", "2"),
            ("\(pri).0.auto_renew_status", "1"), ("\(pri).0.grace_period_expires_date_ms", nil),
        ],
        "after-grace-period.json": [
            ("\(lri).#", "1"), ("\(lri).0.expires_date_ms", "1738368000000"),
            ("\(pri).0.grace_period_expires_date_ms", "1739750400000"),
            ("\(pri).0.grace_period_expires_date", "2025-02-17 00:00:00 Etc/GMT"),
            ("\(pri).0.grace_period_expires_date_pst", "2025-02-16 16:00:00 America/Los_Angeles"),
            ("\(pri).0.is_in_billing_retry_period", "1"), ("\(pri).0.expiration_intent", "2"),
        ],
        "after-grace-period-expired.json": [
            ("\(lri).#", "1"), ("\(lri).0.expires_date_ms", "1738368000000"),
            ("\(pri).0.grace_period_expires_date_ms", "1739750400000"),
            ("\(pri).0.is_in_billing_retry_period", "1"), ("\(pri).0.expiration_intent", "2"),
        ],
        "after-expired-voluntary.json": [
            ("\(lri).#", "1"), ("\(lri).0.expires_date_ms", "1738368000000"),
            ("\(pri).0.auto_renew_status", "0"), ("\(pri).0.expiration_intent", "1"),
        ],
        "after-expired-billing-retry.json": [
            ("\(lri).#", "1"), ("\(lri).0.transaction_id", "1000000000000501"),
            ("\(lri).0.expires_date_ms", "1738368000000"),
            ("\(pri).0.is_in_billing_retry_period", "0"), ("\(pri).0.expiration_intent", "2"),
            ("\(pri).0.auto_renew_status", "0"),
        ],
        "after-refund.json": [
            ("\(lri).#", "1"), ("\(lri).0.cancellation_date_ms", "1736510400000"),
            ("\(lri).0.cancellation_date", "2025-01-10 12:00:00 Etc/GMT"),
            ("\(lri).0.cancellation_reason", "1"), ("\(lri).0.expires_date_ms", "1738368000000"),
            ("receipt.in_app.0.cancellation_date_ms", nil),
        ],
        "after-refund-reversed.json": [
            ("\(lri).#", "1"), ("\(lri).0.cancellation_date", nil), ("\(lri).0.cancellation_date_ms", nil),
            ("\(lri).0.cancellation_reason", nil), ("\(lri).0.expires_date_ms", "1738368000000"),
        ],
        "after-revoke.json": [
            ("\(lri).#", "1"), ("\(lri).0.in_app_ownership_type", "FAMILY_SHARED"),
            ("\(lri).0.cancellation_date_ms", "1737331200000"), ("\(lri).0.cancellation_reason", nil),
        ],
        "after-offer-code.json": [
            ("\(lri).#", "1"), ("\(lri).0.offer_code_ref_name", "SPRING2025"),
            ("\(lri).0.is_trial_period", "false"), ("\(lri).0.is_in_intro_offer_period", "false"),
            ("\(pri).0.offer_code_ref_name", "SPRING2025"),
        ],
        "after-promotional-offer.json": [
            ("\(lri).0.offer_code_ref_name", "SPRING2025"), ("\(lri).0.promotional_offer_id", nil),
            ("\(pri).0.promotional_offer_id", "loyalty_50"), ("\(pri).0.offer_code_ref_name", nil),
        ],
        "after-price-increase-pending.json": [
            ("\(pri).0.price_consent_status", "0"), ("\(pri).0.price_increase_status", "0"),
        ],
        "after-price-increase-accepted.json": [
            ("\(pri).0.price_consent_status", "1"), ("\(pri).0.price_increase_status", "1"),
        ],
        "after-renewal-extended.json": [
            ("\(lri).#", "1"), ("\(lri).0.transaction_id", "1000000000001201"),
            ("\(lri).0.expires_date_ms", "1738972800000"),
        ],
        "after-free-trial.json": [
            ("\(lri).#", "1"), ("\(lri).0.is_trial_period", "true"), ("\(lri).0.is_in_intro_offer_period", "false"),
            ("\(lri).0.expires_date_ms", "1736294400000"),
        ],
        "after-first-paid-period.json": [
            ("\(lri).#", "2"), ("\(lri).0.transaction_id", "1000000000001302"),
            ("\(lri).0.expires_date_ms", "1738972800000"),
            ("\(lri).0.is_trial_period", "false"), ("\(lri).0.is_in_intro_offer_period", "false"),
            ("\(lri).1.transaction_id", "1000000000001301"), ("\(lri).1.is_trial_period", "true"),
        ],
        "after-introductory-price.json": [
            ("\(lri).#", "1"), ("\(lri).0.is_in_intro_offer_period", "true"), ("\(lri).0.is_trial_period", "false"),
        ],
    ]

    /// The events (and subtypes) the article has a section for.
    static let events = [
        "TEST", "SUBSCRIBED", "INITIAL_BUY", "RESUBSCRIBE", "DID_RENEW", "BILLING_RECOVERY",
        "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", "AUTO_RENEW_ENABLED", "DID_CHANGE_RENEWAL_PREF", "UPGRADE",
        "DOWNGRADE", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", "GRACE_PERIOD_EXPIRED", "EXPIRED", "VOLUNTARY",
        "BILLING_RETRY", "REFUND", "REFUND_REVERSED", "REVOKE", "OFFER_REDEEMED", "PRICE_INCREASE", "PENDING",
        "ACCEPTED", "RENEWAL_EXTENDED",
    ]

    @Test("every recipe runs, every notification is recorded, every answer holds what the article says")
    func recipesAnswerAsTheArticleSays() async throws {
        let markdown = try String(contentsOf: Self.article, encoding: .utf8)
        let blocks = Self.blocks(markdown)
        let headings = Self.headings(markdown)
        for event in Self.events {
            #expect(headings.contains(event), "no heading \(event)")
        }
        try #require(blocks.first?.heading == "Setup")
        #expect(blocks.last?.heading == "Stopping the service")

        // Every saved answer is checked, and every check reads a saved answer.
        let saved = blocks.flatMap(\.savedAnswers)
        #expect(Set(saved).count == saved.count, "an answer file is written twice: \(saved)")
        #expect(Set(saved) == Set(Self.expected.keys))
        for block in blocks where !["Setup", "TEST", "Stopping the service"].contains(block.heading) {
            #expect(!block.savedAnswers.isEmpty, "the recipe under \(block.heading) saves no /verifyReceipt answer")
            #expect(block.notifications > 0, "the recipe under \(block.heading) posts no notification")
        }

        let port = try Loopback.freePort()
        var script = ""
        for (index, block) in blocks.enumerated() {
            #expect(block.script.contains("8080") == (index == 0), "only Setup names the port: \(block.heading)")
            script += "echo '@@section \(index)'\n"
            script += block.script
                .replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)")
                .replacingOccurrences(of: "--port 8080", with: "--port \(port)")
            script += "\n"
            if index == 0 { script += "echo \"@@server $server\"\n" }
        }
        script += "echo \"@@dir $PWD\"\n"

        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("lifecycle-recipes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let scriptFile = scratch.appendingPathComponent("recipes.sh")
        try Data(script.utf8).write(to: scriptFile)

        let binaries = CLIRunner.executable.deletingLastPathComponent().path
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        // No bound on its wall time (CI under full load took 66 s for what takes seconds alone): the child is killed at
        // `timeout`, so a recipe that waits for ever fails the test instead of hanging the suite.
        let run = try await CLIRunner.run(
            ["-eu", scriptFile.path],
            timeout: .seconds(120),
            executable: URL(fileURLWithPath: "/bin/bash"),
            environment: ["PATH": "\(binaries):\(path)", "TMPDIR": scratch.path]
        )
        let lines = run.stdout.split(separator: "\n").map(String.init)
        // A script stopped half-way leaves the server to its trap; make sure it is gone.
        if run.status != 0,
            let line = lines.first(where: { $0.hasPrefix("@@server ") }), let pid = Int32(line.dropFirst(9))
        {
            kill(pid, SIGTERM)
        }
        try #require(run.status == 0, "the recipes failed (\(run.status)):\n\(run.stdout)\n\(run.stderr)")

        // Every notification posted is answered `recorded`, HTTP 200, in the section that posted it.
        var outputs = Array(repeating: [String](), count: blocks.count)
        var section = -1
        for line in lines {
            if line.hasPrefix("@@section "), let index = Int(line.dropFirst(10)) {
                section = index
            } else if section >= 0, section < blocks.count {
                outputs[section].append(line)
            }
        }
        for (index, block) in blocks.enumerated() {
            let answers = outputs[index].filter { $0.hasPrefix("{") && $0.contains(" HTTP ") }
            #expect(answers.count == block.notifications, "\(block.heading): \(outputs[index])")
            for answer in answers {
                #expect(
                    answer.hasSuffix(" HTTP 200") && answer.contains(#""status":"recorded""#),
                    "\(block.heading): \(answer)")
            }
        }

        // The answers saved, against the article's prose.
        let directoryLine = try #require(lines.last(where: { $0.hasPrefix("@@dir ") }))
        let directory = URL(fileURLWithPath: String(directoryLine.dropFirst(6)))
        #expect(directory.path.hasPrefix(scratch.path), "the recipes ran outside their temporary folder")
        for (file, checks) in Self.expected.sorted(by: { $0.key < $1.key }) {
            let data = try Data(contentsOf: directory.appendingPathComponent(file))
            let json = try JSONSerialization.jsonObject(with: data)
            #expect(Self.value("status", in: json) == "0", "\(file): status")
            #expect(Self.value("environment", in: json) == "Production", "\(file): environment")
            for (path, value) in checks {
                #expect(Self.value(path, in: json) == value, "\(file): \(path)")
            }
        }
    }
}
