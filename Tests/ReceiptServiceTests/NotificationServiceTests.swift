import AppStorePKI
import AppStoreJWS
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import ReceiptKit
import ReceiptKitTesting
import ReceiptLedger
import ReceiptService
import LedgerTestSupport
import Testing
import X509

/// `POST /notifications/v2` and `POST /jws/verify` on every ledger backend, with JWS minted by a test authority and
/// the service's clock pinned (`ServiceTestPKI.now`).
@Suite("Server notifications and JWS verification")
struct NotificationServiceTests {
    static let authority: Result<JWSTestAuthority, any Error> = Result { try JWSTestAuthority() }
    static let bundle = "com.example.app"
    static let signed = ServiceTestPKI.now.addingTimeInterval(-3600)

    static func configuration(_ adjust: (inout VerifyReceiptConfiguration) -> Void = { _ in }) throws -> VerifyReceiptConfiguration {
        var configuration = VerifyReceiptConfiguration()
        configuration.anchors = AppStoreTrustAnchors([try Self.authority.get().root.certificate])
        adjust(&configuration)
        return configuration
    }

    static func transaction(
        _ id: String = "2000000000000042",
        signed: Date = Self.signed,
        environment: AppStoreEnvironment = .production,
        edit: (inout [String: JSONValue]) -> Void = { _ in }
    ) -> [String: JSONValue] {
        var fields = JWSSamplePayload.transaction(
            bundleIdentifier: Self.bundle, productID: "com.example.app.pro", transactionID: id, originalTransactionID: "2000000000000001",
            environment: environment, purchaseDate: Self.signed.addingTimeInterval(-86_400), signedDate: signed
        )
        edit(&fields)
        return fields
    }

    /// A notification body as Apple POSTs it, nesting `transaction` and renewal info, signed by the test authority.
    static func body(
        uuid: String = UUID().uuidString.lowercased(),
        type: String = "SUBSCRIBED",
        signed: Date = Self.signed,
        transaction: [String: JSONValue]? = Self.transaction(),
        transactionFaults: JWSMinter.Faults = .none,
        faults: JWSMinter.Faults = .none,
        environment: AppStoreEnvironment = .production,
        renewalEnvironment: AppStoreEnvironment? = nil,
        signer: JWSTestAuthority.Identity? = nil,
        chain: [Certificate]? = nil
    ) throws -> [UInt8] {
        let authority = try Self.authority.get()
        let signer = signer ?? authority.leaf
        let chain = chain ?? authority.chain
        let signedTransaction = try transaction.map { try JWSMinter.sign($0, signer: signer, chain: chain, faults: transactionFaults) }
        let renewal = try JWSMinter.sign(
            JWSSamplePayload.renewalInfo(productID: "com.example.app.pro", originalTransactionID: "2000000000000001",
                                         environment: renewalEnvironment ?? environment, signedDate: signed),
            signer: signer, chain: chain)
        let payload = JWSSamplePayload.notification(
            type: NotificationType(rawValue: type), notificationUUID: uuid, bundleIdentifier: Self.bundle, appAppleID: 1, environment: environment,
            signedDate: signed, signedTransactionInfo: signedTransaction, signedRenewalInfo: renewal)
        let jws = try JWSMinter.sign(payload, signer: signer, chain: chain, faults: faults)
        return JSONValue.object(["signedPayload": .string(jws)]).serialized
    }

    static let query = LedgerQuery(environment: .production, bundleIdentifier: bundle, originalTransactionIdentifiers: ["2000000000000001"])

    func verifier(_ ledger: any Ledger, _ adjust: (inout VerifyReceiptConfiguration) -> Void = { _ in }) throws -> ReceiptVerifier {
        try ServiceComponents(configuration: try Self.configuration(adjust), ledger: ledger, now: { ServiceTestPKI.now }).verifier
    }

    func object(_ answer: SignedDataAnswer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
    }

