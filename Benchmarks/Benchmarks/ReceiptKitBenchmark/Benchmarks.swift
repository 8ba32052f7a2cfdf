import AppStorePKI
import AppStoreJWS
import Benchmark
import Crypto
import Foundation
import ReceiptKit
import ReceiptKitTesting
import ServerTrust
import X509

/// Receipts and chains are made in setup, outside the measured loops; results go to `blackHole`. Thresholds gate
/// allocation counts (stable across machines), not time. Names are shell-safe: package-benchmark 1.38 writes
/// threshold files under shell-safe names but looks them up by the raw name.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 1_000_000,
        thresholds: [.mallocCountTotal: .init(relative: [.p90: 5.0])]
    )

    Benchmark("ParseReceipt_4_purchases_SHA256") { benchmark in
        let bytes = Fixtures.small
        for _ in benchmark.scaledIterations {
            blackHole(try AppReceipt(berEncoded: bytes))
        }
    }

    Benchmark("ParseReceipt_187_purchases_SHA1") { benchmark in
        let bytes = Fixtures.large
        for _ in benchmark.scaledIterations {
            blackHole(try AppReceipt(berEncoded: bytes))
        }
    }

    Benchmark("ValidateReceipt_4_purchases_cached_chain") { benchmark in
        let bytes = Fixtures.small
        let validator = Fixtures.validator
        for _ in benchmark.scaledIterations {
            blackHole(try await validator.validate(bytes, now: Fixtures.now))
        }
    }

    Benchmark("ValidateReceipt_187_purchases_cached_chain") { benchmark in
        let bytes = Fixtures.large
        let validator = Fixtures.validator
        for _ in benchmark.scaledIterations {
            blackHole(try await validator.validate(bytes, now: Fixtures.now))
        }
    }

    Benchmark("VerifyJWS_transaction_cached_chain") { benchmark in
        let jws = Fixtures.jws
        for _ in benchmark.scaledIterations {
            blackHole(try await jws.verifier.verify(jws.transaction, as: JWSTransactionPayload.self, now: Fixtures.now))
        }
    }

    Benchmark("EvaluateServerTrust_3_certificates_key_pin") { benchmark in
        let chain = Fixtures.tls
        for _ in benchmark.scaledIterations {
            blackHole(await chain.evaluator.evaluate(chain: chain.presented, for: .host("localhost"), at: Fixtures.now))
        }
    }
}

enum Fixtures {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    /// A transaction JWS signed by a P-256 test authority, and a verifier trusting it whose cache holds its chain.
    static let jws: (transaction: String, verifier: JWSVerifier) = {
        guard let authority = try? JWSTestAuthority() else { preconditionFailure("JWS test authority") }
        let payload = JWSSamplePayload.transaction(
            bundleIdentifier: "com.example.app", productID: "com.example.app.pro", transactionID: "2000000000000001",
            purchaseDate: now, signedDate: now
        )
        guard let transaction = try? JWSMinter.sign(payload, signer: authority.leaf, chain: authority.chain) else {
            preconditionFailure("JWS minting")
        }
        let verifier = JWSVerifier(
            policy: JWSVerificationPolicy(anchors: AppStoreTrustAnchors([authority.root.certificate])),
            cache: AppStoreTrustCache()
        )
        return (transaction, verifier)
    }()
    static let authority: TestCertificateAuthority = {
        guard let authority = try? TestCertificateAuthority() else { preconditionFailure("test CA") }
        return authority
    }()

    static func receipt(purchases: Int) -> AppReceipt {
        let purchase = InAppPurchase(
            quantity: 1,
            productIdentifier: "com.example.app.monthly",
            transactionIdentifier: "1000000637840752",
            purchaseDate: now,
            originalTransactionIdentifier: "1000000603177571",
            originalPurchaseDate: now,
            productType: 3,
            expiresDate: now,
            webOrderLineItemIdentifier: 1_000_000_048_877_195,
            isTrialPeriod: false,
            isInIntroOfferPeriod: false,
            otherAttributes: (1714...1718).map { ReceiptAttribute(type: Int64($0), value: [0x02, 0x01, 0x00]) }
        )
        return AppReceipt(
            environment: .production,
            bundleIdentifier: "com.example.app",
            appVersion: "1",
            opaqueValue: Array(0..<16),
            sha1Hash: Array(0..<20),
            creationDate: Date(timeIntervalSince1970: 1_700_000_000),
            inAppPurchases: Array(repeating: purchase, count: purchases)
        )
    }

