import SharedFixtures
import Foundation
import PropertyBased
import ReceiptKit
import ReceiptKitTesting
import ReceiptTestSupport
import Testing

/// `AppReceipt.verifyReceiptJSON()` writes JSON directly; these tests hold it to the `Codable` form encoded by
/// `JSONEncoder` with sorted keys, byte for byte.
@Suite struct DirectJSONTests {
    static func codable(_ receipt: AppReceipt) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(receipt))
    }

    static func expectSame(_ receipt: AppReceipt, _ comment: Comment? = nil) throws {
        let direct = receipt.verifyReceiptJSON()
        let expected = try Self.codable(receipt)
        #expect(
            direct == expected,
            "\(comment?.rawValue ?? "")\ndirect:  \(String(decoding: direct, as: UTF8.self))\ncodable: \(String(decoding: expected, as: UTF8.self))"
        )
    }

    @Test(.enabled(if: RealReceipts.available, Comment(rawValue: RealReceipts.skipMessage)))
    func everyRealReceiptEncodesAsTheCodableForm() throws {
        let names = RealReceipts.receiptNames
        #expect(names.count > 0)
        for name in names {
            let receipt = try AppReceipt(berEncoded: ReceiptInput.normalized(RealReceipts.bytes(name)))
            try Self.expectSame(receipt, Comment(rawValue: name))
        }
    }

    @Test func escapingIsFoundations() throws {
        let odd = "\u{0}\u{1}\u{8}\t\n\u{B}\u{C}\r\u{1F} \"\\/\u{7F}\u{2028}\u{2029}\u{FEFF}é😀"
        let receipt = AppReceipt(bundleIdentifier: odd, appVersion: "", inAppPurchases: [InAppPurchase(productIdentifier: odd)])
        try Self.expectSame(receipt)
        let text = String(decoding: receipt.verifyReceiptJSON(), as: UTF8.self)
        #expect(text.contains(#""bundle_id":"\u0000\u0001\b\t\n\u000b\f\r\u001f \"\\/\#u{7F}\#u{2028}\#u{2029}\#u{FEFF}é😀""#))
        #expect(String(decoding: AppReceipt().verifyReceiptJSON(), as: UTF8.self) == #"{"in_app":[]}"#)
    }

    /// The date strings against an independent formatter (the direct and `Codable` forms share one renderer, so
    /// comparing them says nothing about the dates themselves): Foundation's `DateFormatter`, Gregorian, for instants
    /// from 1900 to 9999 in UTC and in Los Angeles time; and `String(year)` padding outside four-digit years.
    @Test func datesMatchAnIndependentFormatter() async throws {
        func formatter(_ zone: String) throws -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.calendar = Calendar(identifier: .gregorian)
            let timeZone = try #require(TimeZone(identifier: zone))
            formatter.timeZone = timeZone
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
            return formatter
        }
        let utc = try formatter("UTC")
        let pacific = try formatter("America/Los_Angeles")
        func fields(_ date: Date) throws -> [String: Any] {
            let json = AppReceipt(creationDate: date).verifyReceiptJSON()
            return try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        }
        // Whole seconds: the formatter and the receipt forms both drop milliseconds, but round differently.
        // Most instants where the Pacific rules are computed (1987-2099), the rest across 1900-9999.
        let seconds = zip(Gen.bool(0.75), Gen.int64(in: 536_457_600...4_102_444_799), Gen.int64(in: -2_208_988_800...253_402_300_799))
            .map { ruled, inRules, anywhere in ruled ? inRules : anywhere }
        await propertyCheck(count: 800, input: seconds) { seconds in
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let object = try fields(date)
            #expect(object["receipt_creation_date"] as? String == utc.string(from: date) + " Etc/GMT")
            #expect(object["receipt_creation_date_pst"] as? String == pacific.string(from: date) + " America/Los_Angeles")
            #expect(object["receipt_creation_date_ms"] as? String == String(seconds * 1000))
        }
        // Outside four-digit years the year keeps all its digits (and sign), padded to four characters.
        let year10000 = Date(epochMilliseconds: 253_402_300_800_000)  // 10000-01-01T00:00:00Z
        #expect(try fields(year10000)["receipt_creation_date"] as? String == "10000-01-01 00:00:00 Etc/GMT")
        let yearMinus1 = Date(epochMilliseconds: -62_167_219_200_000 - 86_400_000)  // 0000-01-01 minus a day
        #expect(try fields(yearMinus1)["receipt_creation_date"] as? String == "00-1-12-31 00:00:00 Etc/GMT")
    }

    /// Any scalar, biased towards the ones escaping treats specially: controls, quote, backslash, slash, DEL,
    /// line and paragraph separators, and astral characters.
    static let oddString = zip(Gen<Int>.int(in: 0...3), Gen<UInt32>.value(in: 0...0x10FFFF)).map { region, value -> Unicode.Scalar in
        let specials: [Unicode.Scalar] = ["\"", "\\", "/", "\u{7F}", "\u{2028}", "\u{2029}", "\u{FEFF}", "😀", "\u{0}"]
        switch region {
        case 0: return Unicode.Scalar(UInt8(value % 0x80))
        case 1: return specials[Int(value % UInt32(specials.count))]
        case 2: return Unicode.Scalar(value % 0x800) ?? "é"
        default: return Unicode.Scalar(value) ?? "\u{FFFD}"
        }
    }.array(of: 0...24).map { scalars in
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }

    /// Milliseconds anywhere in `Int64`, or inside the four-digit years receipts can carry.
    static let anyMilliseconds = zip(Gen.bool, Gen.int64(in: Int64.min...Int64.max), Gen.int64(in: -62_135_596_800_000...253_402_300_799_999))
        .map { wide, any, civil in wide ? any : civil }
    static let receiptMilliseconds = Gen.int64(in: -62_135_596_800_000...253_402_300_799_999)

    static func purchase(_ strings: [String], _ numbers: [Int64], _ dates: [Int64?], _ flags: [Bool?]) -> InAppPurchase {
        func string(_ index: Int) -> String? { strings.indices.contains(index) ? strings[index] : nil }
        func number(_ index: Int) -> Int64? { numbers.indices.contains(index) ? numbers[index] : nil }
        func date(_ index: Int) -> Date? { dates.indices.contains(index) ? dates[index].map(Date.init(epochMilliseconds:)) : nil }
        func flag(_ index: Int) -> Bool? { flags.indices.contains(index) ? flags[index] : nil }
        return InAppPurchase(
            quantity: number(0),
            productIdentifier: string(0),
            transactionIdentifier: string(1),
            purchaseDate: date(0),
            originalTransactionIdentifier: string(2),
            originalPurchaseDate: date(1),
            productType: number(1),
            expiresDate: date(2),
            webOrderLineItemIdentifier: number(2),
            cancellationDate: date(3),
            isTrialPeriod: flag(0),
            isInIntroOfferPeriod: flag(1),
            promotionalOfferIdentifier: string(3)
        )
    }

    static func receipt(_ strings: [String], _ numbers: [Int64], _ dates: [Int64?], _ bytes: [[UInt8]], _ purchases: [InAppPurchase]) -> AppReceipt {
        func string(_ index: Int) -> String? { strings.indices.contains(index) ? strings[index] : nil }
        func number(_ index: Int) -> Int64? { numbers.indices.contains(index) ? numbers[index] : nil }
        func date(_ index: Int) -> Date? { dates.indices.contains(index) ? dates[index].map(Date.init(epochMilliseconds:)) : nil }
        return AppReceipt(
            environment: string(0).map(ReceiptEnvironment.init(rawValue:)),
            appItemIdentifier: number(0),
            bundleIdentifier: string(1),
            appVersion: string(2),
            opaqueValue: bytes.first,
            sha1Hash: bytes.dropFirst().first,
            ageRating: string(3),
            creationDate: date(0),
            downloadIdentifier: number(1),
            versionExternalIdentifier: number(2),
            originalPurchaseDate: date(1),
            originalAppVersion: string(4),
            expirationDate: date(2),
            inAppPurchases: purchases
        )
    }

    static let purchases = zip(
        Self.oddString.array(of: 0...4),
        Gen.int64(in: Int64.min...Int64.max).array(of: 0...3),
        Self.receiptMilliseconds.optional().array(of: 0...4),
        Gen.bool.optional().array(of: 0...2)
    ).map { Self.purchase($0, $1, $2, $3) }.array(of: 0...3)

    /// Model values (never minted): every field, any string, any `Int64`, dates across the whole `Int64` range.
    @Test func modelValuesEncodeAsTheCodableForm() async throws {
        let extremePurchases = zip(
            Self.oddString.array(of: 0...4),
            Gen.int64(in: Int64.min...Int64.max).array(of: 0...3),
            Self.anyMilliseconds.optional().array(of: 0...4),
            Gen.bool.optional().array(of: 0...2)
        ).map { Self.purchase($0, $1, $2, $3) }.array(of: 0...3)
        await propertyCheck(
            count: 400,
            input: Self.oddString.array(of: 0...5), Gen.int64(in: Int64.min...Int64.max).array(of: 0...3),
            Self.anyMilliseconds.optional().array(of: 0...3), Gen.uint8(in: 0...255).array(of: 0...40).array(of: 0...2),
            extremePurchases
        ) { strings, numbers, dates, bytes, purchases in
            try Self.expectSame(Self.receipt(strings, numbers, dates, bytes, purchases))
        }
    }

    /// Minted receipts (every attribute, odd strings, dates from year 1 to 9999), decoded — so purchase strings are
    /// written from the receipt's own bytes — then encoded both ways.
    @Test func mintedReceiptsEncodeAsTheCodableForm() async throws {
        let ca = try TestPKI.ca
        await propertyCheck(
            count: 80,
            input: Self.oddString.array(of: 5...5), Gen.int64(in: Int64.min...Int64.max).array(of: 3...3),
            Self.receiptMilliseconds.optional().array(of: 3...3), Gen.uint8(in: 0...255).array(of: 0...40).array(of: 2...2),
            Self.purchases
        ) { strings, numbers, dates, bytes, purchases in
            let spec = Self.receipt(strings, numbers, dates, bytes, purchases)
            let minted = try ReceiptMinter.mint(spec, signer: ca.receiptSigner)
            let decoded = try AppReceipt(berEncoded: minted)
            try Self.expectSame(decoded)
            // And the decoded receipt says what the spec said.
            #expect(decoded.verifyReceiptJSON() == spec.withRawBundleIdentifier().verifyReceiptJSON())
        }
    }
}
