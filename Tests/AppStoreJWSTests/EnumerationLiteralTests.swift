import AppStoreJWS
import Foundation
import Testing

/// Apple's enumerations are spelled once, in their types (`Sources/AppStoreJWS/Model/Enumerations`): no source file
/// compares or writes one of their values as a literal. The App Store Server API simulator is exempt — it is an
/// independent reading of Apple's documentation, checked against the client, not built from it — as are doc
/// comments.
@Suite("Apple enumeration literals")
struct EnumerationLiteralTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// Every string spelling of the enumerations, from the types themselves.
    static let spellings: [String] = [
        TransactionType.autoRenewableSubscription, .nonConsumable, .consumable, .nonRenewingSubscription,
    ].map(\.rawValue)
        + [InAppOwnershipType.purchased, .familyShared].map(\.rawValue)
        + [OfferDiscountType.freeTrial, .payAsYouGo, .payUpFront, .oneTime].map(\.rawValue)
        + [TransactionReason.purchase, .renewal].map(\.rawValue)
        + [NotificationType.subscribed, .didRenew, .didFailToRenew, .refund, .test, .expired, .consumptionRequest].map(\.rawValue)
        + [NotificationSubtype.initialBuy, .autoRenewDisabled, .summary, .billingRetry].map(\.rawValue)

    /// An integer enumeration compared as a number: `offerType == 3`.
    static let integerComparison = try? NSRegularExpression(
        pattern: #"\b(offerType|revocationReason|expirationIntent|autoRenewStatus|priceIncreaseStatus)\s*[!=]=\s*[0-9]"#)

    /// `path:line: text` for each literal outside the types.
    static func findings(in root: URL) throws -> [String] {
        var findings: [String] = []
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            let path = file.path
            guard path.hasSuffix(".swift"), !path.contains("/Model/Enumerations/"),
                !path.contains("/AppStoreServerAPISimulator/")
            else { continue }
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() {
                let text = String(line)
                guard !text.trimmingCharacters(in: .whitespaces).hasPrefix("///") else { continue }
                let quoted = Self.spellings.contains { text.contains("\"\($0)\"") }
                let range = NSRange(text.startIndex..., in: text)
                let compared = Self.integerComparison?.firstMatch(in: text, range: range) != nil
                if quoted || compared {
                    findings.append("\(path.replacingOccurrences(of: root.path + "/", with: "")):\(number + 1): \(text)")
                }
            }
        }
        return findings.sorted()
    }

    @Test func noSourceSpellsAnAppleEnumerationOutsideItsType() throws {
        #expect(try Self.findings(in: Self.sources) == [])
    }

    @Test func aLiteralIsFound() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-literals-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("""
            /// "FREE_TRIAL" in a doc comment is prose.
            let free = payload.offerDiscountType == "FREE_TRIAL"
            let code = payload.offerType == 3
            """.utf8).write(to: directory.appendingPathComponent("Sample.swift"))
        #expect(try Self.findings(in: directory) == [
            "Sample.swift:2: let free = payload.offerDiscountType == \"FREE_TRIAL\"",
            "Sample.swift:3: let code = payload.offerType == 3",
        ])
    }

    @Test func aValueAppleAddsLaterKeepsItsRawValue() throws {
        let payload = try JWSTransactionPayload(fields: [
            "type": .string("Future Product"), "offerType": .number(JSONNumber(9)), "inAppOwnershipType": .string("PURCHASED"),
        ])
        #expect(payload.type?.rawValue == "Future Product")
        #expect(payload.offerType?.rawValue == 9)
        #expect(payload.inAppOwnershipType == .purchased)
        #expect(String(decoding: try JSONEncoder().encode(payload.type), as: UTF8.self) == #""Future Product""#)
    }
}
