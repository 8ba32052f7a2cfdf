import AppStoreJWS
@testable import AppStoreServerAPI
import Crypto
import Foundation
import ReceiptKitTesting
import SharedFixtures
import Testing

/// Issue 48: the signatures an app's server makes for StoreKit, each checked by an implementation that is not ours —
/// OpenSSL for the promotional offer V1, PyJWT and Apple's own Python library for the JWS forms — and V1's signed
/// text against Apple's example (the values of Apple's library's own test).
struct SignatureTests {
    static let now = Date(timeIntervalSince1970: 1_698_148_900)
    static let nonce = UUID(uuid: (0x20, 0xfb, 0xa8, 0xa0, 0x2b, 0x80, 0x4a, 0x7d, 0xa1, 0x7f, 0x85, 0xc1, 0x85, 0x47, 0x27, 0xf8))
    let privateKey = P256.Signing.PrivateKey()

    func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-sign-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func promotionalOfferV1SignsApplesTextAndOpenSSLVerifiesIt() async throws {
        let signer = try PromotionalOfferSigner(
            keyID: "keyId", pemRepresentation: self.privateKey.pemRepresentation, bundleIdentifier: "bundleId")
        let text = signer.signedText(
            productIdentifier: "productId", offerIdentifier: "offerId", appAccountToken: "appAccountToken",
            nonce: Self.nonce, timestamp: 1_698_148_900_000)
        #expect(
            text == "bundleId\u{2063}keyId\u{2063}productId\u{2063}offerId\u{2063}appaccounttoken\u{2063}"
                + "20fba8a0-2b80-4a7d-a17f-85c1854727f8\u{2063}1698148900000")
        let signature = try signer.signature(
            productIdentifier: "productId", offerIdentifier: "offerId", appAccountToken: "appAccountToken",
            nonce: Self.nonce, timestamp: 1_698_148_900_000)

