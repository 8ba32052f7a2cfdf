import Foundation
import Testing

/// `receiptkit jws` and `receiptkit mint jws`: stdout, stderr and exit status, on data minted by the CLI itself with
/// a test authority. Time is pinned: every JWS is signed at `signed`, and verification passes `--now`.
@Suite(.serialized)
struct JWSCLITests {
    static let signed = "2025-06-01T00:00:00Z"
    static let now = "2025-06-02T00:00:00Z"
    static let directory = CLITests.scratch.appendingPathComponent("jws")

    /// The folder `mint jws-ca` wrote, created once (a task: a `static let` initialised by a child process would
    /// hold every other reader on a cooperative thread while it runs).
    static let authority = Task { () async throws -> String in
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("ca").path
        let output = try await CLIRunner.run(["mint", "jws-ca", "--out", path])
        guard output.status == 0 else { throw CocoaError(.fileWriteUnknown) }
        return path
    }

    var ca: String { get async throws { try await Self.authority.value } }
    var anchor: String { get async throws { try await self.ca + "/root.cer" } }

    /// Mints a JWS with `arguments` into a file named `name`.
    func mint(_ name: String, _ arguments: [String] = []) async throws -> String {
        let path = Self.directory.appendingPathComponent(name).path
        let output = try await CLIRunner.run(["mint", "jws", "--ca", try self.ca, "--signed", Self.signed, "--out", path] + arguments)
        #expect(output.status == 0, "\(output.stderr)")
        return path
    }

    func verify(_ arguments: [String]) async throws -> CLIRunner.Output {
        try await CLIRunner.run(["jws", "verify", "--now", Self.now] + arguments)
    }

