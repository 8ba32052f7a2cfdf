import AppStorePKI
import SharedFixtures
import Crypto
import Foundation
import ReceiptCodegen
import ReceiptKit
import ReceiptKitTesting
import SwiftASN1
import Testing
import X509

/// Proof 1 of the codegen issue: every generated validator, compiled, gives ReceiptValidator's verdict — on the real
/// receipts in `../shared/fixtures` and on receipts minted (and tampered with) by ReceiptKitTesting: thirteen seeds,
/// each drawing its own primitive variants, check order and constants, so that together they cover every variant.
///
/// Every seed is compiled as an app ships it: `-O -warnings-as-errors` (about 80 s of one core a seed on the 2-core
/// machine; the cases run two at a time, one compiler per core).
@Suite(.enabled(if: HarnessBuild.swiftc != nil, Comment(rawValue: HarnessBuild.skipMessage)))
struct AgreementTests {
    static let now = "2025-01-01T00:00:00Z"
    static let nowDate = Date(timeIntervalSince1970: 1_735_689_600)

    /// ReceiptValidator's verdict (malformed input is not valid).
    static func expected(_ receipt: [UInt8], _ policy: ReceiptValidationPolicy, products: [String] = []) async -> Bool {
        do {
            let result = try await ReceiptValidator(policy: policy, cache: nil).validate(receipt, now: Self.nowDate)
            let held = Set(result.receipt.inAppPurchases.compactMap(\.productIdentifier))
            return result.isValid && products.allSatisfy(held.contains)
        } catch {
            return false
        }
    }

    /// The seeds of the minted-receipt generations, which alone draw every dialect feature (``DialectTests``; found by a
    /// greedy search over seeds 0–2999, seven builds rather than ten), and of the real-receipt ones: four, one per app
    /// whose receipts the shared fixtures hold with device ids (the three that can be valid) and one more, each of
    /// their three entry points drawing its own primitive variants (``DialectTests`` checks that both variants of every
    /// family run on the real receipts). A build is about 80 s of one core: the real-receipt list had seven seeds
    /// until the whole run's time was needed elsewhere, and what the three more added, the minted list already covers.
    static let realSeeds = [42, 71, 80, 135]
    static let mintedSeeds = [68, 89, 50, 65, 138, 33, 7]

    static func seed(_ n: Int) -> [UInt8] {
        (0..<16).map { UInt8(truncatingIfNeeded: n &* 37 &+ $0 &* 11) }
    }

    // MARK: - Real receipts

    /// The options of real-receipt generation `index`: its app, its seed, three entry points.
    static func realOptions(_ index: Int) -> CodegenOptions {
        let app = Self.realApps[index % Self.realApps.count]
        var options = CodegenOptions(bundleIdentifier: app.bundle, appVersion: app.version, seed: Self.seed(Self.realSeeds[index]))
        options.entryPoints = 3
        return options
    }

    /// The apps of the shared receipts, one generation each (device ids from `devices.json`).
    static let realApps: [(bundle: String, version: String)] = [
        ("dev.bonzer.weeka.app", "2"), ("com.nutcall.alert", "32"), ("com.nutcall.app-dev", "22"),
        ("org.getpure.pure-iphone", "15741"), ("com.tikhop.tpinappreceipt", "1"), ("net.zachariadis.cyclemaps", "32.3.1"),
    ]

    @Test("real receipts: every seed and entry point agrees with ReceiptValidator", .enabled(if: RealReceipts.available, Comment(rawValue: RealReceipts.skipMessage)), arguments: Self.realSeeds.indices)
    func realReceiptsAgree(index: Int) async throws {
        let app = Self.realApps[index % Self.realApps.count]
        let seed = Self.realSeeds[index]
        let options = Self.realOptions(index)
        let build = try await HarnessBuild(options)
        var valid = 0
        for name in RealReceipts.receiptNames {
            let receipt = try RealReceipts.bytes(name)
            for device in RealReceipts.devices(for: name) {
                let policy = ReceiptValidationPolicy(
                    bundleIdentifier: app.bundle, appVersion: app.version, device: try DeviceIdentifier(parsing: device))
                let expected = await Self.expected(receipt, policy)
                for entry in 1...options.entryPoints {
                    let status = try await build.status(receipt, device: device, now: Self.now, entry: entry)
                    #expect(status == (expected ? 0 : 1), "seed \(seed) entry \(entry): \(name) for \(device)")
                }
                if expected { valid += 1 }
            }
        }
        // Each app has at least one of its own receipts valid on its device (the ones with device ids), or none.
        if ["dev.bonzer.weeka.app", "com.nutcall.alert", "com.nutcall.app-dev"].contains(app.bundle) {
            #expect(valid >= 1, "no receipt of \(app.bundle) was valid: the positive path is not exercised")
        }
    }

