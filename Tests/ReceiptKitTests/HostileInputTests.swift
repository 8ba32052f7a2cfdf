import Foundation
import ReceiptKit
import ReceiptKitTesting
import ReceiptTestSupport
import _ReceiptKitShared
import Testing

/// Malformed and hostile input: each case throws its exact error code, in bounded time, and never crashes.
struct HostileInputTests {
    func minted(_ receipt: AppReceipt = TestPKI.sampleReceipt, options: ReceiptMinter.Options = .init()) throws -> [UInt8] {
        try ReceiptMinter.mint(receipt, signer: TestPKI.ca.receiptSigner, options: options)
    }

    @Test(arguments: [ReceiptMinter.Style.appStore, .xcode])
    func everyPrefixOfAMintedReceiptIsMalformed(style: ReceiptMinter.Style) throws {
        let bytes = try minted(options: .init(style: style))
        for length in 0..<bytes.count {
            expectReceiptError(.malformedContainer, "prefix \(length)") { _ = try AppReceipt(berEncoded: bytes[..<length]) }
        }
    }

    @Test func everySingleByteFlipInThePayloadIsInvalidOrMalformed() async throws {
        let bytes = try minted()
        let payload = ReceiptMinter.payload(TestPKI.sampleReceipt)
        let start = try #require(bytes.firstRange(of: payload)?.lowerBound)
        let validator = try TestPKI.validator()
        for offset in start..<(start + payload.count) {
            var mutated = bytes
            mutated[offset] ^= 0x01
            do {
                let result = try await validator.validate(mutated, now: TestPKI.now)
                #expect(result.failures.contains(.signatureInvalid), "flip at \(offset) validated")
            } catch {
                #expect([.malformedPayload, .malformedContainer].contains(error.code), "flip at \(offset): \(error)")
            }
        }
    }

    @Test func rejectsInputOverTheSizeCap() throws {
        let limit = ReceiptDecodingConfiguration.default.maximumInputSize
        let huge = [UInt8](repeating: 0x30, count: limit + 1)
        expectReceiptError(.inputTooLarge) { _ = try AppReceipt(berEncoded: huge) }
        let small = ReceiptDecodingConfiguration(maximumInputSize: 100)
        expectReceiptError(.inputTooLarge) { _ = try AppReceipt(berEncoded: try minted(), configuration: small) }
    }

    @Test func rejectsTooManyPurchasesWithinTheCap() throws {
        var receipt = TestPKI.sampleReceipt
        receipt.inAppPurchases = Array(repeating: InAppPurchase(quantity: 1), count: 11)
        let bytes = try minted(receipt)
        let configuration = ReceiptDecodingConfiguration(maximumPurchaseCount: 10)
        expectReceiptError(.tooManyPurchases) { _ = try AppReceipt(berEncoded: bytes, configuration: configuration) }
        #expect(try AppReceipt(berEncoded: bytes).inAppPurchases.count == 11)
    }

    @Test func millionTinyPurchasesHitTheCapWithATypedError() throws {
        // 1,000,000 empty purchase SETs (12 bytes each) in one payload: the default cap of 100,000 stops the walk.
        let purchase: [UInt8] = [0x30, 0x0A, 0x02, 0x01, 0x11, 0x02, 0x01, 0x01, 0x04, 0x02, 0x31, 0x00]
        var content: [UInt8] = []
        content.reserveCapacity(purchase.count * 1_000_000)
        for _ in 0..<1_000_000 { content += purchase }
        let payload = Self.set(content)
        expectReceiptError(.tooManyPurchases) { _ = try Self.decodePayload(payload) }
    }

    @Test func rejectsDuplicateDocumentedAttributes() throws {
        var receipt = TestPKI.sampleReceipt
        receipt.otherAttributes = [ReceiptAttribute(type: 2, value: [0x0C, 0x03, 0x65, 0x76, 0x6C])]
        let bytes = try minted(receipt)
        expectReceiptError(.malformedPayload) { _ = try AppReceipt(berEncoded: bytes) }
    }

    @Test func keepsUnknownAttributesRawAndRepeated() throws {
        var receipt = TestPKI.sampleReceipt
        receipt.otherAttributes = [
            ReceiptAttribute(type: 8, value: [0x16, 0x00]),
            ReceiptAttribute(type: 4242, version: 7, value: [0xFF]),
            ReceiptAttribute(type: 4242, version: 7, value: [0xFE]),
        ]
        let purchaseExtras = [
            ReceiptAttribute(type: 1709, value: [0x0C, 0x00]),
            ReceiptAttribute(type: 1722, version: 2, value: [0x02, 0x01, 0x05]),
            ReceiptAttribute(type: 1722, value: [0x02, 0x01, 0x06]),
        ]
        receipt.inAppPurchases[0].otherAttributes = purchaseExtras
        let decoded = try AppReceipt(berEncoded: try minted(receipt))
        #expect(decoded.otherAttributes == receipt.otherAttributes)
        #expect(decoded.inAppPurchases[0].otherAttributes == purchaseExtras)
        #expect(decoded.inAppPurchases[0].productIdentifier == "com.example.app.monthly")
        var edited = decoded.inAppPurchases[0]
        edited.otherAttributes = []
        edited.productIdentifier = "changed"
        #expect(edited.otherAttributes == [])
        #expect(edited.productIdentifier == "changed")
        #expect(edited.transactionIdentifier == "1000000000000001")
    }

