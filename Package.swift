// swift-tools-version:6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "ReceiptKit",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "AppStorePKI", targets: ["AppStorePKI"]),
        .library(name: "ReceiptKit", targets: ["ReceiptKit"]),
        .library(name: "ReceiptKitTesting", targets: ["ReceiptKitTesting"]),
        .library(name: "AppStoreServerAPISimulator", targets: ["AppStoreServerAPISimulator"]),
        .library(name: "AppStoreJWS", targets: ["AppStoreJWS"]),
        .library(name: "AppStoreJWSOCSP", targets: ["AppStoreJWSOCSP"]),
        .library(name: "AppStoreServerAPI", targets: ["AppStoreServerAPI"]),
        .library(name: "ServerTrust", targets: ["ServerTrust"]),
        .library(name: "ServerTrustNIO", targets: ["ServerTrustNIO"]),
        .library(name: "ReceiptLedger", targets: ["ReceiptLedger"]),
        .library(name: "ReceiptService", targets: ["ReceiptService"]),
        .library(name: "ReceiptCodegen", targets: ["ReceiptCodegen"]),
        .executable(name: "receiptkit", targets: ["receiptkit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // Documentation only (`swift package generate-documentation`, run by .ci/docs.sh); nothing links it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "AppStorePKI",
            dependencies: [
                "_ReceiptKitShared",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ReceiptKit",
            dependencies: [
                "AppStorePKI",
                "_ReceiptKitShared",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "AppStoreJWS",
            dependencies: [
                "AppStorePKI",
                "_ReceiptKitShared",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // OCSP over HTTP for AppStoreJWS's revocation check: the CLI's `jws verify` and the service use it.
        .target(
            name: "AppStoreJWSOCSP",
            dependencies: [
                "AppStoreJWS",
                "_ReceiptKitShared",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // A client for Apple's App Store Server API: ES256 bearer tokens, Apple's endpoints, retries, and every signed
        // value verified with AppStoreJWS before it is returned.
        .target(
            name: "AppStoreServerAPI",
            dependencies: [
                "AppStoreJWS",
                "AppStorePKI",
                "_ReceiptKitShared",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "_ReceiptKitShared",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ServerTrust",
            dependencies: [
                "_ReceiptKitShared",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ServerTrustNIO",
            dependencies: [
                "ServerTrust",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ReceiptLedger",
            dependencies: [
                "AppStorePKI",
                "AppStoreJWS",
                "ReceiptKit",
                "_ReceiptKitShared",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ReceiptService",
            dependencies: [
                "AppStorePKI",
                "AppStoreJWS",
                "AppStoreJWSOCSP",
                "AppStoreServerAPI",
                "ReceiptKit",
                "ReceiptLedger",
                "_ReceiptKitShared",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ReceiptCodegen",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ReceiptKitTesting",
            dependencies: [
                "AppStorePKI",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                "ReceiptKit",
                "AppStoreJWS",
                "_ReceiptKitShared",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        // A local App Store Server API (Hummingbird on 127.0.0.1) that serves data signed by ReceiptKitTesting's
        // JWS authority: its own product, so that minting pulls in no HTTP server.
        .target(
            name: "AppStoreServerAPISimulator",
            dependencies: [
                "AppStoreJWS",
                "AppStoreServerAPI",
                "AppStorePKI",
                "ReceiptKitTesting",
                "_ReceiptKitShared",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "receiptkit",
            dependencies: [
                "AppStorePKI",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                "ReceiptKit",
                "AppStoreJWS",
                "AppStoreJWSOCSP",
                "AppStoreServerAPI",
                "AppStoreServerAPISimulator",
                "_ReceiptKitShared",
                "ReceiptKitTesting",
                "ServerTrust",
                "ReceiptLedger",
                "ReceiptService",
                "ReceiptCodegen",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "PinnedFetch",
            dependencies: [
                "ServerTrust",
                "ServerTrustNIO",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/PinnedFetch",
            swiftSettings: strictSettings
        ),
        // The real receipts next to the clone, for the test targets (not a product).
        .target(name: "SharedFixtures", dependencies: ["ReceiptKitTesting"], path: "Tests/SharedFixtures", swiftSettings: strictSettings),
        // A scripted HTTPTransport and a pinned clock for App Store Server API clients, for the test targets.
        .target(
            name: "APITestSupport",
            dependencies: [
                "AppStoreServerAPI",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Tests/APITestSupport",
            swiftSettings: strictSettings
        ),
        // Scripted HTTP/1.1 servers on 127.0.0.1 and a refusing port, for the HTTP transports' tests.
        .target(
            name: "LoopbackHTTPSupport",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/LoopbackHTTPSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AppStoreJWSOCSPTests",
            dependencies: [
                "AppStoreJWSOCSP",
                "LoopbackHTTPSupport",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // The receipt test PKI, OpenSSL as an independent verifier and the typed-error expectation, for the
        // receipt and minting tests.
        .target(
            name: "ReceiptTestSupport",
            dependencies: [
                "AppStorePKI",
                "ReceiptKit",
                "ReceiptKitTesting",
                .product(name: "X509", package: "swift-certificates"),
            ],
            path: "Tests/ReceiptTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ReceiptKitSharedTests",
            dependencies: ["_ReceiptKitShared", "ReceiptTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AppStorePKITests",
            dependencies: [
                "AppStorePKI",
                "ReceiptKitTesting",
                "_ReceiptKitShared",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ReceiptKitTestingTests",
            dependencies: [
                "ReceiptTestSupport", "SharedFixtures", "_ReceiptKitShared", "AppStoreJWS",
                "AppStorePKI",
                "ReceiptKit",
                "ReceiptKitTesting",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ReceiptKitTests",
            dependencies: [
                "SharedFixtures",
                "ReceiptTestSupport",
                "AppStorePKI",
                "ReceiptKit",
                "ReceiptKitTesting",
                "_ReceiptKitShared",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AppStoreJWSTests",
            dependencies: [
                "AppStorePKI",
                "AppStoreJWS",
                "ReceiptKit",
                "ReceiptKitTesting",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AppStoreServerAPITests",
            dependencies: [
                "APITestSupport",
                "LoopbackHTTPSupport",
                "SharedFixtures",
                "AppStorePKI",
                "AppStoreJWS",
                "AppStoreServerAPI",
                "ReceiptKitTesting",
                "_ReceiptKitShared",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AppStoreServerAPISimulatorTests",
            dependencies: [
                "AppStorePKI",
                "AppStoreJWS",
                "AppStoreServerAPISimulator",
                "ReceiptKitTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // Certificates for server-trust scenarios (P-256, valid 2020-2030), for ServerTrust's and ServerTrustNIO's tests.
        .target(
            name: "TLSTestSupport",
            dependencies: [
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/TLSTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ServerTrustTests",
            dependencies: [
                "ServerTrust",
                "TLSTestSupport",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ServerTrustNIOTests",
            dependencies: [
                "ServerTrust",
                "ServerTrustNIO",
                "TLSTestSupport",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strictSettings
        ),
        // The ledgers every backend test runs against, and receipts minted with the test CA, for the ledger's and
        // the service's test targets.
        .target(
            name: "LedgerTestSupport",
            dependencies: [
                "ReceiptKit",
                "ReceiptKitTesting",
                "ReceiptLedger",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            path: "Tests/LedgerTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ReceiptLedgerTests",
            dependencies: [
                "LedgerTestSupport",
                "AppStorePKI",
                "AppStoreJWS",
                "ReceiptKit",
                "ReceiptKitTesting",
                "ReceiptLedger",
                "_ReceiptKitShared",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ReceiptServiceTests",
            dependencies: [
                "APITestSupport",
                "LedgerTestSupport",
                "LoopbackHTTPSupport",
                "AppStoreServerAPI",
                "SharedFixtures",
                "AppStorePKI",
                "AppStoreJWS",
                "AppStoreJWSOCSP",
                "ReceiptKit",
                "ReceiptKitTesting",
                "AppStoreServerAPISimulator",
                "ReceiptLedger",
                "ReceiptService",
                "_ReceiptKitShared",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ReceiptCodegenTests",
            dependencies: [
                "SharedFixtures",
                "ReceiptCodegen", "AppStorePKI", "ReceiptKit", "ReceiptKitTesting",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ReceiptKitCLITests",
            dependencies: [
                "SharedFixtures", "LoopbackHTTPSupport", "LedgerTestSupport",
                "receiptkit", "ReceiptKitTesting", "AppStoreServerAPISimulator", "ReceiptKit", "ServerTrust",
                "AppStoreJWS", "ReceiptLedger", "ReceiptService", "_ReceiptKitShared",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
