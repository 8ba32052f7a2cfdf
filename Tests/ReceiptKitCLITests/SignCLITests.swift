import AppStoreJWS
import Crypto
import Foundation
import Testing

/// `receiptkit sign` (issue 48): the built binary signs with a `.p8` written here; V1's line verifies with OpenSSL,
/// the JWS forms carry the claims asked for under the key's id, and failures end with the documented statuses.
struct SignCLITests {
    static let directory = CLITests.scratch.appendingPathComponent("sign")
    static let key = P256.Signing.PrivateKey()
    static let keyFile: Result<String, any Error> = Result {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("AuthKey_SIGNKEY001.p8")
        try Data(key.pemRepresentation.utf8).write(to: file)
        return file.path
    }

    static func common(_ file: String? = nil) throws -> [String] {
        ["--key-id", "SIGNKEY001", "--private-key", try file ?? Self.keyFile.get(), "--bundle-id", "com.example.app"]
    }

    /// The JSON object of a JWS part (header or claims).
    static func part(_ jws: String, _ index: Int) throws -> [String: Any] {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        var text = String(parts[index]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        let data = try #require(Data(base64Encoded: text))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func promotionalOfferPrintsOneLineOpenSSLVerifies() async throws {
        let output = try await CLIRunner.run(["sign", "promotional-offer"] + Self.common() + [
            "--product-id", "com.example.app.pro", "--offer-id", "WINBACK", "--app-account-token",
            "7E3FB20B-4CDB-47CC-936D-99D65F608138", "--nonce", "20FBA8A0-2B80-4A7D-A17F-85C1854727F8",
            "--timestamp", "1698148900000",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n")
        try #require(lines.count == 1)
        let signed = "com.example.app\u{2063}SIGNKEY001\u{2063}com.example.app.pro\u{2063}WINBACK\u{2063}"
            + "7e3fb20b-4cdb-47cc-936d-99d65f608138\u{2063}20fba8a0-2b80-4a7d-a17f-85c1854727f8\u{2063}1698148900000"
        let text = Self.directory.appendingPathComponent("signed-\(UUID())")
        try Data(signed.utf8).write(to: text)
        let der = Self.directory.appendingPathComponent("signature-\(UUID()).der")
        let derBytes = try #require(Data(base64Encoded: String(lines[0])))
        try derBytes.write(to: der)
        let publicKey = Self.directory.appendingPathComponent("public-\(UUID()).pem")
        try Data(Self.key.publicKey.pemRepresentation.utf8).write(to: publicKey)
        let verified = try await CLIRunner.run(
            ["openssl", "dgst", "-sha256", "-verify", publicKey.path, "-signature", der.path, text.path],
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(verified.status == 0 && verified.stdout.contains("Verified OK"), "\(verified.stdout)\(verified.stderr)")
    }

    @Test func jwsFormsCarryTheirClaims() async throws {
        let jws = ["--issuer-id", "57246542-96fe-1a63-e053-0824d011072a"]
        let offer = try await CLIRunner.run(["sign", "promotional-offer-v2"] + Self.common() + jws + [
            "--product-id", "p", "--offer-id", "o", "--transaction-id", "2000000000000001",
            "--nonce", "20fba8a0-2b80-4a7d-a17f-85c1854727f8", "--json",
        ])
        #expect(offer.status == 0, "\(offer.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(offer.stdout.utf8)) as? [String: Any])
        let signature = try #require(object["signature"] as? String)
        #expect(try Self.part(signature, 0) as NSDictionary == ["alg": "ES256", "kid": "SIGNKEY001", "typ": "JWT"] as NSDictionary)
        let claims = try Self.part(signature, 1)
        #expect(claims["aud"] as? String == "promotional-offer")
        #expect(claims["iss"] as? String == "57246542-96fe-1a63-e053-0824d011072a")
        #expect(claims["bid"] as? String == "com.example.app")
        #expect(claims["nonce"] as? String == "20fba8a0-2b80-4a7d-a17f-85c1854727f8")
        #expect(claims["transactionId"] as? String == "2000000000000001")
        #expect(claims["exp"] == nil)
        // The signature is the key's: r‖s over the first two parts.
        let parts = signature.split(separator: ".")
        var raw = String(parts[2]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while raw.count % 4 != 0 { raw += "=" }
        let rawBytes = try #require(Data(base64Encoded: raw))
        let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: rawBytes)
        #expect(Self.key.publicKey.isValidSignature(ecdsa, for: Data("\(parts[0]).\(parts[1])".utf8)))

        let intro = try await CLIRunner.run(["sign", "intro-eligibility"] + Self.common() + jws + [
            "--product-id", "p", "--allow-intro-offer", "false", "--transaction-id", "2000000000000001",
        ])
        #expect(intro.status == 0, "\(intro.stderr)")
        let introClaims = try Self.part(intro.stdout.trimmingCharacters(in: .newlines), 1)
        #expect(introClaims["aud"] as? String == "introductory-offer-eligibility")
        #expect(introClaims["allowIntroductoryOffer"] as? Bool == false)

        let request = Self.directory.appendingPathComponent("request-\(UUID()).json")
        let body = #"{"operation":"CREATE_SUBSCRIPTION","version":"1"}"#
        try Data(body.utf8).write(to: request)
        let commerce = try await CLIRunner.run(["sign", "advanced-commerce"] + Self.common() + jws + ["--request", request.path])
        #expect(commerce.status == 0, "\(commerce.stderr)")
        let commerceClaims = try Self.part(commerce.stdout.trimmingCharacters(in: .newlines), 1)
        #expect(commerceClaims["aud"] as? String == "advanced-commerce-api")
        #expect((commerceClaims["request"] as? String).flatMap { Data(base64Encoded: $0) } == Data(body.utf8))
    }

    @Test func failuresEndWithTheirStatus() async throws {
        let base = ["sign", "promotional-offer", "--product-id", "p", "--offer-id", "o", "--nonce",
                    "20fba8a0-2b80-4a7d-a17f-85c1854727f8", "--timestamp", "1"]
        let missing = try await CLIRunner.run(base + Self.common(Self.directory.appendingPathComponent("none.p8").path))
        #expect(missing.status == 66, "\(missing.stderr)")
        let garbage = Self.directory.appendingPathComponent("garbage-\(UUID()).p8")
        try Data("-----BEGIN PRIVATE KEY-----\nc2VjcmV0\n-----END PRIVATE KEY-----\n".utf8).write(to: garbage)
        let malformed = try await CLIRunner.run(base + Self.common(garbage.path))
        #expect(malformed.status == 65, "\(malformed.stderr)")
        #expect(!malformed.stderr.contains("c2VjcmV0"))
        let usage = try await CLIRunner.run(
            ["sign", "promotional-offer", "--product-id", "p", "--offer-id", "o", "--nonce", "not-a-uuid", "--timestamp", "1"]
                + Self.common())
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("--nonce must be a UUID"))
        let intro = try await CLIRunner.run(
            ["sign", "intro-eligibility", "--issuer-id", "i", "--product-id", "p", "--allow-intro-offer", "maybe",
             "--transaction-id", "1"] + Self.common())
        #expect(intro.status == 64)
        #expect(intro.stderr.contains("--allow-intro-offer takes true or false, not 'maybe'"))
        let notObject = Self.directory.appendingPathComponent("array-\(UUID()).json")
        try Data("[1]".utf8).write(to: notObject)
        let commerce = try await CLIRunner.run(
            ["sign", "advanced-commerce", "--issuer-id", "i", "--request", notObject.path] + Self.common())
        #expect(commerce.status == 65)
        #expect(commerce.stderr.contains("not a JSON object"))
    }
}
