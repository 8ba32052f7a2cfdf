import AppStoreJWS
import AppStorePKI
import AppStoreServerAPI
import Crypto
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
import Logging
import SharedFixtures
import SwiftASN1
import Testing

/// Apple's App Store Server API served from the ledger (`GET /inApps/v1/transactions/{id}`, and under `/sandbox`),
/// over HTTP on every backend: the JWS as the ledger kept it, Apple's error bodies, and 401 with an empty body for any
/// token Apple would refuse.
@Suite("App Store Server API mirror")
struct AppStoreMirrorTests {
    typealias H = ServiceHarness
    typealias N = NotificationServiceTests
    typealias B = APIBridgeTests

    static let otherKey = P256.Signing.PrivateKey()

    /// The service with the app's API key configured (its production and sandbox clients: the mirror's keys), Apple's
    /// host unreachable (the bridge is not what is tested here).
    static func configuration() throws -> VerifyReceiptConfiguration {
        try B.configuration(baseURL: "http://127.0.0.1:9")
    }

    static func token(
        key: P256.Signing.PrivateKey = B.key, keyID: String = B.keyID, bundle: String = N.bundle,
        issuedAt: Date = ServiceTestPKI.now, lifetime: Duration = .seconds(1200)
    ) throws -> String {
        let apiKey = try AppStoreServerAPIKey(issuerID: B.issuer, keyID: keyID, privateKey: key)
        return "Bearer " + (try BearerToken(key: apiKey, bundleIdentifier: bundle, now: issuedAt, lifetime: lifetime)).compact
    }

    /// GETs `path` with `authorization`: the status, the body.
    static func get(
        _ client: any TestClientProtocol, _ path: String, authorization: String?
    ) async throws -> (status: Int, body: [UInt8], contentType: String?) {
        var headers: HTTPFields = [:]
        if let authorization { headers[.authorization] = authorization }
        return try await client.execute(uri: path, method: .get, headers: headers) { response in
            (Int(response.status.code), Array(response.body.readableBytesView), response.headers[.contentType])
        }
    }

    /// A signed transaction of the app, minted by the test authority, applied to the ledger as the API would.
    static func learn(_ id: String, environment: AppStoreEnvironment, into ledger: any Ledger) async throws -> String {
        let authority = try N.authority.get()
        let jws = try JWSMinter.sign(N.transaction(id, environment: environment), signer: authority.leaf, chain: authority.chain)
        let payload = try JWSTransactionPayload(fields: N.transaction(id, environment: environment))
        let row = try #require(LedgerTransaction(verified: payload, jws: jws, environment: environment, source: .api))
        try await ledger.apply(LedgerUpdate(source: .api, transactions: [row]))
        return jws
    }

