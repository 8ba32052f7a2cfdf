@testable import AppStorePKI
import Foundation
import ReceiptKitTesting
import SwiftASN1
import Testing
import X509
import _ReceiptKitShared

/// The one chain step, on hierarchies minted by the test CA (RSA, leaf → intermediate → root, Apple's marker
/// extensions on or off): each way a path fails is its own ``ChainVerdict/Failure``, a pinned root is trusted only by
/// its fingerprint and only when carried, and a cached outcome is still checked against each call's time.
@Suite("Chain evaluator")
struct ChainEvaluatorTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)  // 2025-06-15, inside every window below
    private static let authorities: Result<(TestCertificateAuthority, TestCertificateAuthority), any Error> = Result {
        (try TestCertificateAuthority(), try TestCertificateAuthority())
    }
    static var ca: TestCertificateAuthority { get throws { try Self.authorities.get().0 } }
    static var other: TestCertificateAuthority { get throws { try Self.authorities.get().1 } }

    /// What a receipt of `authority` carries: leaf, intermediate, root.
    static func carried(_ authority: TestCertificateAuthority, root: Bool = true) throws -> AppStoreCertificates {
        let chain = [authority.leaf, authority.intermediate] + (root ? [authority.root] : [])
        let der = try chain.map { identity in
            var serializer = DER.Serializer()
            try serializer.serialize(identity.certificate)
            return serializer.serializedBytes
        }
        return try AppStoreCertificates(derEncoded: der, cache: nil)
    }

    static func evaluate(
        _ certificates: AppStoreCertificates, anchors: [Certificate], pinned: [PinnedRoot] = [], signer: Int = 0,
        at time: Date = Self.now, cache: AppStoreTrustCache? = nil
    ) async -> ChainVerdict {
        await ChainEvaluator(anchors: AppStoreTrustAnchors(anchors, trustsAppleRoot: false), pinnedRoots: pinned, cache: cache)
            .evaluate(certificates, signer: signer, marker: .receiptSigning, at: time)
    }

    @Test("a sound, marked path in its window is trusted, anchored at the caller's root")
    func trusted() async throws {
        let ca = try Self.ca
        let verdict = await Self.evaluate(try Self.carried(ca, root: false), anchors: [ca.root.certificate])
        #expect(verdict.isTrusted)
        #expect(verdict.failures == [])
        #expect(verdict.anchor == .callerAnchor)
        #expect(verdict.path == [ca.leaf.certificate, ca.intermediate.certificate, ca.root.certificate])
    }

    @Test("each way a path fails is its own failure")
    func failures() async throws {
        let ca = try Self.ca
        let unmarkedLeaf = try TestCertificateAuthority(leafHasReceiptSigningMarker: false)
        let unmarkedIntermediate = try TestCertificateAuthority(intermediateHasWWDRMarker: false)
        let anchors = { (authority: TestCertificateAuthority) in [authority.root.certificate] }

        #expect(await Self.evaluate(try Self.carried(unmarkedLeaf), anchors: anchors(unmarkedLeaf)).failures == [.signerLacksMarker])
        #expect(
            await Self.evaluate(try Self.carried(unmarkedIntermediate), anchors: anchors(unmarkedIntermediate)).failures
                == [.intermediateLacksMarker])
        // Another root: no path, whatever the data carries.
        let foreign = await Self.evaluate(try Self.carried(ca), anchors: [try Self.other.root.certificate])
        #expect(foreign.failures == [.untrusted])
        #expect(foreign.path.isEmpty && foreign.anchor == nil)
        // The path exists but the instant is outside its window (the test CA's certificates end in 2100).
        let late = await Self.evaluate(try Self.carried(ca), anchors: anchors(ca), at: Date(timeIntervalSince1970: 4_200_000_000))
        #expect(late.failures == [.outsideValidity])
        #expect(late.anchor == .callerAnchor)
        // A signer index out of range finds no path rather than trapping.
        for signer in [-1, 3, Int.max] {
            #expect(await Self.evaluate(try Self.carried(ca), anchors: anchors(ca), signer: signer).failures == [.untrusted])
        }
        // The intermediate as signer: it lacks the signer's marker.
        #expect(await Self.evaluate(try Self.carried(ca), anchors: anchors(ca), signer: 1).failures != [])
    }

    @Test("a pinned root is trusted by its fingerprint, only when the data carries it")
    func pinnedRoot() async throws {
        let ca = try Self.ca
        let pin = PinnedRoot(
            fingerprint: PinnedCertificates.Fingerprint(bytes: CertificateFingerprint.sha256(ca.root.certificate)),
            kind: .selfSignedLocal, tag: 8)
        let carried = await Self.evaluate(try Self.carried(ca), anchors: [], pinned: [pin])
        #expect(carried.isTrusted)
        #expect(carried.anchor == .selfSignedLocal)
        // Not carried: nothing to trust, the fingerprint alone is not a certificate.
        #expect(await Self.evaluate(try Self.carried(ca, root: false), anchors: [], pinned: [pin]).failures == [.untrusted])
        // Another CA's root, carried, does not match the pin.
        #expect(await Self.evaluate(try Self.carried(try Self.other), anchors: [], pinned: [pin]).failures == [.untrusted])
        // Apple's pins do not match a test root.
        #expect(
            await Self.evaluate(try Self.carried(ca), anchors: [], pinned: [.appleIncRootCA, .appleRootCAG3, .xcodeStoreKitTesting])
                .failures == [.untrusted])
    }

    @Test("a cached trusted outcome is still checked against each call's time, and an untrusted one is not cached")
    func cache() async throws {
        let ca = try Self.ca
        let cache = AppStoreTrustCache()
        let certificates = try Self.carried(ca)
        #expect(await Self.evaluate(certificates, anchors: [ca.root.certificate], cache: cache).isTrusted)
        let late = await Self.evaluate(
            certificates, anchors: [ca.root.certificate], at: Date(timeIntervalSince1970: 4_200_000_000), cache: cache)
        #expect(late.failures == [.outsideValidity])
        // The same certificates under other anchors are a different key: not answered from the trusted entry.
        #expect(await Self.evaluate(certificates, anchors: [try Self.other.root.certificate], cache: cache).failures == [.untrusted])
        #expect(await Self.evaluate(certificates, anchors: [ca.root.certificate], cache: cache).isTrusted)
    }

    @Test("Apple's pinned fingerprints are the published SHA-256 values, 32 bytes each")
    func pinnedFingerprints() {
        #expect(
            PinnedCertificates.appleIncRootCA.description == "b0b1730ecbc7ff4505142c49f1295e6eda6bcaed7e2c68c5be91b5a11001f024")
        #expect(
            PinnedCertificates.appleRootCAG3.description == "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
        for pin in [PinnedRoot.appleIncRootCA, .appleRootCAG3, .xcodeStoreKitTesting] {
            #expect(pin.fingerprint.bytes.count == 32)
        }
        // Distinct cache tags: one bit per pinned root.
        let tags = [PinnedRoot.appleIncRootCA, .appleRootCAG3, .xcodeStoreKitTesting].map(\.tag)
        #expect(Set(tags).count == 3 && tags.allSatisfy { $0.nonzeroBitCount == 1 })
    }

    @Test("environments parse their command-line spellings, case-insensitively, and nothing else")
    func environments() {
        #expect(AppStoreEnvironment("production") == .production)
        #expect(AppStoreEnvironment("SANDBOX") == .sandbox)
        #expect(AppStoreEnvironment("LocalTesting") == .localTesting)
        #expect(AppStoreEnvironment("xcode")?.isLocal == true)
        #expect(AppStoreEnvironment.production.isLocal == false)
        #expect(AppStoreEnvironment("prod") == nil)
        #expect(AppStoreEnvironment("") == nil)
    }
}
