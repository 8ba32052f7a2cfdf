import AppStorePKI
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import ReceiptKit
import ReceiptKitTesting
import ReceiptLedger
import ReceiptService
import LedgerTestSupport
import Testing

/// verifyReceipt over real HTTP on 127.0.0.1: every status, the request variants clients send, hostile bodies.
@Suite("verifyReceipt contract")
struct VerifyReceiptContractTests {
    typealias H = ServiceHarness

    static func status(_ object: [String: Any]) -> Int? { object["status"] as? Int }
    static func reasons(_ object: [String: Any]) -> [String]? { object["reasons"] as? [String] }

    @Test("a valid production receipt: status 0, Apple's fields, the receipt as inspect --json writes it")
    func valid() async throws {
        let receipt = ServiceTestPKI.receipt(purchases: [
            ServiceTestPKI.purchase("1000", original: "1000", day: 1),
            ServiceTestPKI.purchase("1001", original: "1000", day: 31),
        ])
        let bytes = try ServiceTestPKI.mint(receipt)
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(try H.configuration(), ledger: ledger) { client, _ in
                let object = try await H.post(client, body: H.body(bytes))
                #expect(Self.status(object) == 0)
                #expect(object["environment"] as? String == "Production")
                #expect(object["reasons"] == nil)
                #expect(object["latest_receipt"] as? String == Data(bytes).base64EncodedString())
                let info = try #require(object["latest_receipt_info"] as? [[String: Any]])
                #expect(info.compactMap { $0["transaction_id"] as? String } == ["1001", "1000"])
                // The receipt object: the library's verifyReceipt JSON plus request_date* from the pinned clock.
                var served = try #require(object["receipt"] as? [String: Any])
                #expect(served["request_date_ms"] as? String == "1750000000000")
                #expect(served["request_date"] as? String == "2025-06-15 15:06:40 Etc/GMT")
                #expect(served["request_date_pst"] as? String == "2025-06-15 08:06:40 America/Los_Angeles")
                for key in ["request_date", "request_date_ms", "request_date_pst"] { served[key] = nil }
                let decoded = try AppReceipt(berEncoded: bytes)
                let expected = try #require(
                    try JSONSerialization.jsonObject(with: Data(decoded.verifyReceiptJSON())) as? [String: Any])
                #expect(NSDictionary(dictionary: served).isEqual(to: expected))
            }
        }
    }

    @Test("any or no Content-Type is read as JSON", arguments: [
        "application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded",
        "application/octet-stream", "", "nonsense/", ])
    func contentTypes(contentType: String) async throws {
        let bytes = try ServiceTestPKI.mint(ServiceTestPKI.receipt())
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(try H.configuration(), ledger: ledger) { client, _ in
                let headers: HTTPFields = contentType.isEmpty ? [:] : [.contentType: contentType]
                let object = try await H.post(client, body: H.body(bytes), headers: headers)
                #expect(Self.status(object) == 0)
            }
        }
    }

    static let malformedBodies: [(name: String, body: [UInt8], reason: String)] = [
        ("empty body", [], "body_not_json_object"),
        ("not JSON", Array("receipt-data=MIIT".utf8), "body_not_json_object"),
        ("JSON array", Array(#"["receipt-data"]"#.utf8), "body_not_json_object"),
        ("JSON string", Array(#""MIIT""#.utf8), "body_not_json_object"),
        ("truncated JSON", Array(#"{"receipt-data":"MIIT"#.utf8), "body_not_json_object"),
        ("not UTF-8", [0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D], "body_not_utf8"),
        ("UTF-16LE with its byte order mark", [0xFF, 0xFE] + Self.utf16LE(#"{"receipt-data":"MIIT"}"#), "body_not_utf8"),
        ("UTF-16BE", Array(#"{"receipt-data":"MIIT"}"#.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }), "body_not_utf8"),
        ("a duplicate key after an escaped quote", Array(#"{"x":"\"{","password":"a","password":"b","receipt-data":"MIIT"}"#.utf8), "duplicate_key"),
        ("a duplicate key in a nested object", Array(#"{"app":{"k":1,"k":2},"receipt-data":"MIIT"}"#.utf8), "duplicate_key"),
        ("deeply nested", Array((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8), "body_not_json_object"),
        ("nested inside the object", Array((#"{"x":"# + String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000) + #","receipt-data":"MIIT"}"#).utf8), "body_not_json_object"),
        ("missing receipt-data", Array(#"{"password":"x"}"#.utf8), "receipt_data_missing"),
        ("null receipt-data", Array(#"{"receipt-data":null}"#.utf8), "receipt_data_missing"),
        ("empty receipt-data", Array(#"{"receipt-data":""}"#.utf8), "receipt_data_empty"),
        ("numeric receipt-data", Array(#"{"receipt-data":5}"#.utf8), "receipt_data_not_string"),
        ("object receipt-data", Array(#"{"receipt-data":{"a":1}}"#.utf8), "receipt_data_not_string"),
        ("numeric password", Array(#"{"receipt-data":"MIIT","password":1}"#.utf8), "password_not_string"),
        ("string exclude flag", Array(#"{"receipt-data":"MIIT","exclude-old-transactions":"true"}"#.utf8), "exclude_old_transactions_not_bool"),
        ("duplicate receipt-data", Array(#"{"receipt-data":"MIIT","receipt-data":"MIIU"}"#.utf8), "duplicate_key"),
        ("duplicate key spelled with an escape", Array(#"{"password":"a","pass\u0077ord":"b","receipt-data":"MIIT"}"#.utf8), "duplicate_key"),
        ("not base64", Array(#"{"receipt-data":"not base64!"}"#.utf8), "invalid_base64"),
        // Foundation's decoder reads these as [0x41, 0x03] and [0x00]; `=` may only end the text.
        ("padding inside", Array(#"{"receipt-data":"QU=D"}"#.utf8), "invalid_base64"),
        ("padding only", Array(#"{"receipt-data":"===="}"#.utf8), "invalid_base64"),
        ("two texts joined", Array(#"{"receipt-data":"MA==MA=="}"#.utf8), "invalid_base64"),
        ("base64 of text", Array(#"{"receipt-data":"aGVsbG8gd29ybGQ="}"#.utf8), "malformed_container"),
    ]

    @Test("21002 for every malformed body, with the reason", arguments: Self.malformedBodies.indices)
    func malformed(index: Int) async throws {
        let (name, body, reason) = Self.malformedBodies[index]
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(try H.configuration(), ledger: ledger) { client, _ in
                let object = try await H.post(client, body: ByteBuffer(bytes: body))
                #expect(Self.status(object) == 21002, "\(name)")
                #expect(Self.reasons(object) == [reason], "\(name)")
            }
        }
    }

    static func utf16LE(_ text: String) -> [UInt8] {
        Array(text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    }

    @Test("latest_receipt is the text posted when it is canonical Base64, else the canonical text of its bytes")
    func latestReceiptText() async throws {
        // A receipt whose length is not a multiple of 3 (the last symbol then has unused bits): ids of 4, 5 and 6
        // digits make lengths L, L + 2 and L + 4, one of which is not.
        var bytes: [UInt8] = []
        for id in ["1000", "10000", "100000"] where bytes.count % 3 == 0 {
            bytes = try ServiceTestPKI.mint(ServiceTestPKI.receipt(purchases: [ServiceTestPKI.purchase(id, original: id, day: 1)]))
        }
        let canonical = Data(bytes).base64EncodedString()
        var withLines = Data(bytes).base64EncodedString(options: [.lineLength64Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        withLines = withLines.replacingOccurrences(of: "\r\n", with: "\\r\\n")
        // Unused bits of the last symbol set: the same bytes (as Foundation decodes them), not Foundation's text.
        var unusedBits = canonical
        if bytes.count % 3 != 0, let last = unusedBits.firstIndex(of: "=").map({ unusedBits.index(before: $0) }) {
            let symbols = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
            let value = try #require(symbols.firstIndex(of: unusedBits[last]))
            unusedBits.replaceSubrange(last...last, with: String(symbols[value | 1]))
        }
        #expect(unusedBits != canonical, "the minted receipt is a multiple of 3 bytes long: no unused bits to set")
        #expect(Data(base64Encoded: unusedBits) == Data(bytes))
        let texts = [canonical, withLines, unusedBits]
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(try H.configuration(), ledger: ledger) { client, _ in
                for posted in texts {
                    let body = ByteBuffer(string: #"{"receipt-data":"\#(posted)"}"#)
                    let object = try await H.post(client, body: body)
                    #expect(Self.status(object) == 0)
                    #expect(object["latest_receipt"] as? String == canonical)
                }
            }
        }
    }

    @Test("extra keys are ignored, nested ones too; a UTF-8 byte order mark is skipped (RFC 8259 §8.1)")
    func extraKeys() async throws {
        let bytes = try ServiceTestPKI.mint(ServiceTestPKI.receipt())
        let b64 = Data(bytes).base64EncodedString()
        let body = "\u{FEFF}" + #"{"app":"x","nested":{"k":1,"receipt-data":2},"list":[{"receipt-data":1}],"receipt-data":"\#(b64)","exclude-old-transactions":null}"#
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(try H.configuration(), ledger: ledger) { client, _ in
                let answer1 = try await H.post(client, body: ByteBuffer(string: body))
                #expect(Self.status(answer1) == 0)
            }
        }
    }

    @Test("21003 when signature, chain or Xcode policy fails, with the validator's reason codes")
    func notAuthenticated() async throws {
        let receipt = ServiceTestPKI.receipt()
        let forged = try ServiceTestPKI.mint(receipt, options: .init(fault: .corruptSignature))
        let stranger = try ReceiptMinter.mint(receipt, signer: try TestCertificateAuthority().receiptSigner)
        let xcode = try ServiceTestPKI.mintXcode(receipt)
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(try H.configuration(), ledger: ledger) { client, _ in
                for (bytes, reason) in [
                    (forged, "signature_invalid"), (stranger, "certificate_untrusted"), (xcode, "xcode_receipt_not_allowed"),
                ] {
                    for path in ["/verifyReceipt", "/sandbox/verifyReceipt"] {
                        let object = try await H.post(client, path, body: H.body(bytes))
                        #expect(Self.status(object) == 21003, "\(reason) at \(path)")
                        #expect(Self.reasons(object) == [reason], "\(path)")
                        #expect(object["receipt"] == nil)
                    }
                }
            }
        }
    }

    @Test("Xcode receipts, when allowed, are answered on the sandbox endpoint only")
    func xcodeAllowed() async throws {
        let xcode = try ServiceTestPKI.mintXcode(ServiceTestPKI.receipt())
        let storeKit = try #require(try ServiceTestPKI.storeKitSigner.certificates.first)
        let configuration = try H.configuration {
            $0.allowsXcodeReceipts = true
            $0.anchors = AppStoreTrustAnchors([storeKit])
        }
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(configuration, ledger: ledger) { client, _ in
                let sandbox = try await H.post(client, "/sandbox/verifyReceipt", body: H.body(xcode))
                #expect(Self.status(sandbox) == 0)
                #expect(sandbox["environment"] as? String == "Xcode")
                let production = try await H.post(client, body: H.body(xcode))
                #expect(Self.status(production) == 21007)
            }
        }
    }

    @Test("21007 and 21008: the environment must match the endpoint, and no receipt is returned")
    func environments() async throws {
        let production = try ServiceTestPKI.mint(ServiceTestPKI.receipt(environment: .production))
        let sandbox = try ServiceTestPKI.mint(ServiceTestPKI.receipt(environment: .productionSandbox))
        let vppSandbox = try ServiceTestPKI.mint(ServiceTestPKI.receipt(environment: .productionVPPSandbox))
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(try H.configuration(), ledger: ledger) { client, _ in
                let a = try await H.post(client, body: H.body(sandbox))
                #expect(Self.status(a) == 21007 && a["receipt"] == nil && Self.reasons(a) == ["sandbox_receipt"])
                let answer2 = try await H.post(client, body: H.body(vppSandbox))
                #expect(Self.status(answer2) == 21007)
                let b = try await H.post(client, "/sandbox/verifyReceipt", body: H.body(production))
                #expect(Self.status(b) == 21008 && b["receipt"] == nil && Self.reasons(b) == ["production_receipt"])
                let c = try await H.post(client, "/sandbox/verifyReceipt", body: H.body(sandbox))
                #expect(Self.status(c) == 0 && c["environment"] as? String == "Sandbox")
            }
        }
    }

    @Test("21004: a configured shared secret must be sent, compared whole")
    func sharedSecret() async throws {
        let bytes = try ServiceTestPKI.mint(ServiceTestPKI.receipt())
        let configuration = try H.configuration { $0.sharedSecrets = ["com.example.app": "0123456789abcdef"] }
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(configuration, ledger: ledger) { client, _ in
                for wrong in [nil, "", "0123456789abcde", "0123456789abcdef0", "0123456789ABCDEF"] as [String?] {
                    let object = try await H.post(client, body: H.body(bytes, password: wrong))
                    #expect(Self.status(object) == 21004, "\(wrong ?? "nil")")
                    #expect(Self.reasons(object) == ["shared_secret_mismatch"])
                }
                let answer3 = try await H.post(client, body: H.body(bytes, password: "0123456789abcdef"))
                #expect(Self.status(answer3) == 0)
            }
        }
        // Apps without a configured secret need none.
        let other = try ServiceTestPKI.mint(ServiceTestPKI.receipt(bundle: "com.example.other"))
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(configuration, ledger: ledger) { client, _ in
                let answer4 = try await H.post(client, body: H.body(other, password: "anything"))
                #expect(Self.status(answer4) == 0)
            }
        }
    }

    @Test("the duplicate-password guard holds for a UTF-16 body: 21002 body_not_utf8, never status 0")
    func utf16BodyCannotSmuggleADuplicatePassword() async throws {
        let bytes = try ServiceTestPKI.mint(ServiceTestPKI.receipt())
        let b64 = Data(bytes).base64EncodedString()
        let text = #"{"receipt-data":"\#(b64)","x":"\"{","password":"s3cret","password":"wrong"}"#
        let configuration = try H.configuration { $0.sharedSecrets = ["com.example.app": "s3cret"] }
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(configuration, ledger: ledger) { client, _ in
                let utf16 = try await H.post(client, body: ByteBuffer(bytes: Self.utf16LE(text)))
                #expect(Self.status(utf16) == 21002)
                #expect(Self.reasons(utf16) == ["body_not_utf8"])
                let utf8 = try await H.post(client, body: ByteBuffer(string: text))
                #expect(Self.status(utf8) == 21002)
                #expect(Self.reasons(utf8) == ["duplicate_key"])
            }
        }
    }

    @Test("21010: bundle ids outside the allow list")
    func allowList() async throws {
        let allowed = try ServiceTestPKI.mint(ServiceTestPKI.receipt(bundle: "com.example.app"))
        let other = try ServiceTestPKI.mint(ServiceTestPKI.receipt(bundle: "com.example.app2"))
        let configuration = try H.configuration { $0.allowedBundleIdentifiers = ["com.example.app"] }
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(configuration, ledger: ledger) { client, _ in
                let answer5 = try await H.post(client, body: H.body(allowed))
                #expect(Self.status(answer5) == 0)
                let object = try await H.post(client, body: H.body(other))
                #expect(Self.status(object) == 21010 && Self.reasons(object) == ["bundle_id_not_allowed"])
            }
        }
    }

    @Test("21009: the ledger is down (retryable) or refuses a statement (not retryable)")
    func ledgerFailures() async throws {
        let bytes = try ServiceTestPKI.mint(ServiceTestPKI.receipt())
        for (code, retryable, reason) in [
            (LedgerError.Code.unavailable, true, "ledger_unavailable"), (.statementFailed, false, "ledger_error"),
        ] {
            let ledger = FailingLedger(error: LedgerError(code, "test"))
            try await H.withLiveService(try H.configuration(), ledger: ledger) { client, _ in
                let object = try await H.post(client, body: H.body(bytes))
                #expect(Self.status(object) == 21009)
                #expect(object["is-retryable"] as? Bool == retryable)
                #expect(Self.reasons(object) == [reason])
                // Malformed requests never need the database.
                let answer6 = try await H.post(client, body: ByteBuffer(string: "{}"))
                #expect(Self.status(answer6) == 21002)
                try await client.execute(uri: "/health", method: .get) { response in
                    #expect(response.status == .serviceUnavailable)
                    #expect(String(buffer: response.body) == #"{"database":"unreachable","status":"unavailable"}"#)
                }
            }
        }
    }

    @Test("21002 string_contains_nul: a receipt whose stored strings hold U+0000 is refused alike on every backend, nothing recorded",
          arguments: LedgerBackend.available)
    func nulInAStoredStringIsMalformed(backend: LedgerBackend) async throws {
        let product = try ServiceTestPKI.mint(ServiceTestPKI.receipt(purchases: [
            ServiceTestPKI.purchase("1000", original: "1000", product: "com.example.monthly\u{0}", day: 1)
        ]))
        let bundle = try ServiceTestPKI.mint(ServiceTestPKI.receipt(bundle: "com.example.app\u{0}"))
        try await backend.withLedger { ledger in
            let verifier = try ServiceComponents(configuration: try H.configuration(), ledger: ledger, now: { ServiceTestPKI.now }).verifier
            for bytes in [product, bundle] {
                let answer = await verifier.answer(body: Array(H.body(bytes).readableBytesView), endpoint: .production)
                #expect(answer.status == .malformed)
                #expect(answer.reasons.map(\.code) == ["string_contains_nul"])
                #expect(!answer.isRetryable)
            }
            let query = LedgerQuery(environment: .production, bundleIdentifier: "com.example.app", originalTransactionIdentifiers: ["1000"])
            #expect(try await ledger.transactions(matching: query).isEmpty)
        }
    }

    @Test("GET /health: a database that does not answer within the health timeout is 503 timeout")
    func healthTimeout() async throws {
        let configuration = try H.configuration { $0.healthTimeout = .milliseconds(200) }
        try await H.withLiveService(configuration, ledger: StalledLedger()) { client, _ in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body) == #"{"database":"timeout","status":"unavailable"}"#)
            }
        }
        let fromFile = try SettingsSources.read(file: #"{"health_timeout_seconds": 0.5}"#).settings
        #expect(fromFile.verifyReceipt.healthTimeout == .milliseconds(500))
        let refused = SettingsSources.refusal(file: #"{"health_timeout_seconds": 0}"#)
        #expect(refused?.reason.hasSuffix("health_timeout_seconds must be in [0.001, 3600], not 0") == true)
    }

    @Test("latest_receipt_info spans receipts; latest_receipt is the newest; exclude-old-transactions keeps the latest renewal per subscription")
    func history() async throws {
        let older = try ServiceTestPKI.mint(ServiceTestPKI.receipt(createdDay: 40, purchases: [
            ServiceTestPKI.purchase("1000", original: "1000", day: 1),
            ServiceTestPKI.purchase("1001", original: "1000", day: 31),
            ServiceTestPKI.purchase("7000", original: "7000", product: "com.example.coins", day: 2, subscription: false),
        ]))
        let newer = try ServiceTestPKI.mint(ServiceTestPKI.receipt(createdDay: 70, purchases: [
            ServiceTestPKI.purchase("1000", original: "1000", day: 1),
            ServiceTestPKI.purchase("1001", original: "1000", day: 31),
            // An upgrade within the subscription: another product, the same original transaction id.
            ServiceTestPKI.purchase("1002", original: "1000", product: "com.example.yearly", day: 61),
        ]))
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(try H.configuration(), ledger: ledger) { client, _ in
                _ = try await H.post(client, body: H.body(newer))
                let object = try await H.post(client, body: H.body(older))
                #expect(Self.status(object) == 0)
                let ids = (object["latest_receipt_info"] as? [[String: Any]])?.compactMap { $0["transaction_id"] as? String }
                #expect(ids == ["1002", "1001", "7000", "1000"])
                #expect(object["latest_receipt"] as? String == Data(newer).base64EncodedString())
                // The receipt itself is still the one posted.
                #expect(((object["receipt"] as? [String: Any])?["in_app"] as? [Any])?.count == 3)

                let excluded = try await H.post(client, body: H.body(older, excludeOld: true))
                let kept = (excluded["latest_receipt_info"] as? [[String: Any]])?.compactMap { $0["transaction_id"] as? String }
                #expect(kept == ["1002", "7000"])
            }
        }
    }

    @Test("GET /health and GET /metrics")
    func healthAndMetrics() async throws {
        let bytes = try ServiceTestPKI.mint(ServiceTestPKI.receipt())
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(try H.configuration(), ledger: ledger) { client, _ in
                try await client.execute(uri: "/health", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body) == #"{"database":"reachable","status":"ok"}"#)
                }
                _ = try await H.post(client, body: H.body(bytes))
                _ = try await H.post(client, body: H.body(bytes))
                _ = try await H.post(client, "/sandbox/verifyReceipt", body: ByteBuffer(string: "x"))
                try await client.execute(uri: "/metrics", method: .get) { response in
                    let text = String(buffer: response.body)
                    #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
                    #expect(text.contains(#"receiptkit_requests_total{endpoint="production",status="0"} 2"#))
                    #expect(text.contains(#"receiptkit_requests_total{endpoint="sandbox",status="21002"} 1"#))
                    #expect(text.contains(#"receiptkit_ledger_receipts_total{result="inserted"} 1"#))
                    #expect(text.contains(#"receiptkit_ledger_receipts_total{result="already_known"} 1"#))
                    #expect(text.contains("receiptkit_validation_duration_seconds_count 2"))
                    // The first answer read the ledger and kept its snapshot; the second was answered from it.
                    #expect(text.contains("receiptkit_ledger_snapshot_cache_enabled 1.0\n"))
                    #expect(text.contains("receiptkit_ledger_snapshot_cache_entries 1.0\n"))
                    #expect(text.contains(#"receiptkit_ledger_snapshot_cache_lookups_total{result="miss"} 1"# + "\n"))
                    #expect(text.contains(#"receiptkit_ledger_snapshot_cache_lookups_total{result="hit"} 1"# + "\n"))
                    #expect(text.contains("receiptkit_ledger_snapshot_cache_near_misses_total 0\n"))
                }
                // Counters grow by what was added since the last scrape, not by the ledger's totals again.
                _ = try await H.post(client, body: H.body(bytes))
                try await client.execute(uri: "/metrics", method: .get) { response in
                    let text = String(buffer: response.body)
                    #expect(text.contains(#"receiptkit_ledger_snapshot_cache_lookups_total{result="miss"} 1"# + "\n"))
                    #expect(text.contains(#"receiptkit_ledger_snapshot_cache_lookups_total{result="hit"} 2"# + "\n"))
                }
            }
        }
    }

    @Test("GET /metrics: a ledger without a snapshot cache reports it off and empty")
    func metricsWithoutACache() async throws {
        let ledger = FailingLedger(error: LedgerError(.unavailable, "test"))
        try await H.withLiveService(try H.configuration(), ledger: ledger) { client, _ in
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains("receiptkit_ledger_snapshot_cache_enabled 0.0\n"))
                #expect(text.contains("receiptkit_ledger_snapshot_cache_entries 0.0\n"))
                #expect(text.contains("receiptkit_ledger_snapshot_cache_bytes 0.0\n"))
            }
        }
    }

    @Test("a GET to verifyReceipt is 405 with Allow: POST, an unknown route 404, never a verdict")
    func routing() async throws {
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(try H.configuration(), ledger: ledger) { client, _ in
                try await client.execute(uri: "/verifyReceipt", method: .get) {
                    #expect($0.status == .methodNotAllowed)
                    #expect($0.headers[.allow] == "POST")
                }
                try await client.execute(uri: "/nothing", method: .post) { #expect($0.status == .notFound) }
            }
        }
    }
}