    @Test("Get Transaction Info answers the JWS the ledger kept, byte for byte; sandbox under /sandbox",
          arguments: LedgerBackend.available)
    func transactionInfo(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            let production = try await Self.learn("2000000000000042", environment: .production, into: ledger)
            let sandbox = try await Self.learn("2000000000000043", environment: .sandbox, into: ledger)
            try await H.withLiveService(try Self.configuration(), ledger: ledger) { client, _ in
                let token = try Self.token()
                let answer = try await Self.get(client, "/inApps/v1/transactions/2000000000000042", authorization: token)
                #expect(answer.status == 200)
                #expect(answer.contentType == "application/json")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
                #expect(object as? [String: String] == ["signedTransactionInfo": production])

                let sandboxAnswer = try await Self.get(client, "/sandbox/inApps/v1/transactions/2000000000000043", authorization: token)
                #expect(sandboxAnswer.status == 200)
                let sandboxObject = try JSONSerialization.jsonObject(with: Data(sandboxAnswer.body)) as? [String: String]
                #expect(sandboxObject == ["signedTransactionInfo": sandbox])

                // Each environment its own: the sandbox transaction is not found in production, nor the reverse.
                let crossed = try await Self.get(client, "/inApps/v1/transactions/2000000000000043", authorization: token)
                #expect(crossed.status == 404)
                #expect(String(decoding: crossed.body, as: UTF8.self)
                    == #"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#)
            }
        }
    }

    @Test("Apple's errors: an unknown id 404 4040010, one known only from a receipt 500 5000001 (retryable), an id not of digits 400 4000006",
          arguments: LedgerBackend.available)
    func appleErrors(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            let receipt = ServiceTestPKI.receipt(purchases: [
                ServiceTestPKI.purchase(L.original, original: L.original, product: "com.example.app.pro", day: 1)
            ])
            try await ledger.record(
                LedgerReceipt(receipt, bytes: Array("receipt".utf8), environment: .production, seenAt: ServiceTestPKI.now))
            try await H.withLiveService(try Self.configuration(), ledger: ledger) { client, _ in
                let token = try Self.token()
                let unknown = try await Self.get(client, "/inApps/v1/transactions/2000000000000099", authorization: token)
                #expect(unknown.status == 404)
                #expect(String(decoding: unknown.body, as: UTF8.self)
                    == #"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#)
                // Apple knows it; the mirror holds no JWS to give: not "does not exist", but try again.
                let receiptOnly = try await Self.get(client, "/inApps/v1/transactions/\(L.original)", authorization: token)
                #expect(receiptOnly.status == 500)
                #expect(String(decoding: receiptOnly.body, as: UTF8.self)
                    == #"{"errorCode":5000001,"errorMessage":"An unknown error occurred. Please try again."}"#)
                for id in ["abc", String(repeating: "1", count: 65)] {
                    let answer = try await Self.get(client, "/inApps/v1/transactions/\(id)", authorization: token)
                    #expect(answer.status == 400, "\(id)")
                    #expect(String(decoding: answer.body, as: UTF8.self)
                        == #"{"errorCode":4000006,"errorMessage":"Invalid transaction id."}"#)
                }
                // Only the route's exact shape answers.
                #expect(try await Self.get(client, "/inApps/v1/transactions/", authorization: token).status == 404)
                #expect(try await Self.get(client, "/inApps/v1/transactions/1/2", authorization: token).status == 404)
                let posted = try await client.execute(uri: "/inApps/v1/transactions/1", method: .post) { $0.status.code }
                #expect(posted == 405)
            }
        }
    }

    typealias L = LedgerAnswerTests

    @Test("a receipt newer than the signed version leaves no JWS to serve: 500 5000001, not the old signature",
          arguments: LedgerBackend.available)
    func receiptNewerThanTheSignedVersion(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            _ = try await Self.learn(L.original, environment: .production, into: ledger)
            // The device's receipt, created after the JWS was signed, carries the same transaction.
            let receipt = ServiceTestPKI.receipt(createdDay: 1000, purchases: [
                ServiceTestPKI.purchase(L.original, original: "2000000000000001", product: "com.example.app.pro", day: 1)
            ])
            #expect(receipt.creationDate.map { $0 > N.signed } == true)
            try await ledger.record(
                LedgerReceipt(receipt, bytes: Array("newer".utf8), environment: .production, seenAt: ServiceTestPKI.now))
            try await H.withLiveService(try Self.configuration(), ledger: ledger) { client, _ in
                let answer = try await Self.get(client, "/inApps/v1/transactions/\(L.original)", authorization: try Self.token())
                #expect(answer.status == 500)
            }
        }
    }

    @Test("one app's key reads its app only; two apps configured with one key id but different keys: that key id is refused")
    func appsAreIsolated() async throws {
        let secondKey = P256.Signing.PrivateKey()
        try await H.withMemoryLedger { ledger in
            let jws = try await Self.learn("2000000000000042", environment: .production, into: ledger)
            func configuration(_ secondKeyID: String) throws -> VerifyReceiptConfiguration {
                var configuration = try Self.configuration()
                configuration.appStoreServerAPI.apps.append(
                    try AppStoreServerAPIAppConfiguration(
                        bundleIdentifier: "com.example.second",
                        key: try AppStoreServerAPIKey(issuerID: B.issuer, keyID: secondKeyID, privateKey: secondKey),
                        baseURL: "http://127.0.0.1:9"))
                return configuration
            }
            try await H.withLiveService(try configuration("SECONDKEY1"), ledger: ledger) { client, _ in
                let path = "/inApps/v1/transactions/2000000000000042"
                #expect(try await Self.get(client, path, authorization: try Self.token()).status == 200)
                // The second app's key, for the second app: the first app's transaction is not its to read.
                let second = try await Self.get(
                    client, path, authorization: try Self.token(key: secondKey, keyID: "SECONDKEY1", bundle: "com.example.second"))
                #expect(second.status == 404)
                // The second app's key naming the first app: refused.
                let crossed = try await Self.get(
                    client, path, authorization: try Self.token(key: secondKey, keyID: "SECONDKEY1"))
                #expect(crossed.status == 401)
                // A token without `iat`, as Apple's own library signs them, expiring within the hour: taken.
                let noIssuedAt = try Self.tokenWithoutIssuedAt(expiresIn: 300)
                let answer = try await Self.get(client, path, authorization: noIssuedAt)
                #expect(answer.status == 200)
                #expect(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: String] == ["signedTransactionInfo": jws])
                #expect(try await Self.get(client, path, authorization: try Self.tokenWithoutIssuedAt(expiresIn: 3700)).status == 401)
            }
            // The same key id given two different keys: neither may read.
            let first = try Self.token()
            let second = try Self.token(key: secondKey, bundle: "com.example.second")
            try await H.withLiveService(try configuration(B.keyID), ledger: ledger) { client, _ in
                let path = "/inApps/v1/transactions/2000000000000042"
                let statuses = [
                    try await Self.get(client, path, authorization: first).status,
                    try await Self.get(client, path, authorization: second).status,
                ]
                #expect(statuses == [401, 401])
            }
        }
    }

    /// A token as Apple's Python library signs it: no `iat`, `exp` `expiresIn` seconds after the service's clock.
    static func tokenWithoutIssuedAt(expiresIn: Double) throws -> String {
        func base64URL(_ bytes: [UInt8]) -> String {
            Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let header: [String: JSONValue] = ["alg": .string("ES256"), "kid": .string(B.keyID), "typ": .string("JWT")]
        let claims: [String: JSONValue] = [
            "iss": .string(B.issuer), "aud": .string("appstoreconnect-v1"), "bid": .string(N.bundle),
            "exp": .number(JSONNumber(Int64(ServiceTestPKI.now.timeIntervalSince1970 + expiresIn))),
        ]
        let input = base64URL(JSONValue.object(header).serialized) + "." + base64URL(JSONValue.object(claims).serialized)
        return "Bearer " + input + "." + base64URL(Array(try B.key.signature(for: Array(input.utf8)).rawRepresentation))
    }

    @Test("any token Apple would refuse is 401 with an empty body, whatever the id")
    func refusedTokens() async throws {
        try await H.withMemoryLedger { ledger in
            _ = try await Self.learn("2000000000000042", environment: .production, into: ledger)
            try await H.withLiveService(try Self.configuration(), ledger: ledger) { client, _ in
                let refused: [String?] = [
                    nil,
                    "Basic dXNlcjpwYXNz",
                    try Self.token(key: Self.otherKey),  // another key under the configured key id: its signature fails
                    try Self.token(keyID: "OTHERKEY"),
                    try Self.token(bundle: "com.example.other"),  // an app the key does not serve
                    try Self.token(issuedAt: ServiceTestPKI.now.addingTimeInterval(-3000)),  // expired
                    try Self.token(issuedAt: ServiceTestPKI.now.addingTimeInterval(600)),  // issued in the future
                    "Bearer not.a.jwt",
                ]
                for authorization in refused {
                    for path in ["/inApps/v1/transactions/2000000000000042", "/inApps/v1/transactions/abc"] {
                        let answer = try await Self.get(client, path, authorization: authorization)
                        #expect(answer.status == 401, "\(String(describing: authorization)) \(path)")
                        #expect(answer.body.isEmpty)
                        #expect(answer.contentType == nil)
                    }
                }
            }
        }
    }

    @Test("an app given only its key's public half (public_key_file): served from the ledger, never refreshed",
          arguments: LedgerBackend.available)
    func publicKeyOnly(backend: LedgerBackend) async throws {
        var configuration = try L.configuration()
        let app = try AppStoreServerAPIAppConfiguration(
            bundleIdentifier: N.bundle, keyID: B.keyID, issuerID: B.issuer, publicKey: B.key.publicKey)
        #expect(app.production == nil && app.sandbox == nil, "no client: nothing to refresh with")
        #expect(Set(app.tokenKeys.keys) == [.production, .sandbox])
        configuration.appStoreServerAPI.apps = [app]
        let configured = configuration
        try await backend.withLedger { ledger in
            let production = try await Self.learn("2000000000000052", environment: .production, into: ledger)
            let sandbox = try await Self.learn("2000000000000053", environment: .sandbox, into: ledger)
            try await H.withLiveService(configured, ledger: ledger) { client, _ in
                let answer = try await Self.get(client, "/inApps/v1/transactions/2000000000000052", authorization: try Self.token())
                #expect(answer.status == 200)
                let object = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: String]
                #expect(object == ["signedTransactionInfo": production])
                let sandboxAnswer = try await Self.get(
                    client, "/sandbox/inApps/v1/transactions/2000000000000053", authorization: try Self.token())
                #expect(sandboxAnswer.status == 200)
                let sandboxObject = try JSONSerialization.jsonObject(with: Data(sandboxAnswer.body)) as? [String: String]
                #expect(sandboxObject == ["signedTransactionInfo": sandbox])
                let other = try await Self.get(
                    client, "/inApps/v1/transactions/2000000000000052", authorization: try Self.token(key: Self.otherKey))
                #expect(other.status == 401 && other.body.isEmpty)
            }
        }
        // One environment only: the other's path knows no key. And a public key entry that gives a private-key entry's
        // key id another key: that key id is refused for both apps.
        let sandboxOnly = try AppStoreServerAPIAppConfiguration(
            bundleIdentifier: N.bundle, keyID: B.keyID, issuerID: B.issuer, publicKey: B.key.publicKey,
            environment: .sandbox)
        #expect(Set(sandboxOnly.tokenKeys.keys) == [.sandbox])
        var sandboxConfiguration = try L.configuration()
        sandboxConfiguration.appStoreServerAPI.apps = [sandboxOnly]
        var conflicting = try Self.configuration()
        conflicting.appStoreServerAPI.apps.append(
            try AppStoreServerAPIAppConfiguration(
                bundleIdentifier: "com.example.other", keyID: B.keyID, issuerID: B.issuer,
                publicKey: Self.otherKey.publicKey))
        let configurations = [sandboxConfiguration, conflicting]
        try await H.withMemoryLedger { ledger in
            _ = try await Self.learn("2000000000000054", environment: .sandbox, into: ledger)
            try await H.withLiveService(configurations[0], ledger: ledger) { client, _ in
                let sandboxPath = "/sandbox/inApps/v1/transactions/2000000000000054"
                #expect(try await Self.get(client, sandboxPath, authorization: try Self.token()).status == 200)
                let production = try await Self.get(client, "/inApps/v1/transactions/2000000000000054", authorization: try Self.token())
                #expect(production.status == 401)
            }
            try await H.withLiveService(configurations[1], ledger: ledger) { client, _ in
                let path = "/sandbox/inApps/v1/transactions/2000000000000054"
                #expect(try await Self.get(client, path, authorization: try Self.token()).status == 401)
                let otherApp = try Self.token(key: Self.otherKey, bundle: "com.example.other")
                #expect(try await Self.get(client, path, authorization: otherApp).status == 401)
            }
        }
        #expect(throws: AppStoreServerAPIError.self) {
            try AppStoreServerAPIAppConfiguration(
                bundleIdentifier: N.bundle, keyID: B.keyID, issuerID: B.issuer, publicKey: B.key.publicKey,
                environment: .xcode)
        }
        #expect(throws: AppStoreServerAPIError.self) {
            try AppStoreServerAPIAppConfiguration(
                bundleIdentifier: N.bundle, keyID: "", issuerID: B.issuer, publicKey: B.key.publicKey)
        }
    }

    @Test("without an app's API key the mirror is not served")
    func offWithoutKeys() async throws {
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(try L.configuration(), ledger: ledger) { client, _ in
                let answer = try await Self.get(client, "/inApps/v1/transactions/2000000000000042", authorization: try Self.token())
                #expect(answer.status == 404)
            }
        }
    }
}

