import Foundation
import ReceiptKit
import ReceiptTestSupport
import Testing

/// Receipt timestamps in, `verifyReceipt` dates out.
struct DateAndJSONTests {
    @Test(arguments: [
        ("2024-02-23T17:03:40Z", Int64(1_708_707_820_000)),
        ("2020-07-22T18:33:15+0100", 1_595_439_195_000),
        ("2020-07-22T18:33:15+01:00", 1_595_439_195_000),
        ("2020-07-22T16:33:15-0100", 1_595_439_195_000),
        ("2023-10-19T01:45:40.123Z", 1_697_679_940_123),
        ("2023-10-19T01:45:40.1239Z", 1_697_679_940_123),
        ("4001-01-01T00:00:00+0000", 64_092_211_200_000),
        ("1970-01-01T00:00:00Z", 0),
        ("1969-12-31T23:59:59Z", -1000),
        ("2016-12-31T23:59:60Z", 1_483_228_800_000),  // leap second: the next minute's first instant
        ("2024-02-29T12:00:00Z", 1_709_208_000_000),
    ])
    func parsesReceiptTimestamps(text: String, milliseconds: Int64) {
        #expect(RFC3339.date(text)?.epochMilliseconds == milliseconds)
    }

    /// Fuzz finding (Fuzz/Regressions/FuzzMintRoundTrip/julian-calendar-year-1013.json): minting wrote years before
    /// 1582 in the Julian calendar (Foundation's ISO 8601 formatter), so they came back six days off.
    @Test(arguments: [
        ("1013-01-10T08:00:00Z", Int64(-30_199_190_400_000)),
        ("1582-10-04T00:00:00Z", -12_220_243_200_000),
        ("0000-03-01T00:00:00Z", -62_162_035_200_000),
        ("9999-12-31T23:59:59.999Z", 253_402_300_799_999),
        ("2024-02-29T12:00:00.250Z", 1_709_208_000_250),
    ])
    func formatsProlepticGregorianDates(text: String, milliseconds: Int64) {
        let date = Date(epochMilliseconds: milliseconds)
        #expect(RFC3339.string(date) == text)
        #expect(RFC3339.date(text)?.epochMilliseconds == milliseconds)
    }

    @Test func yearsOutsideTheFormatHaveNoRFC3339Form() {
        #expect(RFC3339.string(Date(epochMilliseconds: 253_402_300_800_000)) == nil)  // year 10000
        #expect(RFC3339.string(Date(epochMilliseconds: -62_167_219_200_001)) == nil)  // before year 0
    }

    struct Wrapper: Codable { var purchase: InAppPurchase }

    @Test func rendersDatesAsVerifyReceiptDoes() throws {
        // Summer (PDT, UTC-7) and winter (PST, UTC-8).
        let purchase = InAppPurchase(
            purchaseDate: RFC3339.date("2020-07-22T17:39:08Z"),
            expiresDate: RFC3339.date("2020-12-22T17:39:08Z")
        )
        let json = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(purchase)) as? [String: String]
        )
        #expect(json["purchase_date"] == "2020-07-22 17:39:08 Etc/GMT")
        #expect(json["purchase_date_ms"] == "1595439548000")
        #expect(json["purchase_date_pst"] == "2020-07-22 10:39:08 America/Los_Angeles")
        #expect(json["expires_date_pst"] == "2020-12-22 09:39:08 America/Los_Angeles")
        #expect(json["cancellation_date"] == nil)
        #expect(json.count == 6)
    }

    @Test func jsonRoundTripsTheModel() throws {
        let receipt = AppReceipt(
            environment: .productionSandbox,
            appItemIdentifier: 0,
            bundleIdentifier: "com.example.app",
            appVersion: "3",
            opaqueValue: [1, 2, 3],
            sha1Hash: [4, 5, 6],
            creationDate: RFC3339.date("2024-01-01T00:00:00.250Z"),
            downloadIdentifier: 0,
            inAppPurchases: [InAppPurchase(quantity: 2, productIdentifier: "p", isTrialPeriod: true)]
        )
        let decoded = try JSONDecoder().decode(AppReceipt.self, from: JSONEncoder().encode(receipt))
        var expected = receipt
        expected.bundleIdentifierData = [0x0C, 15] + Array("com.example.app".utf8)
        #expect(decoded == expected)
    }

    @Test func decodesApplesOwnJSONForms() throws {
        let json = """
            {"receipt_type":"Production","adam_id":12,"bundle_id":"x","in_app":[{"quantity":"1",
            "purchase_date":"2020-07-22 17:39:08 Etc/GMT","is_trial_period":"false","web_order_line_item_id":"7"}]}
            """
        let receipt = try JSONDecoder().decode(AppReceipt.self, from: Data(json.utf8))
        #expect(receipt.appItemIdentifier == 12)
        #expect(receipt.inAppPurchases.first?.purchaseDate?.epochMilliseconds == 1_595_439_548_000)
        #expect(receipt.inAppPurchases.first?.isTrialPeriod == false)
        #expect(receipt.inAppPurchases.first?.webOrderLineItemIdentifier == 7)
    }

    @Test func environmentKeepsUnknownValues() {
        #expect(ReceiptEnvironment(rawValue: "ProductionVPPSandbox") == .productionVPPSandbox)
        #expect(ReceiptEnvironment(rawValue: "Future").isKnown == false)
        #expect(ReceiptEnvironment.xcode.isKnown)
    }

    @Test(arguments: [
        ("956328D9-CC6A-47F4-BE40-6953FB0AB6C7", "956328d9cc6a47f4be406953fb0ab6c7"),
        ("aa:bb:cc:dd:ee:ff", "aabbccddeeff"),
        ("AA-BB-CC-DD-EE-FF", "aabbccddeeff"),
        ("hex:0102", "0102"),
        ("base64:AQI=", "0102"),
    ])
    func parsesDeviceIdentifiers(text: String, hex: String) throws {
        #expect(try DeviceIdentifier(parsing: text).description == hex)
    }

    @Test(arguments: ["", "aa:bb:cc", "hex:xyz", "hex:abc", "base64:!!", "base64:====", "base64:AQ=I", "zz:bb:cc:dd:ee:ff"])
    func rejectsMalformedDeviceIdentifiers(text: String) {
        expectReceiptError(.invalidDeviceIdentifier) { _ = try DeviceIdentifier(parsing: text) }
    }
}