    @Test("a notification is recorded once, a replay acknowledged", arguments: LedgerBackend.available)
    func recordedOnce(backend: LedgerBackend) async throws {
        let body = try Self.body(uuid: "6a7b0000-0000-4000-8000-000000000001")
        try await backend.withLedger { ledger in
            let verifier = try self.verifier(ledger)
            let first = await verifier.answerNotification(body: body)
            #expect(first.httpStatus == 200)
            #expect(first.outcome == "recorded")
            #expect(try self.object(first)["notificationUUID"] as? String == "6a7b0000-0000-4000-8000-000000000001")
            let snapshot = try await ledger.snapshot(matching: Self.query)
            #expect(snapshot.transactions.map(\.transactionIdentifier) == ["2000000000000042"])
            #expect(snapshot.transactions.first?.receiptHash.hasPrefix("jws:") == true)
            let stored = try #require(snapshot.transactions.first)
            let row = try #require(try JSONSerialization.jsonObject(with: Data(stored.json)) as? [String: Any])
            #expect(row["product_id"] as? String == "com.example.app.pro")
            #expect(row["original_transaction_id"] as? String == "2000000000000001")
            #expect(row["is_trial_period"] as? String == "false")
            #expect(snapshot.renewalInfo.map(\.originalTransactionIdentifier) == ["2000000000000001"])
            let storedRenewal = try #require(snapshot.renewalInfo.first)
            let renewal = try #require(try JSONSerialization.jsonObject(with: Data(storedRenewal.json)) as? [String: Any])
            #expect(renewal["auto_renew_status"] as? String == "1")
            #expect(renewal["auto_renew_product_id"] as? String == "com.example.app.pro")
            // The signed values as Apple signed them, byte for byte.
            let envelope = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
            let signedPayload = try #require(envelope["signedPayload"] as? String)
            let claims = try #require(signedPayload.split(separator: ".").dropFirst().first.flatMap { part in
                Data(base64Encoded: String(part).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                    .padding(toLength: (part.count + 3) / 4 * 4, withPad: "=", startingAt: 0))
            })
            let data = try #require((try JSONSerialization.jsonObject(with: claims) as? [String: Any])?["data"] as? [String: Any])
            let signedTransaction = try await ledger.signedTransaction(
                environment: .production, bundleIdentifier: Self.bundle, transactionIdentifier: "2000000000000042")
            #expect(signedTransaction?.currentJWS == data["signedTransactionInfo"] as? String)
            #expect(storedRenewal.signedJWS == data["signedRenewalInfo"] as? String)
            #expect(signedTransaction?.currentJWS?.isEmpty == false && storedRenewal.signedJWS?.isEmpty == false)