/// Apple's own Python client (`app-store-server-library`, its base URL pointed at the service) reads from the mirror,
/// and Apple's `SignedDataVerifier`, given the test root, verifies what it got.
@Suite(
    "Apple's client against the mirror",
    .enabled(
        if: AppleLibrary.isInstalled || AppleLibrary.isRequired,
        "app-store-server-library is not installed (pip install app-store-server-library); .ci/run installs it"))
struct AppleClientMirrorTests {
    typealias M = AppStoreMirrorTests
    typealias N = NotificationServiceTests
    typealias B = APIBridgeTests

    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/apple-client.py")

    /// Runs the script's `calls` against `port` with `key`: one parsed JSON line per call.
    static func run(
        port: Int, key: P256.Signing.PrivateKey, calls: [String], in directory: URL
    ) async throws -> [[String: Any]] {
        let keyFile = directory.appendingPathComponent("key-\(UUID()).p8")
        try Data(key.pemRepresentation.utf8).write(to: keyFile)
        let rootFile = directory.appendingPathComponent("root.cer")
        var serializer = DER.Serializer()
        try serializer.serialize(try N.authority.get().root.certificate)
        try Data(serializer.serializedBytes).write(to: rootFile)
        let output = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["NO_PROXY=127.0.0.1", "python3", Self.script.path, "http://127.0.0.1:\(port)", keyFile.path, B.keyID, B.issuer,
             N.bundle, "Production", rootFile.path] + calls)
        try #require(output.status == 0, "\(output.text)")
        return try output.text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test("Get Transaction Info through Apple's client: verified by Apple's verifier; an unknown id is Apple's error; another key 401")
    func transactionInfo() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-mirror-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await ServiceHarness.withMemoryLedger { ledger in
            _ = try await M.learn("2000000000000042", environment: .production, into: ledger)
            // Apple's client signs its tokens at the machine's time: the service's clock is the machine's here.
            let components = try ServiceComponents(configuration: try M.configuration(), ledger: ledger, now: { Date() })
            let server = VerifyReceiptServer(components: components, host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
            try await server.application().test(.live) { client in
                let port = try #require(client.port)
                let lines = try await Self.run(
                    port: port, key: B.key, calls: ["transaction-info=2000000000000042", "transaction-info=2000000000000099"],
                    in: directory)
                #expect(lines.count == 2)
                #expect(lines.first?["ok"] as? Bool == true)
                #expect(lines.first?["transactionIds"] as? [String] == ["2000000000000042"])
                #expect(lines.last?["ok"] as? Bool == false)
                #expect(lines.last?["httpStatus"] as? Int == 404)
                #expect(lines.last?["apiError"] as? Int == 4_040_010)

                let stranger = try await Self.run(
                    port: port, key: M.otherKey, calls: ["transaction-info=2000000000000042"], in: directory)
                #expect(stranger.first?["httpStatus"] as? Int == 401)
            }
        }
    }

