import AppStoreJWS
import Foundation
import ReceiptKitTesting
import Testing

/// Malformed input throws the exact `JWSError` code; well-formed payloads keep every field as signed.
struct JWSDecodingTests {
    static func segment(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func jws(header: String = #"{"alg":"ES256"}"#, payload: String, signature: String = "AAAA") -> String {
        "\(Self.segment(header)).\(Self.segment(payload)).\(signature)"
    }

    func code(_ text: String, configuration: JWSDecodingConfiguration = .default) -> JWSError.Code? {
        do {
            _ = try CompactJWS(Array(text.utf8), configuration: configuration)
            return nil
        } catch {
            return error.code
        }
    }

    func payloadCode(_ payload: String) -> JWSError.Code? {
        do {
            let compact = try CompactJWS(Array(Self.jws(payload: payload).utf8))
            _ = try JWSTransactionPayload(fields: compact.payload)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func theCompactFormIsThreeCanonicalBase64URLParts() {
        #expect(code(Self.jws(payload: "{}")) == nil)
        #expect(code("a.b") == .malformedJWS)
        #expect(code("a.b.c.d") == .malformedJWS)
        #expect(code(Self.jws(payload: "{}") + "=") == .malformedJWS)
        #expect(code(Self.jws(payload: "{}", signature: "AA+A")) == .malformedJWS)
        // "AB" leaves non-zero unused bits: a second spelling of the same byte.
        #expect(code(Self.jws(payload: "{}", signature: "AB")) == .malformedJWS)
        #expect(code(Self.jws(payload: "{}", signature: "A")) == .malformedJWS)
        #expect(code(Self.jws(payload: "{}") + "\n") == nil)
    }

    func payloadOnlyCode(_ text: String, configuration: JWSDecodingConfiguration = .default) -> JWSError.Code? {
        do {
            _ = try CompactJWS.payload(of: Array(text.utf8), configuration: configuration)
            return nil
        } catch {
            return error.code
        }
    }

    @Test("the payload alone is what the whole decoding reads, held to the same rules; the header is not read")
    func payloadAloneIsTheDecodedPayload() throws {
        let text = Self.jws(payload: #"{"transactionId":"7","price":990,"nested":{"a":[true,null]}}"#)
        #expect(try CompactJWS.payload(of: Array(text.utf8)) == CompactJWS(Array(text.utf8)).payload)
        #expect(payloadOnlyCode("a.b") == .malformedJWS)
        #expect(payloadOnlyCode("a.b.c.d") == .malformedJWS)
        #expect(payloadOnlyCode("e30.e30=.AAAA") == .malformedJWS)
        #expect(payloadOnlyCode(Self.jws(payload: "[]")) == .malformedJSON)
        #expect(payloadOnlyCode(Self.jws(payload: #"{"a":1,"a":2}"#)) == .malformedJSON)
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(payloadOnlyCode(Self.jws(payload: #"{"a":\#(deep)}"#)) == .malformedJSON)
        let big = Self.jws(payload: #"{"a":""# + String(repeating: "x", count: 2000) + #""}"#)
        #expect(payloadOnlyCode(big, configuration: JWSDecodingConfiguration(maximumLength: 1000)) == .inputTooLarge)
        // A header the whole decoding refuses is not read here: the caller verified the JWS before keeping it.
        #expect(code(Self.jws(header: #"{"alg":1}"#, payload: "{}")) == .malformedHeader)
        #expect(payloadOnlyCode(Self.jws(header: #"{"alg":1}"#, payload: "{}")) == nil)
    }

    @Test func sizeIsBoundedBeforeAnythingIsDecoded() {
        let big = Self.jws(payload: #"{"a":""# + String(repeating: "x", count: 2000) + #""}"#)
        #expect(code(big, configuration: JWSDecodingConfiguration(maximumLength: 1000)) == .inputTooLarge)
    }

    @Test func headerAndPayloadAreStrictJSONObjects() {
        #expect(code(Self.jws(payload: "[]")) == .malformedJSON)
        #expect(code(Self.jws(payload: #"{"a":1,"a":2}"#)) == .malformedJSON)
        #expect(code(Self.jws(payload: #"{"a":01}"#)) == .malformedJSON)
        #expect(code(Self.jws(payload: #"{"a":"\ud800"}"#)) == .malformedJSON)
        #expect(code(Self.jws(payload: "{\"a\":\"\u{01}\"}")) == .malformedJSON)
        #expect(code(Self.jws(payload: #"{"a":1} x"#)) == .malformedJSON)
        #expect(code(Self.jws(payload: #"{"a":tru}"#)) == .malformedJSON)
        #expect(code(Self.jws(header: "[]", payload: "{}")) == .malformedJSON)
        let deep = String(repeating: #"{"a":"#, count: 40) + "1" + String(repeating: "}", count: 40)
        #expect(code(Self.jws(payload: deep)) == .malformedJSON)
    }

    @Test func stringsAreUnescapedExactly() throws {
        let compact = try CompactJWS(Array(Self.jws(payload: #"{"s":"a\"b\\c\/d\n\u00e9\ud83d\ude00"}"#).utf8))
        #expect(compact.payload["s"] == .string("a\"b\\c/d\né😀"))
    }

    @Test func headerParametersHaveTheirTypes() {
        #expect(code(Self.jws(header: #"{"alg":1}"#, payload: "{}")) == .malformedHeader)
        #expect(code(Self.jws(header: #"{"alg":"ES256","x5c":"abc"}"#, payload: "{}")) == .malformedHeader)
        #expect(code(Self.jws(header: #"{"alg":"ES256","x5c":["not base64!"]}"#, payload: "{}")) == .malformedHeader)
        #expect(code(Self.jws(header: #"{"alg":"ES256","x5c":["MA=D"]}"#, payload: "{}")) == .malformedHeader)
        let six = Array(repeating: #""AAAA""#, count: 6).joined(separator: ",")
        #expect(code(Self.jws(header: #"{"alg":"ES256","x5c":[\#(six)]}"#, payload: "{}")) == .malformedCertificate)
    }

    @Test func aCertificateThatDoesNotParseIsMalformed() async throws {
        let text = Self.jws(header: #"{"alg":"ES256","x5c":["AAAA"]}"#, payload: #"{"signedDate":1}"#)
        let error = await #expect(throws: JWSError.self) {
            _ = try await JWSVerifier(cache: nil).verify(text, as: JWSTransactionPayload.self, now: Date(timeIntervalSince1970: 0))
        }
        #expect(error?.code == .malformedCertificate)
    }

    @Test func documentedFieldsAreTypeChecked() {
        #expect(payloadCode(#"{"signedDate":"yesterday"}"#) == .malformedPayload)
        #expect(payloadCode(#"{"quantity":1.5}"#) == .malformedPayload)
        #expect(payloadCode(#"{"isUpgraded":"true"}"#) == .malformedPayload)
        #expect(payloadCode(#"{"transactionId":2000000123}"#) == .malformedPayload)
        #expect(payloadCode(#"{"transactionId":null,"futureField":{"x":[1,2]}}"#) == nil)
    }

    /// Issue 48: App Store Server API 1.21's commitment fields, typed on both kinds; a member of the wrong type at
    /// the top is malformed, one inside the object reads as nil.
    @Test func commitmentFieldsAreTyped() throws {
        let transaction = try JWSTransactionPayload(fields: try CompactJWS(Array(Self.jws(payload: #"""
            {"billingPlanType":"MONTHLY","commitmentInfo":{"billingPeriodNumber":3,"totalBillingPeriods":12,
             "commitmentExpiresDate":1767225600000,"commitmentPrice":119880,"extra":"kept"}}
            """#).utf8)).payload)
        #expect(transaction.billingPlanType == .monthly)
        #expect(transaction.commitmentInfo?.billingPeriodNumber == 3)
        #expect(transaction.commitmentInfo?.totalBillingPeriods == 12)
        #expect(transaction.commitmentInfo?.commitmentExpiresDate?.date == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(transaction.commitmentInfo?.commitmentPrice == 119_880)
        #expect(transaction.commitmentInfo?.fields["extra"] == .string("kept"))
        let renewal = try JWSRenewalInfoPayload(fields: try CompactJWS(Array(Self.jws(payload: #"""
            {"renewalBillingPlanType":"BILLED_UPFRONT","commitmentInfo":{"commitmentAutoRenewProductId":"yearly",
             "commitmentAutoRenewStatus":1,"commitmentRenewalBillingPlanType":"MONTHLY",
             "commitmentRenewalDate":1767225600000,"commitmentRenewalPrice":"119880"}}
            """#).utf8)).payload)
        #expect(renewal.renewalBillingPlanType == .billedUpfront)
        #expect(renewal.commitmentInfo?.commitmentAutoRenewProductID == "yearly")
        #expect(renewal.commitmentInfo?.commitmentAutoRenewStatus == .on)
        #expect(renewal.commitmentInfo?.commitmentRenewalBillingPlanType == .monthly)
        #expect(renewal.commitmentInfo?.commitmentRenewalDate?.date == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(renewal.commitmentInfo?.commitmentRenewalPrice == nil)  // a string, not the documented integer
        #expect(payloadCode(#"{"commitmentInfo":[1]}"#) == .malformedPayload)
        #expect(payloadCode(#"{"billingPlanType":1}"#) == .malformedPayload)
    }

    @Test func datesAreMillisecondsIntegralOrFractional() throws {
        let compact = try CompactJWS(Array(Self.jws(payload: #"{"signedDate":1700000000000,"purchaseDate":1699999999123.456}"#).utf8))
        let payload = try JWSTransactionPayload(fields: compact.payload)
        #expect(payload.signedDate?.date == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(payload.purchaseDate?.millisecondsSince1970 == 1_699_999_999_123.456)
        #expect(payload.purchaseDate?.description == "1699999999123.456")
    }

    @Test func unknownFieldsAreKeptAndRoundTrip() throws {
        let text = #"{"bundleId":"com.example.app","newField":{"nested":[true,null,-0.5e3]},"price":1990}"#
        let compact = try CompactJWS(Array(Self.jws(payload: text).utf8))
        let payload = try JWSTransactionPayload(fields: compact.payload)
        #expect(String(decoding: JSONValue.object(payload.fields).serialized, as: UTF8.self) == text)
        let encoded = try JSONEncoder().encode(payload)
        let decoded = try JSONDecoder().decode(JWSTransactionPayload.self, from: encoded)
        #expect(decoded.bundleIdentifier == "com.example.app")
        #expect(decoded.price == 1990)
        #expect(decoded.fields["newField"]?.objectValue?["nested"] != nil)
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(JWSTransactionPayload.self, from: Data(#"{"price":"free"}"#.utf8))
        }
    }

    @Test func codesAndEnvironmentsEncodeAsTheirStrings() throws {
        let encoded = try JSONEncoder().encode([JWSVerificationFailure.signatureInvalid])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["signature_invalid"]"#)
        let environment = try JSONDecoder().decode([AppStoreEnvironment].self, from: Data(#"["LocalTesting"]"#.utf8))
        #expect(environment == [.localTesting])
        #expect(AppStoreEnvironment("sandbox") == .sandbox)
        #expect(AppStoreEnvironment("staging") == nil)
    }

    @Test func notificationsExposeTheirParts() throws {
        let text = #"{"notificationType":"EXTERNAL_PURCHASE_TOKEN","notificationUUID":"u","externalPurchaseToken":{"externalPurchaseId":"SANDBOX_1","appAppleId":55,"bundleId":"com.example.app","tokenCreationDate":1}}"#
        let compact = try CompactJWS(Array(Self.jws(payload: text).utf8))
        let notification = try NotificationPayload(fields: compact.payload)
        #expect(notification.environment == .sandbox)
        #expect(notification.appAppleID == 55)
        #expect(notification.bundleIdentifier == "com.example.app")
        let bad = try CompactJWS(Array(Self.jws(payload: #"{"data":{"status":"active"}}"#).utf8))
        let error = #expect(throws: JWSError.self) { _ = try NotificationPayload(fields: bad.payload) }
        #expect(error?.code == .malformedPayload)
    }

    @Test func thePayloadKindIsToldFromItsFields() throws {
        func kind(_ json: String) throws -> AppStoreSignedDataKind? {
            guard case .object(let fields) = try JSONValue(jsonEncoded: Array(json.utf8)) else { return nil }
            return AppStoreSignedDataKind(detecting: fields)
        }
        #expect(try kind(#"{"transactionId":"1","bundleId":"b"}"#) == .transaction)
        #expect(try kind(#"{"originalTransactionId":"1","autoRenewStatus":1}"#) == .renewalInfo)
        #expect(try kind(#"{"originalTransactionId":"1","autoRenewProductId":"p"}"#) == .renewalInfo)
        #expect(try kind(#"{"bundleId":"b","receiptType":"Production"}"#) == .appTransaction)
        #expect(try kind(#"{"notificationType":"TEST","data":{"transactionId":"1"}}"#) == .notification)
        #expect(try kind(#"{"notificationType":"TEST","transactionId":"1"}"#) == .notification)
        // Nothing, or two kinds at once: unknown, verified as such unless the caller names a kind.
        #expect(try kind(#"{"bundleId":"b","environment":"Sandbox","signedDate":1}"#) == .unknown)
        #expect(try kind(#"{"transactionId":"1","applicationVersion":"1"}"#) == .unknown)
        #expect(try kind(#"{"notificationType":"TEST","receiptType":"Production"}"#) == .unknown)
        #expect(AppStoreSignedDataKind("renewal-info") == .renewalInfo)
        #expect(AppStoreSignedDataKind("app_transaction") == .appTransaction)
        #expect(AppStoreSignedDataKind("receipt") == nil)
        // `unknown` is what a verdict reports, not a kind a caller names.
        #expect(AppStoreSignedDataKind("unknown") == nil)
        #expect(AppStoreSignedDataKind(rawValue: "unknown") == .unknown)
    }

    @Test func aNotificationBodyIsParsedStrictly() throws {
        let body = try NotificationRequestBody(jsonEncoded: Array(#" {"signedPayload":"a.b.c","extra":1} "#.utf8))
        #expect(body.signedPayload == "a.b.c")
        func code(_ text: String, _ configuration: JWSDecodingConfiguration = .default) -> JWSError.Code? {
            #expect(throws: JWSError.self) { _ = try NotificationRequestBody(jsonEncoded: Array(text.utf8), configuration: configuration) }?.code
        }
        #expect(code(#"{"signedPayload":"a","signedPayload":"b"}"#) == .malformedJSON)
        #expect(code(#"["a.b.c"]"#) == .malformedJSON)
        #expect(code("") == .malformedJSON)
        #expect(code(#"{"signedPayload":7}"#) == .malformedJWS)
        #expect(code(#"{"payload":"a.b.c"}"#) == .malformedJWS)
        let long = #"{"signedPayload":""# + String(repeating: "a", count: 3000) + #""}"#
        #expect(code(long, JWSDecodingConfiguration(maximumLength: 1000)) == .inputTooLarge)
    }

    @Test func rawUTF8InStringsIsValidatedStrictly() throws {
        func parse(_ bytes: [UInt8]) -> Result<JSONValue, JWSError> {
            Result { () throws(JWSError) in try JSONValue(jsonEncoded: bytes) }
        }
        let quote = UInt8(ascii: "\"")
        #expect(try parse([quote] + Array("Café ✓ 😀".utf8) + [quote]).get() == .string("Café ✓ 😀"))
        #expect(try parse([quote] + Array("plain ascii".utf8) + [quote]).get() == .string("plain ascii"))
        // Overlong "/", an encoded surrogate, a byte that never occurs, a truncated sequence: with and without an
        // escape elsewhere in the string (the two paths the parser takes).
        for invalid: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xFF], [0xE2, 0x9C]] {
            for prefix in [[UInt8](), Array(#"\n"#.utf8)] {
                let result = parse([quote] + prefix + invalid + [quote])
                #expect(throws: JWSError.self) { try result.get() }
                if case .failure(let error) = result { #expect(error.code == .malformedJSON) }
            }
        }
    }
}