        let directory = try self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("public.pem")
        try Data(self.privateKey.publicKey.pemRepresentation.utf8).write(to: key)
        let der = directory.appendingPathComponent("signature.der")
        let derBytes = try #require(Data(base64Encoded: signature))
        try derBytes.write(to: der)
        func verify(_ signed: String) async throws -> ChildProcess.Output {
            let file = directory.appendingPathComponent("text-\(UUID())")
            try Data(signed.utf8).write(to: file)
            return try await ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["openssl", "dgst", "-sha256", "-verify", key.path, "-signature", der.path, file.path])
        }
        let good = try await verify(text)
        #expect(good.status == 0 && good.text.contains("Verified OK"), "\(good.text)")
        // Another nonce case is another text: the check can fail.
        let other = try await verify(text.replacingOccurrences(of: "20fba8a0", with: "20FBA8A0"))
        #expect(other.status != 0)
    }

    @Test func emptyFieldsAreRefused() throws {
        let error = #expect(throws: AppStoreServerAPIError.self) {
            try PromotionalOfferSigner(keyID: "", privateKey: self.privateKey, bundleIdentifier: "b")
        }
        #expect(error?.code == .invalidConfiguration)
        let signer = try PromotionalOfferSigner(keyID: "k", privateKey: self.privateKey, bundleIdentifier: "b")
        let empty = #expect(throws: AppStoreServerAPIError.self) {
            try signer.signature(productIdentifier: "", offerIdentifier: "o", appAccountToken: "", nonce: Self.nonce, timestamp: 1)
        }
        #expect(empty?.reason == "the product id and the offer id must not be empty")
        let notPEM = #expect(throws: AppStoreServerAPIError.self) {
            try PromotionalOfferSigner(keyID: "k", pemRepresentation: "secret", bundleIdentifier: "b")
        }
        #expect(notPEM?.code == .invalidPrivateKey)
        #expect(notPEM?.reason.contains("secret") == false)

        let jws = try StoreKitRequestSigner(
            key: AppStoreServerAPIKey(issuerID: "i", keyID: "k", privateKey: self.privateKey), bundleIdentifier: "b")
        for request in ["[1]", "not json", String(repeating: " ", count: StoreKitRequestSigner.maximumRequestSize) + "{}"] {
            let refused = #expect(throws: AppStoreServerAPIError.self) {
                try jws.advancedCommerceInAppRequest(Array(request.utf8), nonce: Self.nonce, now: Self.now)
            }
            #expect(refused?.code == .invalidConfiguration)
        }
    }

    @Test(
        "promotional offer V2, introductory offer eligibility and Advanced Commerce: PyJWT verifies ours, whose header and claims are those of Apple's library's",
        .enabled(
            if: AppleLibrary.isInstalled || AppleLibrary.isRequired,
            "app-store-server-library is not installed (pip install app-store-server-library); .ci/run installs it"))
    func jwsFormsMatchApplesLibrary() async throws {
        let key = try AppStoreServerAPIKey(issuerID: "issuerId", keyID: "keyId", privateKey: self.privateKey)
        let signer = try StoreKitRequestSigner(key: key, bundleIdentifier: "bundleId")
        let request = #"{"operation":"CREATE_SUBSCRIPTION","version":"1","requestInfo":{"requestReferenceId":"r1"}}"#
        let items: [[String: Any]] = [
            [
                "kind": "promotional-offer", "productId": "productId", "offerIdentifier": "offerIdentifier",
                "transactionId": "transactionId",
                "token": try signer.promotionalOffer(
                    productIdentifier: "productId", offerIdentifier: "offerIdentifier",
                    transactionIdentifier: "transactionId", nonce: Self.nonce, now: Self.now),
            ],
            [
                "kind": "promotional-offer", "productId": "productId", "offerIdentifier": "offerIdentifier",
                "transactionId": NSNull(),
                "token": try signer.promotionalOffer(
                    productIdentifier: "productId", offerIdentifier: "offerIdentifier", nonce: Self.nonce, now: Self.now),
            ],
            [
                "kind": "introductory-offer-eligibility", "productId": "productId", "allowIntroductoryOffer": false,
                "transactionId": "transactionId",
                "token": try signer.introductoryOfferEligibility(
                    productIdentifier: "productId", allowsIntroductoryOffer: false, transactionIdentifier: "transactionId",
                    nonce: Self.nonce, now: Self.now),
            ],
            [
                "kind": "advanced-commerce-api",
                "token": try signer.advancedCommerceInAppRequest(Array(request.utf8), nonce: Self.nonce, now: Self.now),
            ],
            // Signed by another key: PyJWT must refuse it.
            [
                "kind": "promotional-offer",
                "token": try StoreKitRequestSigner(
                    key: AppStoreServerAPIKey(issuerID: "issuerId", keyID: "keyId", privateKey: P256.Signing.PrivateKey()),
                    bundleIdentifier: "bundleId"
                ).promotionalOffer(productIdentifier: "p", offerIdentifier: "o", nonce: Self.nonce, now: Self.now),
            ],
        ]
        let spec: [String: Any] = [
            "key": self.privateKey.pemRepresentation, "keyId": "keyId", "issuerId": "issuerId", "bundleId": "bundleId",
            "items": items,
        ]
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scripts/apple-sign.py")
        let output = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path],
            input: try JSONSerialization.data(withJSONObject: spec))
        try #require(output.status == 0, "\(output.text)")
        let lines = try output.text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        try #require(lines.count == 5, "\(output.text)")
        for line in lines.prefix(3) {
            let ours = try #require(line["ours"] as? [String: Any], "\(line)")
            let apple = try #require(line["apple"] as? [String: Any], "\(line)")
            #expect(ours["header"] as? NSDictionary == apple["header"] as? NSDictionary)
            #expect(ours["header"] as? NSDictionary == ["alg": "ES256", "kid": "keyId", "typ": "JWT"] as NSDictionary)
            var claims = try #require(ours["claims"] as? [String: Any])
            var theirs = try #require(apple["claims"] as? [String: Any])
            #expect(claims.removeValue(forKey: "iat") as? Int == 1_698_148_900)
            #expect(claims.removeValue(forKey: "nonce") as? String == "20fba8a0-2b80-4a7d-a17f-85c1854727f8")
            #expect(theirs.removeValue(forKey: "iat") is Int)
            #expect(theirs.removeValue(forKey: "nonce") is String)
            #expect(claims as NSDictionary == theirs as NSDictionary, "\(line)")
        }
        let commerce = try #require((lines[3]["ours"] as? [String: Any])?["claims"] as? [String: Any], "\(lines[3])")
        #expect(commerce["aud"] as? String == "advanced-commerce-api")
        #expect(commerce["bid"] as? String == "bundleId")
        #expect((commerce["request"] as? String).flatMap { Data(base64Encoded: $0) } == Data(request.utf8))
        #expect((lines[4]["error"] as? String)?.hasPrefix("InvalidSignatureError") == true, "\(lines[4])")
    }
}
