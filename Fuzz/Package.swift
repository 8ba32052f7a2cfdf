// swift-tools-version:6.1
// libFuzzer harnesses for ReceiptKit. Build and run with ./run.sh TARGET SECONDS (Linux).
import PackageDescription

let harness: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "ReceiptKitFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "ReceiptKit", path: ".."),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
    ],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "AppStorePKI", package: "ReceiptKit"),
                .product(name: "ReceiptKit", package: "ReceiptKit"),
                .product(name: "ReceiptKitTesting", package: "ReceiptKit"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        .executableTarget(name: "FuzzDecode", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzValidate", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzChain", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzMintRoundTrip", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(
            name: "FuzzJWS",
            dependencies: [
                .product(name: "AppStorePKI", package: "ReceiptKit"),
                .product(name: "AppStoreJWS", package: "ReceiptKit"),
                .product(name: "ReceiptKit", package: "ReceiptKit"),
                .product(name: "ReceiptKitTesting", package: "ReceiptKit"),
            ],
            swiftSettings: harness
        ),
        .executableTarget(
            name: "FuzzServerTrust",
            dependencies: [
                .product(name: "ServerTrust", package: "ReceiptKit"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: harness
        ),
    ],
    swiftLanguageModes: [.v6]
)