    static let small: [UInt8] = mint(receipt(purchases: 4), .sha256)
    static let large: [UInt8] = mint(receipt(purchases: 187), .sha1)

    static func mint(_ receipt: AppReceipt, _ digest: ReceiptMinter.Digest) -> [UInt8] {
        guard let bytes = try? ReceiptMinter.mint(receipt, signer: authority.receiptSigner, options: .init(digest: digest))
        else { preconditionFailure("mint") }
        return bytes
    }

    static let validator = ReceiptValidator(
        policy: ReceiptValidationPolicy(anchors: AppStoreTrustAnchors([authority.root.certificate])),
        cache: AppStoreTrustCache()
    )

    struct TLS: Sendable {
        var evaluator: ServerTrustEvaluator
        var presented: [Certificate]
    }

    static let tls: TLS = {
        do {
            let rootKey = P256.Signing.PrivateKey()
            let intermediateKey = P256.Signing.PrivateKey()
            let leafKey = P256.Signing.PrivateKey()
            let rootName = try DistinguishedName { CommonName("Bench Root") }
            let intermediateName = try DistinguishedName { CommonName("Bench Intermediate") }
            let window = (Date(timeIntervalSince1970: 1_577_836_800), Date(timeIntervalSince1970: 1_893_456_000))
            // A Web PKI–conformant chain (key identifiers, serverAuth): the default profile trusts it.
            func identifier(_ key: P256.Signing.PrivateKey) -> ArraySlice<UInt8> {
                ArraySlice(Insecure.SHA1.hash(data: key.publicKey.derRepresentation))
            }
            func ca(_ key: P256.Signing.PrivateKey, issuer: P256.Signing.PrivateKey?) throws -> Certificate.Extensions {
                try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                    Critical(KeyUsage(keyCertSign: true))
                    SubjectKeyIdentifier(keyIdentifier: identifier(key))
                    if let issuer { AuthorityKeyIdentifier(keyIdentifier: identifier(issuer)) }
                }
            }
            let root = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey),
                notValidBefore: window.0, notValidAfter: window.1, issuer: rootName, subject: rootName,
                signatureAlgorithm: .ecdsaWithSHA256, extensions: try ca(rootKey, issuer: nil), issuerPrivateKey: .init(rootKey))
            let intermediate = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(intermediateKey.publicKey),
                notValidBefore: window.0, notValidAfter: window.1, issuer: rootName, subject: intermediateName,
                signatureAlgorithm: .ecdsaWithSHA256, extensions: try ca(intermediateKey, issuer: rootKey),
                issuerPrivateKey: .init(rootKey))
            let leaf = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey),
                notValidBefore: window.0, notValidAfter: window.1, issuer: intermediateName,
                subject: try DistinguishedName { CommonName("localhost") },
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    SubjectAlternativeNames([.dnsName("localhost")])
                    AuthorityKeyIdentifier(keyIdentifier: identifier(intermediateKey))
                    try ExtendedKeyUsage([.serverAuth])
                },
                issuerPrivateKey: .init(intermediateKey))
            guard let pin = PublicKeyPin(publicKeyOf: intermediate) else { preconditionFailure("pin") }
            let policy = try ServerTrustPolicy(mode: .publicKey, pins: [pin], requiresBackupPin: false)
            return TLS(
                evaluator: ServerTrustEvaluator(policies: ServerTrustPolicies(policy), anchors: [root]),
                presented: [leaf, intermediate]
            )
        } catch {
            preconditionFailure("benchmark chain: \(error)")
        }
    }()
}
