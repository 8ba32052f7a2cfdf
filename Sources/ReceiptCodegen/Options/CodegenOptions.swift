/// What a generated validator checks, and how it is written.
///
/// ```swift
/// var options = CodegenOptions(bundleIdentifier: "com.example.app", appVersion: "1.2", seed: seed)
/// options.requiredProducts = ["com.example.app.pro"]
/// let generated = try ReceiptCodegenerator.generate(options)
/// ```
public struct CodegenOptions: Sendable {
    /// The bundle identifier the receipt must carry (compared as raw UTF-8 bytes).
    public var bundleIdentifier: String
    /// The app version the receipt must carry (`CFBundleShortVersionString` on macOS, `CFBundleVersion` on iOS).
    public var appVersion: String
    /// Whose glue the file carries (the other platform's is not written).
    public var platform: CodegenPlatform = .macOS
    /// The generation's seed: the same seed and options give the same file, byte for byte.
    public var seed: [UInt8]
    /// How many independent implementations of the whole validation the file carries (1–8).
    public var entryPoints: Int = 3
    /// What the glue does after the checks pass.
    public var onSuccess: SuccessBehaviour = .run
    /// What the glue does after a check fails.
    public var onFailure: FailureBehaviour = .exit173
    /// Where the receipt is read from, relative to the app bundle, instead of the platform's default.
    public var receiptPath: String?
    /// Product identifiers that must each appear in an in-app purchase of the receipt.
    public var requiredProducts: [String] = []
    /// SHA-256 of the trusted root certificate (the receipt must carry it): Apple Inc. Root by default; tests pass
    /// their own CA's.
    public var rootFingerprint: [UInt8] = CodegenOptions.appleIncRootFingerprint
    /// Whether receipts signed by Xcode's StoreKit testing certificate are accepted (never in a release build).
    public var allowsXcodeReceipts = false
    /// SHA-256 of the self-signed certificate Xcode receipts are signed with, when they are allowed: Xcode's
    /// StoreKit testing certificate by default; tests pass their own StoreKit-style signer's.
    public var xcodeFingerprint: [UInt8] = CodegenOptions.xcodeStoreKitFingerprint
    /// The name of the one function the app calls (internal; stripped from release builds with the others).
    public var functionName = "checkAppStoreReceipt"

    /// Creates options with the defaults.
    public init(bundleIdentifier: String, appVersion: String, seed: [UInt8]) {
        self.bundleIdentifier = bundleIdentifier
        self.appVersion = appVersion
        self.seed = seed
    }

    /// SHA-256 of Xcode's StoreKit testing certificate (2020–2040).
    public static let xcodeStoreKitFingerprint: [UInt8] = [
        0xff, 0x0b, 0xa3, 0x6e, 0x72, 0x1d, 0x2d, 0xb7, 0x41, 0xd2, 0xaa, 0x11, 0xe6, 0x11, 0x2e, 0xf7,
        0x8b, 0xf7, 0x13, 0x1b, 0x46, 0xc7, 0xf0, 0x35, 0xb0, 0x08, 0x91, 0xd0, 0x45, 0xc8, 0x64, 0xfe,
    ]

    /// SHA-256 of Apple Inc. Root Certificate.
    public static let appleIncRootFingerprint: [UInt8] = [
        0xb0, 0xb1, 0x73, 0x0e, 0xcb, 0xc7, 0xff, 0x45, 0x05, 0x14, 0x2c, 0x49, 0xf1, 0x29, 0x5e, 0x6e,
        0xda, 0x6b, 0xca, 0xed, 0x7e, 0x2c, 0x68, 0xc5, 0xbe, 0x91, 0xb5, 0xa1, 0x10, 0x01, 0xf0, 0x24,
    ]
}
