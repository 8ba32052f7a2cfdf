@testable import AppStoreServerAPI
import AppStoreJWS
import Crypto
import AppStorePKI
import Foundation
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The bearer JWT as Apple documents it, checked by decoding it and verifying its ES256 signature with the key's
/// public half; token reuse and renewal on a pinned clock.
struct BearerTokenTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000.75)

    func decode(_ segment: Substring) throws -> [String: JSONValue] {
        let bytes = try #require(Base64URL.decode(Array(segment.utf8)[...]))
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        return try #require(value.objectValue)
    }

    @Test func theTokenCarriesApplesHeaderAndClaimsAndVerifies() throws {
        let key = try TestClients.key("2X9R4HXF34")
        let token = try BearerToken(key: key, bundleIdentifier: "com.example.app", now: Self.now, lifetime: .seconds(1800))
        let parts = token.compact.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        let header = try decode(parts[0])
        #expect(header == ["alg": .string("ES256"), "kid": .string("2X9R4HXF34"), "typ": .string("JWT")])
        let claims = try decode(parts[1])
        #expect(claims["iss"] == .string(key.issuerID))
        #expect(claims["aud"] == .string("appstoreconnect-v1"))
        #expect(claims["bid"] == .string("com.example.app"))
        #expect(claims["iat"] == .number(JSONNumber(1_750_000_000)))
        #expect(claims["exp"] == .number(JSONNumber(1_750_001_800)))
        #expect(claims.count == 5)
        #expect(token.expiresAt - token.issuedAt <= 3600)
        let signature = try P256.Signing.ECDSASignature(
            rawRepresentation: try #require(Base64URL.decode(Array(parts[2].utf8)[...]))
        )
        #expect(key.publicKey.isValidSignature(signature, for: Array("\(parts[0]).\(parts[1])".utf8)))
    }

    @Test func aLifetimeOverSixtyMinutesIsRefused() throws {
        let key = try TestClients.key()
        #expect(throws: AppStoreServerAPIError.self) {
            try BearerToken(key: key, bundleIdentifier: "com.example.app", now: Self.now, lifetime: .seconds(3601))
        }
        let atMost = try BearerToken(key: key, bundleIdentifier: "com.example.app", now: Self.now, lifetime: .seconds(3600))
        #expect(atMost.expiresAt - atMost.issuedAt == 3600)
        let error = #expect(throws: AppStoreServerAPIError.self) {
            try BearerTokenProvider(key: key, bundleIdentifier: "com.example.app", policy: .reused(lifetime: .seconds(300)))
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.reason == "a reused token's lifetime must be over 5 minutes and at most 60")
        let long = #expect(throws: AppStoreServerAPIError.self) {
            try BearerTokenProvider(key: key, bundleIdentifier: "com.example.app", policy: .perRequest(lifetime: .seconds(3601)))
        }
        #expect(long?.reason == "a token's lifetime must be at most 60 minutes")
        let short = #expect(throws: AppStoreServerAPIError.self) {
            try BearerTokenProvider(key: key, bundleIdentifier: "com.example.app", policy: .perRequest(lifetime: .milliseconds(500)))
        }
        #expect(short?.reason == "a token's lifetime must be at least one second")
    }

    /// Issue 48: Apple asks for a new JWT for each request; that is the default, valid 5 minutes as Apple's library.
    @Test func byDefaultEveryRequestGetsANewTokenOfFiveMinutes() throws {
        let provider = try BearerTokenProvider(key: try TestClients.key(), bundleIdentifier: "com.example.app")
        #expect(provider.policy == .perRequest)
        let first = try provider.token(now: Self.now)
        let second = try provider.token(now: Self.now)
        // ES256 signatures are randomised: the same claims sign to another token.
        #expect(first.compact != second.compact)
        #expect(first.issuedAt == 1_750_000_000 && second.issuedAt == 1_750_000_000)
        #expect(first.expiresAt - first.issuedAt == 300)
        #expect(try provider.token(now: Self.now.addingTimeInterval(10)).issuedAt == 1_750_000_010)
    }

    @Test func oneTokenIsReusedUntilFiveMinutesBeforeItExpires() throws {
        let provider = try BearerTokenProvider(
            key: try TestClients.key(),
            bundleIdentifier: "com.example.app",
            policy: .reused(lifetime: .seconds(1800))
        )
        let first = try provider.token(now: Self.now)
        #expect(try provider.token(now: Self.now.addingTimeInterval(60)) == first)
        // 1800 - 300 = 1500 s after iat (1_750_000_000): the last second it is still used…
        #expect(try provider.token(now: Date(timeIntervalSince1970: 1_750_001_499)) == first)
        // …and at 1500 s a new one is signed, then reused in turn.
        let second = try provider.token(now: Date(timeIntervalSince1970: 1_750_001_500))
        #expect(second != first)
        #expect(second.issuedAt == 1_750_001_500)
        #expect(try provider.token(now: Date(timeIntervalSince1970: 1_750_001_600)) == second)
        // A clock that went back before the token's iat gets a new one, never a token from the future.
        let third = try provider.token(now: Date(timeIntervalSince1970: 1_750_000_000))
        #expect(third.issuedAt == 1_750_000_000)
    }

    @Test func concurrentCallersShareOneReusedToken() async throws {
        let provider = try BearerTokenProvider(key: try TestClients.key(), bundleIdentifier: "com.example.app", policy: .reused())
        let tokens = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<32 { group.addTask { try? provider.token(now: Self.now).compact } }
            var all: Set<String?> = []
            for await token in group { all.insert(token) }
            return all
        }
        #expect(tokens.count == 1)
        #expect(tokens.first != nil)
    }

    @Test func aKeyThatIsNotPKCS8PEMIsRefusedWithoutQuotingIt() throws {
        let secret =
            "-----BEGIN PRIVATE KEY-----\nTUlHSEFnRUFNQk1HQnlxR1NNNDlBZ0VHQ0NxR1NNNDlBd0VIQkcwd2F3SUJBUVFn\n-----END PRIVATE KEY-----"
        let error = #expect(throws: AppStoreServerAPIError.self) {
            try AppStoreServerAPIKey(issuerID: "i", keyID: "k", pemRepresentation: secret)
        }
        #expect(error?.code == .invalidPrivateKey)
        #expect(error?.description.contains("TUlH") == false)
        let notPEM = #expect(throws: AppStoreServerAPIError.self) {
            try AppStoreServerAPIKey(issuerID: "i", keyID: "k", pemRepresentation: "not a key")
        }
        #expect(notPEM?.code == .invalidPrivateKey)
        let sec1 = P256.Signing.PrivateKey().derRepresentation
        let ecPEM = "-----BEGIN EC PRIVATE KEY-----\n\(sec1.base64EncodedString())\n-----END EC PRIVATE KEY-----"
        #expect(throws: AppStoreServerAPIError.self) {
            try AppStoreServerAPIKey(issuerID: "i", keyID: "k", pemRepresentation: ecPEM)
        }
    }

    @Test func aP8KeyLoadsAndNeverAppearsInItsDescription() throws {
        let privateKey = P256.Signing.PrivateKey()
        let pem = privateKey.pemRepresentation
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let key = try AppStoreServerAPIKey(issuerID: "issuer", keyID: "KEY123", pemRepresentation: "\n" + pem + "\n")
        #expect(key.publicKey.rawRepresentation == privateKey.publicKey.rawRepresentation)
        let body = pem.split(separator: "\n")[1]
        for text in [key.description, key.debugDescription, String(describing: key), String(reflecting: key), "\(key)"]
        {
            #expect(!text.contains(body))
            #expect(text.contains("KEY123"))
        }
        let emptyID = #expect(throws: AppStoreServerAPIError.self) {
            try AppStoreServerAPIKey(issuerID: "", keyID: "KEY123", pemRepresentation: pem)
        }
        #expect(emptyID?.code == .invalidConfiguration)
    }

    @Test func aP8FileOrALinkToItLoadsAndAMissingOrOversizedFileIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("p8-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let privateKey = P256.Signing.PrivateKey()
        let file = directory.appendingPathComponent("AuthKey_KEY123.p8")
        try Data(privateKey.pemRepresentation.utf8).write(to: file)
        let key = try AppStoreServerAPIKey(issuerID: "issuer", keyID: "KEY123", privateKeyFile: file.path)
        #expect(key.publicKey.rawRepresentation == privateKey.publicKey.rawRepresentation)
        // A link to the file loads too (secrets are often mounted as links).
        let link = directory.appendingPathComponent("current.p8")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        let linked = try AppStoreServerAPIKey(issuerID: "issuer", keyID: "KEY123", privateKeyFile: link.path)
        #expect(linked.publicKey.rawRepresentation == privateKey.publicKey.rawRepresentation)

        let missing = #expect(throws: AppStoreServerAPIError.self) {
            try AppStoreServerAPIKey(
                issuerID: "i",
                keyID: "k",
                privateKeyFile: directory.appendingPathComponent("none.p8").path
            )
        }
        #expect(missing?.code == .invalidPrivateKey)
        let large = directory.appendingPathComponent("large.p8")
        try Data(repeating: 0x41, count: 64 * 1024 + 1).write(to: large)
        let oversized = #expect(throws: AppStoreServerAPIError.self) {
            try AppStoreServerAPIKey(issuerID: "i", keyID: "k", privateKeyFile: large.path)
        }
        #expect(oversized?.code == .invalidPrivateKey)
    }

    /// Reading such a path whole would block for ever (a FIFO with no writer) or never end (`/dev/zero`).
    @Test(.timeLimit(.minutes(1)))
    func aKeyFileThatIsNotARegularFileIsRefusedWithoutReadingIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("p8-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("fifo.p8").path
        try #require(mkfifo(fifo, 0o600) == 0)
        for path in [directory.path, fifo, "/dev/zero"] {
            let error = #expect(throws: AppStoreServerAPIError.self) {
                try AppStoreServerAPIKey(issuerID: "i", keyID: "k", privateKeyFile: path)
            }
            #expect(error?.code == .invalidPrivateKey)
            #expect(error?.reason.hasSuffix("is not a regular file") == true)
        }
    }
}