    func json(_ text: String) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(value as? [String: Any])
    }

    @Test func aMintedTransactionVerifiesAgainstItsAnchor() async throws {
        let jws = try await mint("transaction.jws")
        let output = try await verify(["--anchor", try anchor, jws])
        #expect(output.stdout == "VALID\n")
        #expect(output.status == 0)
    }

    @Test func withoutTheAnchorOnlyAppleRootG3IsTrusted() async throws {
        let output = try await verify([try mint("untrusted.jws")])
        #expect(output.stdout == "INVALID: certificate_untrusted\n")
        #expect(output.status == 1)
    }

    @Test(arguments: [
        ("alg-none", "algorithm_not_allowed"),
        ("alg-hs256", "algorithm_not_allowed"),
        ("der-signature", "signature_malformed"),
        ("corrupt-signature", "signature_invalid"),
        ("payload-edited", "signature_invalid"),
        ("no-x5c", "certificate_chain_missing"),
        ("jku-header", "header_parameter_not_allowed"),
    ])
    func everyFaultIsReportedWithItsCode(fault: String, code: String) async throws {
        let jws = try await mint("fault-\(fault).jws", ["--fault", fault])
        let output = try await verify(["--anchor", try anchor, jws])
        #expect(output.stdout == "INVALID: \(code)\n")
        #expect(output.status == 1)
    }

    @Test func theCallersExpectationsAreChecked() async throws {
        let jws = try await mint("expectations.jws", ["--environment", "sandbox", "--bundle-id", "com.example.other"])
        let output = try await verify(["--anchor", try anchor, "--bundle-id", "com.example.app", "--environment", "production", jws])
        #expect(output.stdout == "INVALID: bundle_id_mismatch environment_mismatch\n")
        #expect(output.status == 1)
        let matching = try await verify(["--anchor", try anchor, "--bundle-id", "com.example.other", "--environment", "Sandbox", jws])
        #expect(matching.stdout == "VALID\n")
    }

    @Test func theAppAppleIDIsCheckedOnAnAppTransaction() async throws {
        let jws = try await mint("app-transaction.jws", ["--kind", "app-transaction", "--app-apple-id", "42"])
        await #expect(try verify(["--anchor", try anchor, "--app-apple-id", "42", jws]).stdout == "VALID\n")
        let output = try await verify(["--anchor", try anchor, "--app-apple-id", "43", jws])
        #expect(output.stdout == "INVALID: app_apple_id_mismatch\n")
    }

    @Test func locallySignedDataNeedsAllowXcode() async throws {
        let path = Self.directory.appendingPathComponent("local.jws").path
        let minted = try await CLIRunner.run(["mint", "jws", "--local", "--signed", Self.signed, "--out", path])
        #expect(minted.status == 0)
        let refused = try await verify([path])
        #expect(refused.stdout == "INVALID: local_environment_not_allowed\n")
        #expect(refused.status == 1)
        let accepted = try await verify(["--allow-xcode", "--json", path])
        let report = try json(accepted.stdout)
        #expect(report["valid"] as? Bool == true)
        #expect(report["anchor"] as? String == "self_signed_local")
        #expect(report["environment"] as? String == "Xcode")
        #expect(accepted.status == 0)
    }

    @Test func theChainIsValidatedAtSignedDateUnlessToldOtherwise() async throws {
        let jws = try await mint("dated.jws")
        // The test authority is valid 2000–2100: a time outside it expires the chain.
        let output = try await verify(["--anchor", try anchor, "--at", "2101-01-01T00:00:00Z", "--json", jws])
        let report = try json(output.stdout)
        #expect(report["reasons"] as? [String] == ["certificate_expired"])
        #expect(report["trust_evaluation_time"] as? String == "2101-01-01T00:00:00Z")
        let atSigning = try await json(try verify(["--anchor", try anchor, "--json", jws]).stdout)
        #expect(atSigning["trust_evaluation_time"] as? String == Self.signed)
    }

    @Test func aWrappedNotificationAndItsNestedDataVerify() async throws {
        let body = try await mint("notification.json", ["--kind", "notification", "--wrap", "--notification-uuid", "b4a3b5a8-0000-4000-8000-000000000001"])
        let output = try await verify(["--anchor", try anchor, "--json", body])
        #expect(output.status == 0)
        let report = try json(output.stdout)
        #expect(report["kind"] as? String == "notification")
        #expect(report["valid"] as? Bool == true)
        let payload = try #require(report["payload"] as? [String: Any])
        #expect(payload["notificationUUID"] as? String == "b4a3b5a8-0000-4000-8000-000000000001")
        let nested = try #require(report["nested"] as? [String: Any])
        let transaction = try #require(nested["transaction"] as? [String: Any])
        #expect(transaction["valid"] as? Bool == true)
        #expect((transaction["payload"] as? [String: Any])?["transactionId"] as? String == "2000000000000001")
        #expect((nested["renewal_info"] as? [String: Any])?["valid"] as? Bool == true)
    }

    @Test func aRefundNotificationCarriesTheNestedFieldsItWasMintedWith() async throws {
        let body = try await mint("refund.json", [
            "--kind", "notification", "--notification-type", "REFUND", "--wrap",
            "--transaction-field", "revocationDate=1750000000000", "--transaction-field", "revocationReason=1",
            "--renewal-field", "autoRenewStatus=0",
        ])
        let report = try json(try await verify(["--anchor", try anchor, "--json", body]).stdout)
        #expect(report["valid"] as? Bool == true)
        let nested = try #require(report["nested"] as? [String: Any])
        let transaction = try #require((nested["transaction"] as? [String: Any])?["payload"] as? [String: Any])
        #expect(transaction["revocationDate"] as? Int == 1_750_000_000_000)
        #expect(transaction["revocationReason"] as? Int == 1)
        let renewal = try #require((nested["renewal_info"] as? [String: Any])?["payload"] as? [String: Any])
        #expect(renewal["autoRenewStatus"] as? Int == 0)
        // Nested fields belong to a generated notification only.
        let misplaced = try await CLIRunner.run([
            "mint", "jws", "--ca", try ca, "--kind", "transaction", "--transaction-field", "price=1", "--out", "-",
        ])
        #expect(misplaced.status == 64)
        #expect(misplaced.stderr.contains("use --kind notification without --from"))
    }

    @Test func aForgedNestedTransactionFailsTheNotification() async throws {
        let forged = try await String(contentsOfFile: try mint("forged-nested.jws", ["--fault", "corrupt-signature"]), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let notification = try await mint(
            "forged-notification.jws",
            ["--kind", "notification", "--notification-type", "TEST", "--field", #"data={"bundleId":"com.example.app","environment":"Production","signedTransactionInfo":"\#(forged)"}"#]
        )
        let output = try await verify(["--anchor", try anchor, notification])
        #expect(output.stdout == "INVALID: transaction.signature_invalid\n")
        #expect(output.status == 1)
    }

    @Test func anUnreachableRevocationResponderIsATemporaryFailure() async throws {
        // Port 1 on loopback: nothing listens, the connection is refused at once.
        let ca = Self.directory.appendingPathComponent("ca-ocsp").path
        let created = try await CLIRunner.run(["mint", "jws-ca", "--ocsp-uri", "http://127.0.0.1:1/ocsp", "--out", ca])
        #expect(created.status == 0, "\(created.stderr)")
        let jws = Self.directory.appendingPathComponent("revocation.jws").path
        let minted = try await CLIRunner.run(["mint", "jws", "--ca", ca, "--signed", Self.signed, "--out", jws])
        #expect(minted.status == 0, "\(minted.stderr)")
        let anchor = ca + "/root.cer"

        await #expect(try verify(["--anchor", anchor, jws]).stdout == "VALID\n")  // not asked unless told to
        let output = try await verify(["--anchor", anchor, "--check-revocation", jws])
        #expect(output.stdout == "INVALID: revocation_check_unavailable\n")
        #expect(output.status == 75)
        let report = try await json(try verify(["--anchor", anchor, "--check-revocation", "--json", jws]).stdout)
        #expect(report["retryable"] as? Bool == true)
        // A final failure beside it is what counts.
        let both = try await verify(["--anchor", anchor, "--check-revocation", "--bundle-id", "com.example.other", jws])
        #expect(both.stdout == "INVALID: bundle_id_mismatch\n")
        #expect(both.status == 1)
        #expect(try await CLIRunner.run(["mint", "jws-ca", "--ocsp-uri", "ldap://x", "--out", ca]).status == 64)
    }

    @Test func malformedAndUnreadableInputsExitLikeValidate() async throws {
        let malformed = try await verify(["-"])
        #expect(malformed.status == 65)
        #expect(malformed.stderr.contains("malformed_jws"))
        let wrongType = try await CLIRunner.run(["jws", "verify", "-"], stdin: Data(JWSCLITests.unsigned(#"{"signedDate":"today"}"#).utf8))
        #expect(wrongType.status == 65)
        #expect(wrongType.stderr.contains("malformed_payload"))
        let duplicate = try await CLIRunner.run(["jws", "verify", "-"], stdin: Data(#"{"signedPayload":"a","signedPayload":"b"}"#.utf8))
        #expect(duplicate.status == 65)
        #expect(duplicate.stderr.contains("malformed_json"))
        let missing = try await verify([Self.directory.appendingPathComponent("missing.jws").path])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("unreadable_file"))
    }

    /// `{"alg":"ES256"}`.`payload`.`AAAA`: well-formed, unsigned.
    static func unsigned(_ payload: String) -> String {
        func segment(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return segment(#"{"alg":"ES256"}"#) + "." + segment(payload) + ".AAAA"
    }

    /// A payload shaped like Apple's published test vectors (a transaction holding only bundleId, environment and
    /// signedDate), minted with `--from`.
    func vector(_ name: String) async throws -> String {
        let payload = Self.directory.appendingPathComponent("\(name).payload.json")
        try Data(#"{"bundleId":"com.example","environment":"Sandbox","signedDate":1748736000000}"#.utf8).write(to: payload)
        return try await mint("\(name).jws", ["--from", payload.path])
    }

    @Test func aWellFormedJWSOfNoKindIsInspectedAsUnknown() async throws {
        let jws = try await vector("inspect-vector")
        let text = try await CLIRunner.run(["jws", "inspect", jws])
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("kind: unknown\nalg: ES256\nx5c: 3 certificates\n"))
        #expect(text.stdout.contains("  signedDate: 1748736000000 (2025-06-01T00:00:00Z)\n"))
        let json = try json(try await CLIRunner.run(["jws", "inspect", "--json", jws]).stdout)
        #expect(json["kind"] as? String == "unknown")
        #expect((json["payload"] as? [String: Any])?["bundleId"] as? String == "com.example")
        // Fields of two kinds at once: unknown too, not an error.
        let unsigned = try await CLIRunner.run(
            ["jws", "inspect", "-"], stdin: Data(Self.unsigned(#"{"transactionId":"1","applicationVersion":"1"}"#).utf8))
        #expect(unsigned.status == 0)
        #expect(unsigned.stdout.hasPrefix("kind: unknown\n"))
    }

    @Test func aWellFormedJWSOfNoKindIsVerifiedAsUnknown() async throws {
        let jws = try await vector("verify-vector")
        let output = try await verify(["--anchor", try anchor, "--bundle-id", "com.example", "--environment", "Sandbox", jws])
        #expect(output.stdout == "VALID\n")
        #expect(output.status == 0)
        #expect(output.stderr.contains("kind unknown"))
        let report = try json(try await verify(["--anchor", try anchor, "--json", "--environment", "sandbox", jws]).stdout)
        #expect(report["kind"] as? String == "unknown")
        #expect(report["valid"] as? Bool == true)
        #expect(report["environment"] as? String == "Sandbox")
        // Every check whose field is present still fails as it would for any kind.
        let wrong = try await verify(["--anchor", try anchor, "--bundle-id", "com.example.other", "--environment", "production", jws])
        #expect(wrong.stdout == "INVALID: bundle_id_mismatch environment_mismatch\n")
        #expect(wrong.status == 1)
        let untrusted = try await verify([jws])
        #expect(untrusted.stdout == "INVALID: certificate_untrusted\n")
        #expect(untrusted.status == 1)
        // `{}`.`{}`: no algorithm, no chain — invalid, not malformed.
        let empty = try await CLIRunner.run(["jws", "verify", "-"], stdin: Data("e30.e30.e30".utf8))
        #expect(empty.stdout == "INVALID: algorithm_not_allowed certificate_chain_missing\n")
        #expect(empty.status == 1)
        // Named, the kind's rules apply; `unknown` is not a kind to name.
        let named = try await verify(["--anchor", try anchor, "--kind", "transaction", "--json", jws])
        #expect(try json(named.stdout)["kind"] as? String == "transaction")
        #expect(!named.stderr.contains("kind unknown"))
        #expect(try await verify(["--kind", "unknown", jws]).status == 64)
    }

    @Test func severalInputsArePrefixedAndTheWorstStatusWins() async throws {
        let good = try await mint("several-good.jws")
        let bad = try await mint("several-bad.jws", ["--fault", "corrupt-signature"])
        let output = try await verify(["--anchor", try anchor, good, bad])
        #expect(output.stdout == "\(good): VALID\n\(bad): INVALID: signature_invalid\n")
        #expect(output.status == 1)
        let lines = try await verify(["--anchor", try anchor, "--json", good, Self.directory.appendingPathComponent("missing.jws").path])
        let reports = try lines.stdout.split(separator: "\n").map { try json(String($0)) }
        #expect(reports.map { $0["file"] as? String } == [good, Self.directory.appendingPathComponent("missing.jws").path])
        #expect(reports.map { $0["reasons"] as? [String] } == [[], ["unreadable"]])
        #expect(lines.status == 66)
    }

    @Test func inspectDecodesWithoutVerifying() async throws {
        let jws = try await mint("inspect.jws", ["--fault", "corrupt-signature", "--field", "price=1990"])
        let text = try await CLIRunner.run(["jws", "inspect", jws])
        #expect(text.status == 0)
        #expect(text.stdout.contains("kind: transaction\nalg: ES256\nx5c: 3 certificates\n"))
        #expect(text.stdout.contains("  purchaseDate: 1748736000000 (2025-06-01T00:00:00Z)\n"))
        #expect(text.stdout.contains("  price: 1990\n"))
        let json = try json(try await CLIRunner.run(["jws", "inspect", "--json", jws]).stdout)
        #expect(json["kind"] as? String == "transaction")
        #expect((json["header"] as? [String: Any])?["alg"] as? String == "ES256")
        let certificates = try #require(json["certificates"] as? [[String: Any]])
        #expect(certificates.map { $0["subject"] as? String } == [
            "CN=ReceiptKit Test App Store Signing,O=ReceiptKit Test,C=US",
            "CN=ReceiptKit Test JWS Intermediate CA,O=ReceiptKit Test,C=US",
            "CN=ReceiptKit Test JWS Root CA,O=ReceiptKit Test,C=US",
        ])
        #expect((json["payload"] as? [String: Any])?["price"] as? Int == 1990)
    }

    @Test func inspectDecodesANotificationsNestedData() async throws {
        let body = try await mint("inspect-notification.json", ["--kind", "notification", "--wrap"])
        let json = try json(try await CLIRunner.run(["jws", "inspect", "--json", body]).stdout)
        let nested = try #require(json["nested"] as? [String: Any])
        #expect(Set(nested.keys) == ["transaction", "renewal_info"])
        let text = try await CLIRunner.run(["jws", "inspect", body]).stdout
        #expect(text.contains("data.signedTransactionInfo (transaction):\n  kind: transaction\n"))
        #expect(text.contains("data.signedRenewalInfo (renewal_info):\n  kind: renewal_info\n"))
    }

    @Test func mintRefusesWhatItCannotSign() async throws {
        let both = try await CLIRunner.run(["mint", "jws", "--local", "--ca", try ca])
        #expect(both.status == 64)
        let field = try await CLIRunner.run(["mint", "jws", "--local", "--field", "price=ten"])
        #expect(field.status == 64)
        #expect(field.stderr.contains("not JSON"))
        let missing = try await CLIRunner.run(["mint", "jws", "--ca", Self.directory.appendingPathComponent("no-such-ca").path])
        #expect(missing.status == 66)
        // A receipt authority's keys are RSA: not a JWS signer.
        let receiptCA = Self.directory.appendingPathComponent("receipt-ca").path
        #expect(try await CLIRunner.run(["mint", "ca", "--out", receiptCA]).status == 0)
        let wrongKind = try await CLIRunner.run(["mint", "jws", "--ca", receiptCA])
        #expect(wrongKind.status == 65)
        #expect(wrongKind.stderr.contains("malformed_authority"))
    }
}