    @Test(arguments: [
        "2024-13-01T00:00:00Z", "2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "2024-01-01T24:00:00Z",
        "2024-01-01T00:60:00Z", "2024-01-01T00:00:61Z", "2024-01-01", "2024-01-01T00:00:00", "2024-01-01T00:00:00Q",
        "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00+2500", "２０２４-01-01T00:00:00Z", "2024-01-01T00:00:00Zjunk",
    ])
    func rejectsOutOfRangeAndMalformedDates(text: String) throws {
        #expect(RFC3339.date(text) == nil)
        var receipt = TestPKI.sampleReceipt
        receipt.creationDate = nil
        receipt.otherAttributes = []
        let payload = ReceiptMinter.payload(receipt)
        let dateAttribute = Self.attribute(12, Self.tlv(0x16, Array(text.utf8)))
        let patched = Self.set(Array(payload.dropFirst(Self.headerLength(payload))) + dateAttribute)
        expectReceiptError(.malformedPayload, "\(text)") { _ = try Self.decodePayload(patched) }
    }

    @Test func emptyDateStringsMeanAbsent() throws {
        let payload = Self.set(Self.attribute(12, [0x16, 0x00]) + Self.attribute(21, [0x16, 0x00]))
        let receipt = try Self.decodePayload(payload)
        #expect(receipt.creationDate == nil)
        #expect(receipt.expirationDate == nil)
    }

    @Test func rejectsNonUTF8Strings() throws {
        let payload = Self.set(Self.attribute(2, Self.tlv(0x0C, [0x63, 0xC3, 0x28])))
        expectReceiptError(.malformedPayload) { _ = try Self.decodePayload(payload) }
        let ok = Self.set(Self.attribute(2, Self.tlv(0x0C, Array("café".utf8))))
        #expect(try Self.decodePayload(ok).bundleIdentifier == "café")
    }

    @Test func rejectsLengthsThatOverflowInt() throws {
        let overflow: [UInt8] = [0x31, 0x88, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]
        expectReceiptError(.malformedPayload) { _ = try Self.decodePayload(overflow) }
        let nineBytes: [UInt8] = [0x31, 0x89, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0]
        expectReceiptError(.malformedPayload) { _ = try Self.decodePayload(nineBytes) }
        expectReceiptError(.malformedContainer) { _ = try AppReceipt(berEncoded: overflow) }
    }

    @Test func rejectsDeepNestingAndIndefiniteBombs() throws {
        var deep: [UInt8] = []
        for _ in 0..<10_000 { deep += [0x30, 0x80] }
        deep += [UInt8](repeating: 0, count: 20_000)
        expectReceiptError(.malformedContainer) { _ = try AppReceipt(berEncoded: deep) }
        var unterminated: [UInt8] = []
        for _ in 0..<40 { unterminated += [0x30, 0x80] }
        expectReceiptError(.malformedContainer) { _ = try AppReceipt(berEncoded: unterminated) }
        let indefinitePayload: [UInt8] = [0x31, 0x80, 0x00, 0x00]
        expectReceiptError(.malformedPayload) { _ = try Self.decodePayload(indefinitePayload) }
    }

    @Test func rejectsAttributesWithExtraOrMissingFields() throws {
        let extra = Self.set(Self.tlv(0x30, Self.tlv(0x02, [2]) + Self.tlv(0x02, [1]) + Self.tlv(0x04, []) + Self.tlv(0x05, [])))
        expectReceiptError(.malformedPayload) { _ = try Self.decodePayload(extra) }
        let missing = Self.set(Self.tlv(0x30, Self.tlv(0x02, [2]) + Self.tlv(0x02, [1])))
        expectReceiptError(.malformedPayload) { _ = try Self.decodePayload(missing) }
        let wrongType = Self.set(Self.attribute(1, Self.tlv(0x0C, Array("12".utf8))))
        expectReceiptError(.malformedPayload) { _ = try Self.decodePayload(wrongType) }
    }

