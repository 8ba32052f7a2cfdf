import AppStorePKI
import SharedFixtures
import Foundation
import ReceiptKit
import ReceiptTestSupport
import Testing
import X509

/// Every real receipt decodes to exactly the values of `expected.json` and gets its trust verdict.
@Suite(.enabled(if: RealReceipts.available, Comment(rawValue: RealReceipts.skipMessage)))
struct RealReceiptTests {
    static func hex(_ bytes: [UInt8]?) -> String? {
        bytes.map { $0.map { String(format: "%02x", $0) }.joined() }
    }

    @Test(arguments: RealReceipts.receiptNames)
    func decodesToExpectedValues(name: String) throws {
        let expected = try #require(RealReceipts.expected[name]?["decoded"] as? [String: Any])
        let receipt = try AppReceipt(berEncoded: RealReceipts.bytes(name))
        let json = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(receipt)) as? [String: Any]
        )
        for (key, value) in expected {
            switch key {
            case "opaque_value_hex":
                #expect(Self.hex(receipt.opaqueValue) == value as? String, "\(name) \(key)")
            case "sha1_hash_hex":
                #expect(Self.hex(receipt.sha1Hash) == value as? String, "\(name) \(key)")
            case "in_app":
                let purchases = try #require(value as? [[String: Any]])
                let ours = try #require(json["in_app"] as? [[String: Any]])
                #expect(ours.count == purchases.count, "\(name) purchase count")
                for (index, (mine, theirs)) in zip(ours, purchases).enumerated() {
                    for (purchaseKey, purchaseValue) in theirs {
                        #expect(
                            Self.same(mine[purchaseKey], purchaseValue),
                            "\(name) in_app[\(index)].\(purchaseKey): \(String(describing: mine[purchaseKey])) != \(purchaseValue)"
                        )
                    }
                }
            default:
                #expect(Self.same(json[key], value), "\(name) \(key): \(String(describing: json[key])) != \(value)")
            }
        }
    }

    static func same(_ lhs: Any?, _ rhs: Any) -> Bool {
        switch (lhs, rhs) {
        case (let l as String, let r as String): return l == r
        case (let l as NSNumber, let r as NSNumber): return l == r
        default: return false
        }
    }

    @Test(arguments: RealReceipts.receiptNames)
    func getsExpectedTrustVerdicts(name: String) async throws {
        let entry = try #require(RealReceipts.expected[name])
        let bytes = try RealReceipts.bytes(name)
        let byApple = try #require(entry["trusted_by_apple_root_at_creation"] as? Bool)
        let byStoreKit = try #require(entry["trusted_by_storekit_cert_at_creation"] as? Bool)

        let appleOnly = try await ReceiptValidator(cache: AppStoreTrustCache()).validate(bytes)
        #expect(appleOnly.isValid == byApple, "\(name): \(appleOnly.failures)")
        if byStoreKit {
            // Xcode receipts are refused without opt-in, with exactly that reason.
            #expect(appleOnly.failures == [.xcodeReceiptNotAllowed])
        }

        let storeKit = try AppStoreTrustAnchors.certificates(
            fromDEROrPEM: RealReceipts.bytes("StoreKitTestCertificate.cer")
        )
        let anchored = try await ReceiptValidator(
            policy: ReceiptValidationPolicy(anchors: AppStoreTrustAnchors(storeKit, trustsAppleRoot: false)),
            cache: AppStoreTrustCache()
        ).validate(bytes)
        #expect(anchored.isValid == byStoreKit, "\(name): \(anchored.failures)")

        let optedIn = try await ReceiptValidator(
            policy: ReceiptValidationPolicy(allowsXcodeReceipts: true),
            cache: AppStoreTrustCache()
        ).validate(bytes)
        #expect(optedIn.isValid == (byApple || byStoreKit), "\(name): \(optedIn.failures)")
    }

    @Test(arguments: RealReceipts.receiptNames)
    func deviceCasesMatchAsListed(name: String) async throws {
        let cases = RealReceipts.expected[name]?["device_cases"] as? [[String: Any]] ?? []
        let bytes = try RealReceipts.bytes(name)
        for deviceCase in cases {
            let id = try #require(deviceCase["device_id"] as? String)
            let matches = try #require(deviceCase["hash_matches"] as? Bool)
            let result = try await ReceiptValidator(
                policy: ReceiptValidationPolicy(device: try DeviceIdentifier(parsing: id)),
                cache: AppStoreTrustCache()
            ).validate(bytes)
            #expect(result.failures == (matches ? [] : [.deviceHashMismatch]), "\(name) \(id)")
        }
    }

    @Test(arguments: RealReceipts.receiptNames)
    func appleReceiptsAreExpiredAtPresentTime(name: String) async throws {
        // Pinned clock: 2026-11-21. Every leaf here has expired; validating "now" must say so, not "untrusted".
        let now = Date(timeIntervalSince1970: 1_795_305_600)
        let byApple = try #require(RealReceipts.expected[name]?["trusted_by_apple_root_at_creation"] as? Bool)
        guard byApple else { return }
        let result = try await ReceiptValidator(
            policy: ReceiptValidationPolicy(trustEvaluationTime: .now),
            cache: AppStoreTrustCache()
        ).validate(RealReceipts.bytes(name), now: now)
        #expect(result.failures == [.certificateExpired], "\(name)")
    }

    @Test(arguments: RealReceipts.receiptNames)
    func everyPrefixIsMalformed(name: String) throws {
        let bytes = try RealReceipts.bytes(name)
        for length in 0..<bytes.count {
            expectReceiptError(.malformedContainer, "\(name) prefix \(length)") {
                _ = try AppReceipt(berEncoded: bytes[..<length])
            }
        }
    }
}