    // MARK: - Minted and tampered receipts

    static let device = "DEADBEEF-0001-0203-0405-060708090A0B"
    static let creation = Date(timeIntervalSince1970: 1_700_000_000)

    static func receipt(
        bundle: String = "com.example.app", version: String = "42", products: [String] = ["com.example.app.pro"],
        expiration: Date? = nil, device: String = Self.device
    ) throws -> AppReceipt {
        var receipt = AppReceipt(
            environment: .production, appItemIdentifier: 1, bundleIdentifier: bundle, appVersion: version,
            opaqueValue: [0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80], creationDate: Self.creation,
            originalAppVersion: "1.0",
            inAppPurchases: products.enumerated().map { i, product in
                InAppPurchase(quantity: 1, productIdentifier: product, transactionIdentifier: "100000000000000\(i)",
                              purchaseDate: Self.creation, originalTransactionIdentifier: "100000000000000\(i)")
            }
        )
        receipt.expirationDate = expiration
        return ReceiptMinter.settingDeviceHash(of: receipt, for: try DeviceIdentifier(parsing: device))
    }

    static func fingerprint(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return Array(SHA256.hash(data: serializer.serializedBytes))
    }

    @Test("minted and tampered receipts: every entry point agrees with ReceiptValidator", arguments: Self.mintedSeeds)
    func mintedReceiptsAgree(seed: Int) async throws {
        let ca = try TestCertificateAuthority()
        var options = CodegenOptions(bundleIdentifier: "com.example.app", appVersion: "42", seed: Self.seed(seed))
        options.rootFingerprint = try Self.fingerprint(ca.root.certificate)
        options.requiredProducts = ["com.example.app.pro"]
        let build = try await HarnessBuild(options)
        let policy = ReceiptValidationPolicy(
            anchors: AppStoreTrustAnchors([ca.root.certificate]), bundleIdentifier: "com.example.app", appVersion: "42",
            device: try DeviceIdentifier(parsing: Self.device))

        let expiredLeaf = try TestCertificateAuthority(
            leafValidity: DateInterval(start: Date(timeIntervalSince1970: 1_500_000_000), end: Date(timeIntervalSince1970: 1_600_000_000)))
        let unmarked = try TestCertificateAuthority(leafHasReceiptSigningMarker: false)
        let unmarkedIntermediate = try TestCertificateAuthority(intermediateHasWWDRMarker: false)
        let impostor = try TestCertificateAuthority()  // the same names, other keys: its root is not the pinned one
        let good = try Self.receipt()

        var cases: [(String, [UInt8], Bool)] = []
        for digest in [ReceiptMinter.Digest.sha1, .sha256] {
            for attributes in [false, true] {
                for style in [ReceiptMinter.Style.appStore, .xcode] {
                    let options = ReceiptMinter.Options(style: style, digest: digest, signedAttributes: attributes)
                    cases.append(("\(digest) \(attributes) \(style)", try ReceiptMinter.mint(good, signer: ca.receiptSigner, options: options), true))
                }
            }
        }
        let faults: [(String, ReceiptMinter.Fault)] = [
            ("corrupt signature", .corruptSignature), ("content altered", .alterContentAfterSigning), ("truncated", .truncate),
            ("wrong message digest", .wrongMessageDigest), ("duplicate message digest", .duplicateMessageDigest),
            ("missing content type", .missingContentType), ("duplicate content type", .duplicateContentType),
        ]
        for (name, fault) in faults {
            let options = ReceiptMinter.Options(signedAttributes: true, fault: fault)
            cases.append((name, try ReceiptMinter.mint(good, signer: ca.receiptSigner, options: options), false))
        }
        var flipped = try ReceiptMinter.mint(good, signer: ca.receiptSigner)
        if let at = flipped.indices.dropFirst(flipped.count / 3).first { flipped[at] ^= 0x01 }
        cases.append(("flipped payload byte", flipped, false))
        cases += [
            ("other bundle id", try ReceiptMinter.mint(try Self.receipt(bundle: "com.example.other"), signer: ca.receiptSigner), false),
            ("other version", try ReceiptMinter.mint(try Self.receipt(version: "43"), signer: ca.receiptSigner), false),
            ("other device", try ReceiptMinter.mint(try Self.receipt(device: "00000000-0000-0000-0000-000000000001"), signer: ca.receiptSigner), false),
            ("VPP expired", try ReceiptMinter.mint(try Self.receipt(expiration: Date(timeIntervalSince1970: 1_710_000_000)), signer: ca.receiptSigner), false),
            ("VPP not expired", try ReceiptMinter.mint(try Self.receipt(expiration: Date(timeIntervalSince1970: 1_800_000_000)), signer: ca.receiptSigner), true),
            ("required product missing", try ReceiptMinter.mint(try Self.receipt(products: ["com.example.app.lite"]), signer: ca.receiptSigner), false),
            ("expired leaf", try ReceiptMinter.mint(good, signer: expiredLeaf.receiptSigner), false),
            ("leaf without marker", try ReceiptMinter.mint(good, signer: unmarked.receiptSigner), false),
            ("intermediate without marker", try ReceiptMinter.mint(good, signer: unmarkedIntermediate.receiptSigner), false),
            ("impostor root", try ReceiptMinter.mint(good, signer: impostor.receiptSigner), false),
            ("not a receipt", Array("MIIC hello".utf8), false),
            ("empty", [], false),
        ]

        for (name, receipt, intended) in cases {
            let expected = await Self.expected(receipt, policy, products: options.requiredProducts)
            #expect(expected == intended, "\(name): ReceiptValidator says \(expected)")
            for entry in 1...options.entryPoints {
                let status = try await build.status(receipt, device: Self.device, now: Self.now, entry: entry)
                #expect(status == (expected ? 0 : 1), "seed \(seed) entry \(entry): \(name)")
            }
        }
    }