    @Test func rejectsNonReceiptInput() throws {
        expectReceiptError(.malformedContainer) { _ = try AppReceipt(berEncoded: [UInt8]()) }
        expectReceiptError(.malformedContainer) { _ = try AppReceipt(berEncoded: Array("hello".utf8)) }
        expectReceiptError(.invalidBase64) { _ = try AppReceipt(base64Encoded: Array("not base64!".utf8)) }
        // Foundation decodes these to one or two bytes; `=` may only end the text.
        expectReceiptError(.invalidBase64) { _ = try AppReceipt(base64Encoded: Array("====".utf8)) }
        expectReceiptError(.invalidBase64) { _ = try AppReceipt(base64Encoded: Array("MA=D".utf8)) }
        expectReceiptError(.invalidBase64) { _ = try AppReceipt(base64Encoded: Array(" \n ".utf8)) }
    }

    @Test func acceptsBase64WithWhitespace() throws {
        let bytes = try minted()
        var text = Data(bytes).base64EncodedString(options: .lineLength64Characters)
        text = "  \n" + text + "\r\n"
        #expect(try AppReceipt(base64Encoded: Array(text.utf8)) == AppReceipt(berEncoded: bytes))
    }

    // MARK: helpers: hand-built payloads wrapped in a minted, signed container.

    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var header: [UInt8] = [tag]
        if content.count < 0x80 {
            header.append(UInt8(content.count))
        } else {
            let length = withUnsafeBytes(of: UInt32(content.count).bigEndian, Array.init)
            header += [0x84] + length
        }
        return header + content
    }

    static func set(_ content: [UInt8]) -> [UInt8] { tlv(0x31, content) }

    static func attribute(_ type: UInt8, _ value: [UInt8]) -> [UInt8] {
        tlv(0x30, tlv(0x02, [type]) + tlv(0x02, [1]) + tlv(0x04, value))
    }

    static func headerLength(_ der: [UInt8]) -> Int {
        der[1] < 0x80 ? 2 : 2 + Int(der[1] & 0x7F)
    }

    /// Decodes a raw payload by signing it into a container the way Apple would (the payload is opaque to the signer).
    static func decodePayload(_ payload: [UInt8]) throws -> AppReceipt {
        try AppReceipt(berEncoded: ReceiptMinter.wrap(payload: payload, signer: TestPKI.ca.receiptSigner))
    }
}

/// Seeded random mutations of payloads and containers. Debug builds bounds-check every raw-buffer read, so an
/// out-of-bounds read in the readers traps and fails this suite.
struct MutationTests {
    static func mutate(_ bytes: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var out = bytes
        for _ in 0..<Int.random(in: 1...4, using: &rng) where !out.isEmpty {
            let index = Int.random(in: 0..<out.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: out[index] = UInt8.random(in: 0...255, using: &rng)
            case 1: out[index] ^= 1 << UInt8.random(in: 0..<8, using: &rng)
            case 2: out.remove(at: index)
            case 3: out.insert(UInt8.random(in: 0...255, using: &rng), at: index)
            default: out = Array(out[..<index])
            }
        }
        return out
    }

    @Test func mutatedPayloadsDecodeOrThrowTyped() throws {
        var rng = SplitMix64(state: 0x5EED)
        let payload = ReceiptMinter.payload(TestPKI.sampleReceipt)
        for _ in 0..<20_000 {
            let mutated = Self.mutate(payload, &rng)
            do {
                let receipt = try HostileInputTests.decodePayload(mutated)
                _ = receipt.inAppPurchases.map { ($0.productIdentifier, $0.otherAttributes) }
            } catch let error as ReceiptError {
                #expect([.malformedPayload, .tooManyAttributes].contains(error.code), "\(error)")
            }
        }
    }

    @Test func mutatedContainersDecodeOrThrowTyped() async throws {
        var rng = SplitMix64(state: 0xC0FFEE)
        let styles = [
            try ReceiptMinter.mint(TestPKI.sampleReceipt, signer: TestPKI.ca.receiptSigner),
            try ReceiptMinter.mint(TestPKI.sampleReceipt, signer: TestPKI.ca.receiptSigner, options: .init(style: .xcode, signedAttributes: true)),
        ]
        let validator = try TestPKI.validator()
        for round in 0..<4_000 {
            let mutated = Self.mutate(styles[round % 2], &rng)
            do {
                let result = try await validator.validate(mutated, now: TestPKI.now)
                // A mutation may leave the receipt intact only if it did not touch signed bytes.
                if result.isValid { #expect(try AppReceipt(berEncoded: mutated) == AppReceipt(berEncoded: styles[round % 2])) }
            } catch {
                #expect(
                    [.malformedContainer, .malformedPayload, .malformedCertificate, .tooManyAttributes].contains(error.code),
                    "\(error)"
                )
            }
        }
    }
}
