@testable import AppStorePKI
import Foundation
@testable import ReceiptKit
import ReceiptKitTesting
import SwiftASN1
import ReceiptTestSupport
import Testing
import X509
import _CryptoExtras

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Regression tests for the review findings on receipts: bounded certificate sets, a cache hostile receipts cannot
/// fill, exact signed-attribute rules, byte-exact identity checks, the anchor in the result, markers checked during
/// path building, and bounded reads of pipes.
struct SecurityReviewTests {
    func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    // MARK: certificate sets

    @Test func thousandsOfEmbeddedCertificatesAreAMalformedContainer() async throws {
        let ca = try TestPKI.ca
        let junk = try der(ca.intermediate.certificate)
        let signer = ca.receiptSigner
        let real = try signer.certificates.map(der)
        let hostile = try TestPKI.mint(options: .init(rawCertificates: real + Array(repeating: junk, count: 5_000)))
        #expect(hostile.count > 5_000 * junk.count)
        let cache = AppStoreTrustCache()
        let clock = ContinuousClock()
        let start = clock.now
        await #expect(throws: ReceiptError(.malformedContainer, "")) {
            try await TestPKI.validator(cache: cache).validate(hostile, now: TestPKI.now)
        }
        let elapsed = clock.now - start
        print("5,003 embedded certificates (\(hostile.count) bytes) refused in \(elapsed)")
        #expect(cache.count == (0, 0))
        // The limit itself: eight certificates (three real, five duplicates) still validate; nine do not.
        let atLimit = try TestPKI.mint(options: .init(rawCertificates: real + Array(repeating: junk, count: 5)))
        #expect(try await TestPKI.validator().validate(atLimit, now: TestPKI.now).failures == [])
        let overLimit = try TestPKI.mint(options: .init(rawCertificates: real + Array(repeating: junk, count: 6)))
        #expect(throws: ReceiptError(.malformedContainer, "")) { try AppReceipt(berEncoded: overLimit) }
        let configured = ReceiptValidator(cache: nil, decodingConfiguration: .init(maximumCertificateCount: 2))
        await #expect(throws: ReceiptError(.malformedContainer, "")) { try await configured.validate(try TestPKI.mint(), now: TestPKI.now) }
    }

    // MARK: the cache admits only what validated

    @Test func forgedAndUntrustedReceiptsNeverEnterTheCache() async throws {
        let cache = AppStoreTrustCache()
        let validator = try TestPKI.validator(cache: cache)
        let forged = try TestPKI.mint(options: .init(fault: .corruptSignature))
        #expect(try await validator.validate(forged, now: TestPKI.now).failures == [.signatureInvalid])
        #expect(cache.count == (0, 0))
        // A validly signed receipt from a CA nobody trusts: path building runs, and finds nothing to admit.
        let impostor = try TestCertificateAuthority()
        let untrusted = try TestPKI.mint(signer: impostor.receiptSigner)
        #expect(try await validator.validate(untrusted, now: TestPKI.now).failures == [.certificateUntrusted])
        #expect(cache.count == (0, 0))
        #expect(try await validator.validate(TestPKI.mint(), now: TestPKI.now).failures == [])
        #expect(cache.count == (3, 1))
    }

    @Test func cacheKeysHashEveryByteOfTheCertificate() throws {
        let certificate = try der(TestPKI.ca.leaf.certificate)
        // Differ far from the end: a key that hashed only the tail would collide for every such pair.
        for offset in [0, 4, certificate.count / 2] {
            var changed = certificate
            changed[offset] ^= 0x01
            #expect(DERBytesKey(certificate[...]).hashValue != DERBytesKey(changed[...]).hashValue)
            #expect(DERBytesKey(certificate[...]) != DERBytesKey(changed[...]))
        }
        #expect(DERBytesKey(certificate[...]) == DERBytesKey(Array(certificate)[...]))
    }

    // MARK: signed attributes (RFC 5652 §5.3, §11.1, §11.2)

    @Test(arguments: [
        ReceiptMinter.Fault.wrongMessageDigest, .duplicateMessageDigest, .missingContentType, .duplicateContentType,
    ])
    func signedAttributesNeedExactlyOneDigestAndContentType(fault: ReceiptMinter.Fault) async throws {
        let bytes = try TestPKI.mint(options: .init(fault: fault))
        let result = try await TestPKI.validator().validate(bytes, now: TestPKI.now)
        #expect(result.failures == [.signatureInvalid])
        #expect(result.certificatePath.isEmpty)
    }

    @Test func theFaultsAreSignedValidly() async throws {
        // The same attributes without the fault verify: each fault above is refused for its rule, not its signature.
        let bytes = try TestPKI.mint(options: .init(signedAttributes: true))
        #expect(try await TestPKI.validator().validate(bytes, now: TestPKI.now).failures == [])
    }

    // MARK: identity compared as bytes

    @Test func bundleIdentifierAndVersionAreComparedAsBytes() async throws {
        let decomposed = "cafe\u{301}.app"  // e + COMBINING ACUTE ACCENT
        let precomposed = "caf\u{E9}.app"  // é
        #expect(decomposed == precomposed)  // what a String comparison would accept
        var receipt = TestPKI.sampleReceipt
        receipt.bundleIdentifier = decomposed
        receipt.bundleIdentifierData = nil
        receipt.appVersion = "1.0\u{301}"
        receipt = ReceiptMinter.settingDeviceHash(of: receipt, for: TestPKI.device)
        let bytes = try TestPKI.mint(receipt)
        let wrong = try await TestPKI.validator(bundleIdentifier: precomposed, appVersion: "1.\u{F3}")
            .validate(bytes, now: TestPKI.now)
        #expect(wrong.failures == [.bundleIDMismatch, .appVersionMismatch])
        let right = try await TestPKI.validator(bundleIdentifier: decomposed, appVersion: "1.0\u{301}")
            .validate(bytes, now: TestPKI.now)
        #expect(right.failures == [])
    }

    // MARK: the anchor is part of the result

    @Test func theResultSaysWhichAnchorThePathEndedAt() async throws {
        let result = try await TestPKI.validator().validate(TestPKI.mint(), now: TestPKI.now)
        #expect(result.anchor == .callerAnchor)
        #expect(result.environment == .production)
        let forged = try await TestPKI.validator().validate(TestPKI.mint(options: .init(fault: .corruptSignature)), now: TestPKI.now)
        #expect(forged.anchor == nil)
    }

    @Test func aReceiptAnchoredAtXcodesCertificateIsXcodeWhateverItsPayloadSays() throws {
        var payload = TestPKI.sampleReceipt
        payload.environment = .production
        let anchored = ReceiptValidationResult(
            receipt: payload, failures: [], certificatePath: [], anchor: .xcodeStoreKitTesting, trustEvaluationTime: TestPKI.now
        )
        #expect(anchored.environment == .xcode)
        let apple = ReceiptValidationResult(
            receipt: payload, failures: [], certificatePath: [], anchor: .appleRootCA, trustEvaluationTime: TestPKI.now
        )
        #expect(apple.environment == .production)
    }

    // MARK: markers are checked during path building

    @Test(arguments: [false, true])
    func aMarkedAlternativePathIsFoundWhenTheFirstLacksAMarker(unmarkedFirst: Bool) async throws {
        let ca = try TestPKI.ca
        // The same intermediate name and key, certified by the root a second time without the WWDR marker.
        let unmarked = try Certificate(
            version: .v3,
            serialNumber: .init(bytes: [0x7E, 0x57]),
            publicKey: ca.intermediate.certificate.publicKey,
            notValidBefore: ca.intermediate.certificate.notValidBefore,
            notValidAfter: ca.intermediate.certificate.notValidAfter,
            issuer: ca.root.certificate.subject,
            subject: ca.intermediate.certificate.subject,
            signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(ca.root.privateKey)
        )
        let intermediates = unmarkedFirst ? [unmarked, ca.intermediate.certificate] : [ca.intermediate.certificate, unmarked]
        let signer = ReceiptSigner(identity: ca.leaf, certificates: [ca.leaf.certificate] + intermediates + [ca.root.certificate])
        let result = try await TestPKI.validator().validate(TestPKI.mint(signer: signer), now: TestPKI.now)
        #expect(result.failures == [])
        #expect(result.certificatePath.dropFirst().first == ca.intermediate.certificate)
        // Only the unmarked path: refused, as before.
        let only = ReceiptSigner(identity: ca.leaf, certificates: [ca.leaf.certificate, unmarked, ca.root.certificate])
        #expect(try await TestPKI.validator().validate(TestPKI.mint(signer: only), now: TestPKI.now).failures == [.certificateUntrusted])
    }

    // MARK: pipes obey the size cap

    @Test(arguments: [4_096, 4_097])
    func aFIFOIsReadUpToTheCapAndRefusedPastIt(size: Int) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("receiptkit-fifo-\(UUID().uuidString)").path
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            handle.write(Data(repeating: 0x30, count: size))
            try? handle.close()
        }
        writer.start()
        if size > 4_096 {
            #expect(throws: ReceiptFileError(.unreadableFile, "")) { try ReceiptFile.contents(atPath: path, maximumSize: 4_096) }
        } else {
            #expect(try ReceiptFile.contents(atPath: path, maximumSize: 4_096).count == size)
        }
    }
}
