import AppStoreJWS
import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import LedgerTestSupport
import NIOCore
@testable import ReceiptService
import Testing

/// `POST /v1/sign/{kind}` (issue 48): the configured app's key signs for StoreKit behind the admin token; every
/// refusal has its exact code, and nothing is signed for a request without the token.
@Suite("Signing endpoints")
struct SignEndpointTests {
    typealias B = APIBridgeTests
    typealias E = EntitlementsTests
    typealias H = ServiceHarness
    typealias N = NotificationServiceTests

    /// POSTs `members` to `/v1/sign/kind` with `token`: the status, the body as an object, the headers.
    static func post(
        _ client: any TestClientProtocol, _ kind: String, _ body: String, token: String? = E.tokens[1]
    ) async throws -> (status: Int, object: [String: Any], headers: HTTPFields) {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer " + token }
        return try await client.execute(
            uri: "/v1/sign/" + kind, method: .post, headers: headers, body: ByteBuffer(string: body)
        ) { response in
            let object = (try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))) as? [String: Any]
            return (Int(response.status.code), object ?? [:], response.headers)
        }
    }

    static func claims(_ jws: String) throws -> [String: Any] {
        let parts = jws.split(separator: ".")
        try #require(parts.count == 3)
        var text = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        let data = try #require(Data(base64Encoded: text))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("each kind signs with the app's key: V1 verifies with its public half, the JWS forms carry their claims")
    func everyKindSigns() async throws {
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(try E.configuration(), ledger: ledger) { client, _ in
                let bundle = N.bundle
                let v1 = try await Self.post(client, "promotional-offer", #"""
                    {"bundle_id":"\#(bundle)","product_id":"com.example.app.monthly","offer_id":"WINBACK","app_account_token":"",
                     "nonce":"20FBA8A0-2B80-4A7D-A17F-85C1854727F8","timestamp":1698148900000}
                    """#)
                #expect(v1.status == 200, "\(v1.object)")
                #expect(v1.headers[.cacheControl] == "no-store")
                #expect(v1.object["nonce"] as? String == "20fba8a0-2b80-4a7d-a17f-85c1854727f8")
                #expect(v1.object["timestamp"] as? Int == 1_698_148_900_000)
                let der = try #require((v1.object["signature"] as? String).flatMap { Data(base64Encoded: $0) })
                let text = "\(bundle)\u{2063}\(B.keyID)\u{2063}com.example.app.monthly\u{2063}WINBACK\u{2063}\u{2063}"
                    + "20fba8a0-2b80-4a7d-a17f-85c1854727f8\u{2063}1698148900000"
                let signature = try P256.Signing.ECDSASignature(derRepresentation: der)
                #expect(B.key.publicKey.isValidSignature(signature, for: SHA256.hash(data: Data(text.utf8))))

                let v2 = try await Self.post(client, "promotional-offer-v2", #"""
                    {"bundle_id":"\#(bundle)","product_id":"p","offer_id":"o","transaction_id":"2000000000000001"}
                    """#)
                #expect(v2.status == 200, "\(v2.object)")
                let v2Signature = try #require(v2.object["signature"] as? String)
                let v2Claims = try Self.claims(v2Signature)
                #expect(v2Claims["aud"] as? String == "promotional-offer")
                #expect(v2Claims["iss"] as? String == B.issuer)
                #expect(v2Claims["iat"] as? Int == Int(ServiceTestPKI.now.timeIntervalSince1970))
                #expect(v2Claims["nonce"] as? String == v2.object["nonce"] as? String)

                let intro = try await Self.post(client, "intro-eligibility", #"""
                    {"bundle_id":"\#(bundle)","product_id":"p","allow_intro_offer":true,"transaction_id":"1"}
                    """#)
                let introSignature = try #require(intro.object["signature"] as? String)
                #expect(try Self.claims(introSignature)["allowIntroductoryOffer"] as? Bool == true)

                let commerce = try await Self.post(client, "advanced-commerce", #"""
                    {"bundle_id":"\#(bundle)","request":{"operation":"CREATE_SUBSCRIPTION","version":"1"}}
                    """#)
                let commerceSignature = try #require(commerce.object["signature"] as? String)
                let request = try #require(try Self.claims(commerceSignature)["request"] as? String)
                let decoded = try #require(Data(base64Encoded: request))
                #expect(try JSONSerialization.jsonObject(with: decoded) as? NSDictionary
                    == ["operation": "CREATE_SUBSCRIPTION", "version": "1"] as NSDictionary)
            }
        }
    }

    @Test("refusals: no token 401 admin_token_refused; bodies and members 400 with their code; an app without a key 404")
    func refusals() async throws {
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(try E.configuration(), ledger: ledger) { client, _ in
                let bundle = N.bundle
                let good = #"{"bundle_id":"\#(bundle)","product_id":"p","offer_id":"o"}"#
                for token in [nil, "wrong-token"] {
                    let refused = try await Self.post(client, "promotional-offer-v2", good, token: token)
                    #expect(refused.status == 401)
                    #expect(refused.headers[.wwwAuthenticate] == "Bearer")
                    #expect(refused.object["reasons"] as? [String] == ["admin_token_refused"])
                    #expect(refused.object["signature"] == nil)
                }
                let cases: [(String, String, Int, String)] = [
                    ("promotional-offer-v2", "[1]", 400, "malformed_body"),
                    ("promotional-offer-v2", #"{"bundle_id":"\#(bundle)","product_id":"p","offer_id":"o","x":1}"#, 400, "unknown_parameter"),
                    ("promotional-offer-v2", #"{"bundle_id":"\#(bundle)","product_id":"p"}"#, 400, "missing_parameter"),
                    ("promotional-offer-v2", #"{"bundle_id":"\#(bundle)","product_id":"","offer_id":"o"}"#, 400, "invalid_parameter"),
                    ("promotional-offer-v2", #"{"bundle_id":"\#(bundle)","product_id":"p","offer_id":"o","nonce":"x"}"#, 400, "invalid_parameter"),
                    ("promotional-offer", #"{"bundle_id":"\#(bundle)","product_id":"p","offer_id":"o","app_account_token":1}"#, 400, "invalid_parameter"),
                    ("promotional-offer", #"{"bundle_id":"\#(bundle)","product_id":"p","offer_id":"o","app_account_token":"\#(String(repeating: "a", count: 257))"}"#, 400, "invalid_parameter"),
                    ("intro-eligibility", #"{"bundle_id":"\#(bundle)","product_id":"p","allow_intro_offer":true}"#, 400, "missing_parameter"),
                    ("promotional-offer", #"{"bundle_id":1,"product_id":"p","offer_id":"o"}"#, 400, "invalid_parameter"),
                    ("promotional-offer", #"{"bundle_id":"\#(bundle)","product_id":"p","offer_id":"o","timestamp":1.5}"#, 400, "invalid_parameter"),
                    ("promotional-offer", #"{"bundle_id":"\#(bundle)","product_id":"p","offer_id":"o","timestamp":-1}"#, 400, "invalid_parameter"),
                    ("intro-eligibility", #"{"bundle_id":"\#(bundle)","product_id":"p","allow_intro_offer":"yes","transaction_id":"1"}"#, 400, "invalid_parameter"),
                    ("advanced-commerce", #"{"bundle_id":"\#(bundle)","request":[1]}"#, 400, "invalid_parameter"),
                    ("promotional-offer-v2", #"{"bundle_id":"com.other.app","product_id":"p","offer_id":"o"}"#, 404, "app_key_not_configured"),
                ]
                for (kind, body, status, code) in cases {
                    let answer = try await Self.post(client, kind, body)
                    #expect(answer.status == status, "\(kind) \(body)")
                    #expect(answer.object["reasons"] as? [String] == [code], "\(kind) \(body): \(answer.object)")
                }
            }
        }
    }

    @Test("without an admin token the signing paths are not served")
    func notServedWithoutAdminTokens() async throws {
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(try B.configuration(baseURL: "http://127.0.0.1:9"), ledger: ledger) { client, _ in
                let answer = try await Self.post(client, "promotional-offer-v2", "{}")
                #expect(answer.status == 404)
            }
        }
    }
}