    @Test("statuses, every page of a history and refunds through Apple's client: each signed value verified by Apple's verifier")
    func customerEndpoints() async throws {
        typealias C = AppStoreMirrorCustomerTests
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-mirror-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await ServiceHarness.withMemoryLedger { ledger in
            _ = try await C.learnCustomer(into: ledger)
            let components = try ServiceComponents(configuration: try M.configuration(), ledger: ledger, now: { Date() })
            let server = VerifyReceiptServer(components: components, host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
            try await server.application().test(.live) { client in
                let port = try #require(client.port)
                let lines = try await Self.run(
                    port: port, key: B.key,
                    calls: ["statuses=\(C.lifetime)", "history=\(C.monthly)", "refunds=\(C.yearly)", "history=2000000000000999"],
                    in: directory)
                #expect(lines.count == 4)
                let customer = C.transactions().compactMap { $0["transactionId"]?.stringValue }.sorted()
                let latestMonthly = String((Int64(C.monthly) ?? 0) + 21)
                // The service's clock is the machine's, long after the test data's dates: both subscriptions are over,
                // the yearly one past its grace period but still in billing retry.
                #expect(lines[0]["ok"] as? Bool == true, "\(lines[0])")
                #expect(lines[0]["statuses"] as? [String: Int] == [C.monthly: 2, C.yearly: 3])
                #expect(Set(lines[0]["transactionIds"] as? [String] ?? []) == [latestMonthly, C.yearly])
                #expect(Set(lines[0]["renewalInfo"] as? [String] ?? []) == [C.monthly, C.yearly])
                #expect(lines[1]["ok"] as? Bool == true, "\(lines[1])")
                #expect(lines[1]["transactionIds"] as? [String] == customer)
                #expect(lines[1]["pages"] as? Int == 2)
                #expect(lines[2]["ok"] as? Bool == true, "\(lines[2])")
                #expect(lines[2]["transactionIds"] as? [String] == [C.lifetime])
                #expect(lines[3]["httpStatus"] as? Int == 404)
                #expect(lines[3]["apiError"] as? Int == 4_040_010)
            }
        }
    }
}