            // Apple's retry, or an attacker's replay, of the same notification with another transaction: not applied.
            let replay = try Self.body(uuid: "6a7b0000-0000-4000-8000-000000000001", transaction: Self.transaction("2000000000000099"))
            let second = await verifier.answerNotification(body: replay)
            #expect(second.httpStatus == 200)
            #expect(second.outcome == "duplicate")
            #expect(try await ledger.transactions(matching: Self.query).map(\.transactionIdentifier) == ["2000000000000042"])
        }
    }

    @Test("the default maximum age lets Apple's last retry in (157 h) and refuses a week and a second")
    func maximumAgeCoversApplesRetries() async throws {
        let lastRetry = ServiceTestPKI.now.addingTimeInterval(-157 * 3600)
        let tooOld = ServiceTestPKI.now.addingTimeInterval(-(7 * 86_400 + 1))
        try await LedgerBackend.sqliteMemory.withLedger { ledger in
            let verifier = try self.verifier(ledger)
            let retried = await verifier.answerNotification(body: try Self.body(signed: lastRetry))
            #expect(retried.outcome == "recorded")
            let old = await verifier.answerNotification(body: try Self.body(signed: tooOld))
            #expect(old.httpStatus == 422)
            #expect(old.reasons.map(\.code) == ["notification_too_old"])
        }
    }

    @Test("nested data of another environment than the notification's is refused, nothing recorded",
          arguments: LedgerBackend.available)
    func nestedEnvironmentMustMatch(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            let verifier = try self.verifier(ledger)
            let sandboxTransaction = try Self.body(transaction: Self.transaction(environment: .sandbox))
            let first = await verifier.answerNotification(body: sandboxTransaction)
            #expect(first.httpStatus == 422)
            #expect(first.reasons.map(\.code) == ["transaction.environment_mismatch"])
            let sandboxRenewal = try Self.body(renewalEnvironment: .sandbox)
            let second = await verifier.answerNotification(body: sandboxRenewal)
            #expect(second.httpStatus == 422)
            #expect(second.reasons.map(\.code) == ["renewal_info.environment_mismatch"])
            #expect(try await ledger.snapshot(matching: Self.query).transactions.isEmpty)
        }
    }

    @Test("U+0000 in a stored string is refused with 422 on every backend, before any write",
          arguments: LedgerBackend.available)
    func nulCharacterIsRefusedAlike(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            let verifier = try self.verifier(ledger)
            let body = try Self.body(transaction: Self.transaction { fields in
                fields["productId"] = .string("com.example.app\u{0}.pro")
            })
            let answer = await verifier.answerNotification(body: body)
            #expect(answer.httpStatus == 422)
            #expect(answer.reasons.map(\.code) == ["string_contains_nul"])
            #expect(try await ledger.snapshot(matching: Self.query).transactions.isEmpty)
            // A field kept only inside the stored JSON is written there escaped (`\u0000`), which both backends
            // store: recorded alike.
            let nested = try Self.body(transaction: Self.transaction { fields in
                fields["offer"] = .object(["name\u{0}": .string("x")])
            })
            #expect(await verifier.answerNotification(body: nested).outcome == "recorded")
        }
    }

    @Test("a refund's revocation, signed later, cancels the transaction", arguments: LedgerBackend.available)
    func refundRevokes(backend: LedgerBackend) async throws {
        let revoked = Self.signed.addingTimeInterval(600)
        try await backend.withLedger { ledger in
            let verifier = try self.verifier(ledger)
            // The refund arrives first; the older purchase notification must not undo it.
            let refund = try Self.body(type: "REFUND", signed: revoked, transaction: Self.transaction(signed: revoked) { fields in
                fields["revocationDate"] = .number(AppStoreTimestamp(revoked).number)
                fields["revocationReason"] = .number(JSONNumber(0))
            })
            #expect(await verifier.answerNotification(body: refund).outcome == "recorded")
            #expect(await verifier.answerNotification(body: try Self.body()).outcome == "recorded")
            let rows = try await ledger.transactions(matching: Self.query)
            #expect(rows.count == 1)
            #expect(rows.first?.cancellationDateMilliseconds == revoked.epochMilliseconds)
        }
    }

    @Test("a notification that fails a check records nothing", arguments: LedgerBackend.available)
    func rejectedRecordsNothing(backend: LedgerBackend) async throws {
        let uuid = "6a7b0000-0000-4000-8000-000000000002"
        let other = try JWSTestAuthority()
        try await backend.withLedger { ledger in
            let verifier = try self.verifier(ledger) { $0.allowedBundleIdentifiers = [Self.bundle] }
            let cases: [([String], [UInt8])] = [
                (["signature_invalid"], try Self.body(uuid: uuid, faults: .init(corruptsSignature: true))),
                (["algorithm_not_allowed"], try Self.body(uuid: uuid, faults: .init(algorithm: "none"))),
                // Another authority signed the nested data too: every part is reported.
                (["certificate_untrusted", "transaction.certificate_untrusted", "renewal_info.certificate_untrusted"],
                 try Self.body(uuid: uuid, signer: other.leaf, chain: other.chain)),
                (["transaction.signature_invalid"], try Self.body(uuid: uuid, transactionFaults: .init(corruptsSignature: true))),
                (["notification_too_old"], try Self.body(uuid: uuid, signed: ServiceTestPKI.now.addingTimeInterval(-8 * 86_400))),
                (["notification_signed_in_future"], try Self.body(uuid: uuid, signed: ServiceTestPKI.now.addingTimeInterval(3600))),
                (["transaction.bundle_id_mismatch"], try Self.body(uuid: uuid, transaction: Self.transaction { $0["bundleId"] = .string("com.example.other") })),
            ]
            for (reasons, body) in cases {
                let answer = await verifier.answerNotification(body: body)
                #expect(answer.httpStatus == 422, "\(reasons)")
                #expect(answer.outcome == "rejected")
                #expect(answer.reasons.map(\.code) == reasons)
            }
            let strictAge = try self.verifier(ledger) { $0.notifications.maximumAge = .seconds(600) }
            #expect(await strictAge.answerNotification(body: try Self.body(uuid: uuid)).reasons.map(\.code) == ["notification_too_old"])
            let elsewhere = try self.verifier(ledger) { $0.allowedBundleIdentifiers = ["com.example.other"] }
            #expect(await elsewhere.answerNotification(body: try Self.body(uuid: uuid)).reasons.map(\.code) == ["bundle_id_not_allowed"])
            #expect(try await ledger.snapshot(matching: Self.query).transactions.isEmpty)
            #expect(try await ledger.snapshot(matching: Self.query).renewalInfo.isEmpty)
            // The UUID was never consumed: the genuine notification is applied.
            #expect(await verifier.answerNotification(body: try Self.body(uuid: uuid)).outcome == "recorded")
        }
    }

    @Test func locallySignedNotificationsNeedTheXcodeSwitch() async throws {
        let local = try JWSTestAuthority.localTestingSigner()
        let body = try Self.body(transaction: Self.transaction(environment: .xcode), environment: .xcode, signer: local, chain: [local.certificate])
        try await ServiceHarness.withMemoryLedger { ledger in
            let strict = await (try self.verifier(ledger)).answerNotification(body: body)
            #expect(strict.httpStatus == 422)
            #expect(strict.reasons.map(\.code).contains("local_environment_not_allowed"))
            let relaxed = await (try self.verifier(ledger) { $0.allowsXcodeReceipts = true }).answerNotification(body: body)
            #expect(relaxed.outcome == "recorded")
            let query = LedgerQuery(environment: .xcode, bundleIdentifier: Self.bundle, originalTransactionIdentifiers: ["2000000000000001"])
            #expect(try await ledger.transactions(matching: query).count == 1)
        }
    }

    @Test func malformedBodiesAndLedgerFailures() async throws {
        try await ServiceHarness.withMemoryLedger { ledger in
            let verifier = try self.verifier(ledger)
            for (body, reason) in [
                (#"{"signedPayload":"a","signedPayload":"b"}"#, "malformed_json"),
                (#"{"payload":"x"}"#, "malformed_jws"),
                (#"{"signedPayload":"a.b"}"#, "malformed_jws"),
                ("", "malformed_json"),
            ] {
                let answer = await verifier.answerNotification(body: Array(body.utf8))
                #expect(answer.httpStatus == 400)
                #expect(answer.reasons.map(\.code) == [reason])
            }
            let authority = try Self.authority.get()
            let anonymous = try JWSMinter.sign(
                ["notificationType": .string("TEST"), "signedDate": .number(AppStoreTimestamp(Self.signed).number),
                 "data": .object(["bundleId": .string(Self.bundle), "environment": .string("Production")])],
                signer: authority.leaf, chain: authority.chain)
            let missing = await verifier.answerNotification(body: JSONValue.object(["signedPayload": .string(anonymous)]).serialized)
            #expect(missing.httpStatus == 400)
            #expect(missing.reasons.map(\.code) == ["notification_uuid_missing"])
        }
        let down = try self.verifier(FailingLedger(error: LedgerError(.unavailable, "down")))
        let answer = await down.answerNotification(body: try Self.body())
        #expect(answer.httpStatus == 503)
        #expect(answer.reasons.map(\.code) == ["ledger_unavailable"])
    }

    @Test func jwsVerifyAnswersTheVerdictAndThePayload() async throws {
        let authority = try Self.authority.get()
        let jws = try JWSMinter.sign(Self.transaction(), signer: authority.leaf, chain: authority.chain)
        let forged = try JWSMinter.sign(Self.transaction(), signer: authority.leaf, chain: authority.chain, faults: .init(corruptsSignature: true))
        try await ServiceHarness.withMemoryLedger { ledger in
            let verifier = try self.verifier(ledger)
            let valid = await verifier.answerJWS(body: Array(jws.utf8), kind: nil)
            #expect(valid.httpStatus == 200)
            #expect(valid.outcome == "valid")
            let object = try self.object(valid)
            #expect(object["kind"] as? String == "transaction")
            #expect((object["payload"] as? [String: Any])?["transactionId"] as? String == "2000000000000042")
            let invalid = await verifier.answerJWS(body: Array(forged.utf8), kind: .transaction)
            #expect(invalid.httpStatus == 200)
            #expect(invalid.reasons.map(\.code) == ["signature_invalid"])
            let wrapped = await verifier.answerJWS(body: try Self.body(), kind: nil)
            #expect(wrapped.outcome == "valid")
            #expect((try self.object(wrapped)["nested"] as? [String: Any])?.keys.sorted() == ["renewal_info", "transaction"])
            let malformed = await verifier.answerJWS(body: Array("e30.e30".utf8), kind: nil)
            #expect(malformed.httpStatus == 400)
            #expect(malformed.reasons.map(\.code) == ["malformed_jws"])
            // Verifying records nothing.
            #expect(try await ledger.transactions(matching: Self.query).isEmpty)
        }
    }

    /// A JWS shaped like Apple's published test vectors: a transaction holding only `bundleId`, `environment` and
    /// `signedDate`, whose fields name no kind.
    static func vector() throws -> String {
        let authority = try Self.authority.get()
        let fields: [String: JSONValue] = [
            "bundleId": .string(Self.bundle), "environment": .string("Sandbox"),
            "signedDate": .number(AppStoreTimestamp(Self.signed).number),
        ]
        return try JWSMinter.sign(fields, signer: authority.leaf, chain: authority.chain)
    }

    @Test func jwsVerifyAnswersAPayloadOfNoKindWithKindUnknown() async throws {
        let jws = try Self.vector()
        try await ServiceHarness.withMemoryLedger { ledger in
            let verifier = try self.verifier(ledger)
            let answer = await verifier.answerJWS(body: Array(jws.utf8), kind: nil)
            #expect(answer.httpStatus == 200)
            #expect(answer.outcome == "valid")
            let object = try self.object(answer)
            #expect(object["kind"] as? String == "unknown")
            #expect(object["environment"] as? String == "Sandbox")
            #expect((object["payload"] as? [String: Any])?["bundleId"] as? String == Self.bundle)
            // Well-formed but unsigned: a verdict, not a malformed request.
            let empty = await verifier.answerJWS(body: Array("e30.e30.AAAA".utf8), kind: nil)
            #expect(empty.httpStatus == 200)
            #expect(empty.reasons.map(\.code) == ["algorithm_not_allowed", "certificate_chain_missing"])
            #expect(try self.object(empty)["kind"] as? String == "unknown")
            try await ServiceHarness.withLiveService(try Self.configuration { $0.servesJWSVerify = true }, ledger: ledger) { client, _ in
                try await client.execute(uri: "/jws/verify", method: .post, body: ByteBuffer(string: jws)) { response in
                    #expect(response.status == .ok)
                    let object = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
                    #expect(object?["kind"] as? String == "unknown")
                    #expect(object?["valid"] as? Bool == true)
                }
                try await client.execute(uri: "/jws/verify?kind=unknown", method: .post, body: ByteBuffer(string: jws)) { response in
                    #expect(response.status == .badRequest)
                }
            }
        }
    }

    @Test("a payload whose fields do not name a notification alone is refused by /notifications/v2, nothing recorded",
          arguments: LedgerBackend.available)
    func notificationsMustNameTheirKind(backend: LedgerBackend) async throws {
        let authority = try Self.authority.get()
        func posted(_ fields: [String: JSONValue]) throws -> [UInt8] {
            JSONValue.object(["signedPayload": .string(try JWSMinter.sign(fields, signer: authority.leaf, chain: authority.chain))]).serialized
        }
        let transaction = try JWSMinter.sign(Self.transaction(), signer: authority.leaf, chain: authority.chain)
        var untyped = JWSSamplePayload.notification(
            type: .subscribed, notificationUUID: "6a7b0000-0000-4000-8000-0000000000aa", bundleIdentifier: Self.bundle, appAppleID: 1,
            signedDate: Self.signed, signedTransactionInfo: transaction)
        untyped["notificationType"] = nil
        var ambiguous = untyped
        ambiguous["notificationType"] = .string("SUBSCRIBED")
        ambiguous["receiptType"] = .string("Production")
        let bodies = [JSONValue.object(["signedPayload": .string(try Self.vector())]).serialized, try posted(untyped), try posted(ambiguous)]
        try await backend.withLedger { ledger in
            let verifier = try self.verifier(ledger)
            for body in bodies {
                let answer = await verifier.answerNotification(body: body)
                #expect(answer.httpStatus == 400)
                #expect(answer.reasons.map(\.code) == ["not_a_notification"])
            }
            #expect(try await ledger.snapshot(matching: Self.query).transactions.isEmpty)
        }
    }

    @Test("POST /jws/verify is off unless jws_verify_endpoint turns it on: 404, like any unknown path")
    func theJWSRouteIsOffByDefault() async throws {
        #expect(VerifyReceiptConfiguration().servesJWSVerify == false)
        try await ServiceHarness.withMemoryLedger { ledger in
            try await ServiceHarness.withLiveService(try Self.configuration(), ledger: ledger) { client, _ in
                try await client.execute(uri: "/jws/verify", method: .post, body: ByteBuffer(bytes: try Self.body())) { response in
                    #expect(response.status == .notFound)
                }
            }
        }
    }

    @Test func theRoutesAnswerOverHTTP() async throws {
        let body = try Self.body()
        try await ServiceHarness.withMemoryLedger { ledger in
            try await ServiceHarness.withLiveService(try Self.configuration { $0.servesJWSVerify = true }, ledger: ledger) { client, _ in
                try await client.execute(uri: "/notifications/v2", method: .post, headers: [.contentType: "application/json"],
                                         body: ByteBuffer(bytes: body)) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "application/json")
                }
                try await client.execute(uri: "/notifications/v2", method: .post, body: ByteBuffer(string: "{}")) { response in
                    #expect(response.status == .badRequest)
                }
                try await client.execute(uri: "/jws/verify?kind=receipt", method: .post, body: ByteBuffer(bytes: body)) { response in
                    #expect(response.status == .badRequest)
                }
                try await client.execute(uri: "/jws/verify?kind=notification", method: .post, body: ByteBuffer(bytes: body)) { response in
                    #expect(response.status == .ok)
                    let object = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
                    #expect(object?["valid"] as? Bool == true)
                }
            }
        }
    }
}
