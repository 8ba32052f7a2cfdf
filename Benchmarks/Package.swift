// swift-tools-version:6.1
// Benchmarks for ReceiptKit, in their own package so the main package never depends on the benchmark harness.
// Run: cd Benchmarks && swift package benchmark     Thresholds: ./update-thresholds.sh, swift package benchmark thresholds check
import PackageDescription

let package = Package(
    name: "ReceiptKitBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "ReceiptKit", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        .executableTarget(
            name: "ReceiptKitBenchmark",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "AppStorePKI", package: "ReceiptKit"),
                .product(name: "AppStoreJWS", package: "ReceiptKit"),
                .product(name: "ReceiptKit", package: "ReceiptKit"),
                .product(name: "ReceiptKitTesting", package: "ReceiptKit"),
                .product(name: "ServerTrust", package: "ReceiptKit"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Benchmarks/ReceiptKitBenchmark",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The App Store Server API simulator as a process, for Benchmarks/serve/ledger-path.sh.
        .executableTarget(
            name: "api-simulator",
            dependencies: [
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AppStoreJWS", package: "ReceiptKit"),
                .product(name: "ReceiptKit", package: "ReceiptKit"),
                .product(name: "ReceiptKitTesting", package: "ReceiptKit"),
                .product(name: "AppStoreServerAPISimulator", package: "ReceiptKit"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Tools/APISimulator"
        ),
    ],
    swiftLanguageModes: [.v6]
)