    @Test("Xcode receipts: accepted only by a generation that allows them, like ReceiptValidator")
    func xcodeReceiptsNeedTheOptIn() async throws {
        let storeKit = try TestCertificateAuthority.storeKitStyleSigner()
        let ca = try TestCertificateAuthority()
        var receipt = try Self.receipt()
        receipt.environment = .xcode
        let xcodeReceipt = try ReceiptMinter.mint(receipt, signer: storeKit, options: .init(style: .xcode))
        let other = try ReceiptMinter.mint(try Self.receipt(device: "00000000-0000-0000-0000-000000000001"), signer: storeKit,
                                           options: .init(style: .xcode))
        let appStore = try ReceiptMinter.mint(try Self.receipt(), signer: ca.receiptSigner)

        var options = CodegenOptions(bundleIdentifier: "com.example.app", appVersion: "42", seed: Self.seed(30))
        options.rootFingerprint = try Self.fingerprint(ca.root.certificate)
        options.xcodeFingerprint = try Self.fingerprint(storeKit.identity.certificate)
        options.allowsXcodeReceipts = true
        let allowing = try await HarnessBuild(options)
        options.allowsXcodeReceipts = false
        options.seed = Self.seed(31)
        let refusing = try await HarnessBuild(options)

        let device = try DeviceIdentifier(parsing: Self.device)
        let allowed = ReceiptValidationPolicy(
            anchors: AppStoreTrustAnchors([ca.root.certificate, storeKit.identity.certificate]), allowsXcodeReceipts: true,
            bundleIdentifier: "com.example.app", appVersion: "42", device: device)
        let refused = ReceiptValidationPolicy(
            anchors: AppStoreTrustAnchors([ca.root.certificate]), bundleIdentifier: "com.example.app", appVersion: "42", device: device)
        for (name, bytes, allowedVerdict, refusedVerdict) in [
            ("Xcode receipt", xcodeReceipt, true, false), ("Xcode receipt, other device", other, false, false),
            ("App Store receipt", appStore, true, true),
        ] {
            #expect(await Self.expected(bytes, allowed) == allowedVerdict, "\(name)")
            #expect(await Self.expected(bytes, refused) == refusedVerdict, "\(name)")
            for entry in 1...3 {
                #expect(try await allowing.status(bytes, device: Self.device, now: Self.now, entry: entry) == (allowedVerdict ? 0 : 1), "\(name)")
                #expect(try await refusing.status(bytes, device: Self.device, now: Self.now, entry: entry) == (refusedVerdict ? 0 : 1), "\(name)")
            }
        }
    }
}
