import ArgumentParser
import Foundation
import ReceiptCodegen
import X509
import _ReceiptKitShared

struct CodegenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codegen",
        abstract: "Generate a receipt validator unique to one app: self-contained Swift source, obfuscated, several independent checks.",
        discussion: """
            The output uses the standard library and Foundation only (no ReceiptKit, swift-crypto, CryptoKit, Security \
            or OpenSSL): its own DER reader, SHA-1, SHA-256, RSA and X.509, checking the chain to Apple's root (pinned \
            by SHA-256) at the receipt's creation date, the bundle id, the version, the device hash, VPP expiration and \
            the required products. Every sensitive value is masked and rebuilt at run time; names, primitive \
            implementations, the order of checks and functions, opaque predicates and decoys change with the seed, and \
            each generation spells its code in a dialect of its own (predicates, decoys, comparisons, guards). \
            Same seed and options: the same file, byte for byte. Without --seed a random seed is used and printed to \
            standard error (never into the file).

            --emit-harness DIR writes a SwiftPM package around the generated file whose executable `harness RECEIPT \
            DEVICE-ID [--now RFC3339] [--entry N] [--repeat N]` exits 0 when the receipt is valid for the app and \
            device, 1 when not (--repeat: validate N times more and print the rate).
            """
    )

    @Option(name: .customLong("bundle-id"), help: "The app's bundle identifier.")
    var bundleIdentifier: String?

    @Option(help: "The app version the receipt must carry.")
    var version: String?

    @Option(help: "Read the bundle id and version from an application bundle's Info.plist.")
    var app: String?

    @Option(help: "macos or ios: whose glue (device id, receipt, failure) the file carries.")
    var platform: String = "macos"

    @Option(name: .customLong("version-key"), help: "With --app: short (CFBundleShortVersionString, macOS default) or build (CFBundleVersion, iOS default).")
    var versionKey: String?

    @Option(help: "The generation's seed, in hex (at least 16 digits).")
    var seed: String?

    @Option(name: .customLong("entry-points"), help: "Independent implementations of the validation in the file (1-8).")
    var entryPoints: Int = 3

    @Option(name: .customLong("on-success"), help: "run (macOS: start the app with NSApplicationMain), call (receiptValidationSucceeded()) or none.")
    var onSuccess: String = "run"

    @Option(name: .customLong("on-failure"), help: "exit173 (macOS; iOS refreshes the receipt), refresh-then-exit173, call (receiptValidationFailed()) or none.")
    var onFailure: String = "exit173"

    @Option(name: .customLong("receipt-path"), help: "Where the receipt is, relative to the app bundle (default: the platform's).")
    var receiptPath: String?

    @Option(name: .customLong("require-product"), help: "A product id the receipt must hold an in-app purchase of (repeatable).")
    var requiredProducts: [String] = []

    @Option(name: .customLong("anchor-cert"), help: "Trust this root certificate (DER or PEM) instead of Apple's (tests).")
    var anchorCert: String?

    @Flag(name: .customLong("allow-xcode"), help: "Accept receipts signed by Xcode's StoreKit testing certificate.")
    var allowXcode = false

    @Option(name: .customLong("function-name"), help: "The function the app calls.")
    var functionName: String = "checkAppStoreReceipt"

    @Option(help: "The Swift file to write.")
    var output: String?

    @Option(name: .customLong("emit-harness"), help: "A folder to write the test harness package into.")
    var emitHarness: String?

    func validate() throws {
        if (self.output == nil) == (self.emitHarness == nil) { throw ValidationError("give one of --output FILE or --emit-harness DIR") }
        if self.app == nil, self.bundleIdentifier == nil || self.version == nil {
            throw ValidationError("give --bundle-id and --version, or --app")
        }
        if CodegenPlatform(rawValue: self.platform) == nil { throw ValidationError("--platform takes macos or ios") }
        if let key = self.versionKey, key != "short", key != "build" { throw ValidationError("--version-key takes short or build") }
        if SuccessBehaviour(rawValue: self.onSuccess) == nil { throw ValidationError("--on-success takes run, call or none") }
        if FailureBehaviour(rawValue: self.onFailure) == nil {
            throw ValidationError("--on-failure takes exit173, refresh-then-exit173, call or none")
        }
        if let seed, (HexDigits.bytes(Substring(seed))?.count ?? 0) < 8 {
            throw ValidationError("--seed takes at least 16 hex digits")
        }
        if !(1...8).contains(self.entryPoints) { throw ValidationError("--entry-points takes 1 to 8") }
    }

    func run() throws {
        let platform = CodegenPlatform(rawValue: self.platform) ?? .macOS
        var bundle = self.bundleIdentifier
        var version = self.version
        if let app = self.app {
            let info = try Self.infoPlist(app)
            bundle = bundle ?? info["CFBundleIdentifier"] as? String
            let key = (self.versionKey ?? (platform == .macOS ? "short" : "build")) == "short" ? "CFBundleShortVersionString" : "CFBundleVersion"
            version = version ?? info[key] as? String
        }
        guard let bundle, let version else {
            StandardError.write("receiptkit: \(self.app ?? "") has no bundle identifier or version in its Info.plist\n")
            throw ExitStatus.malformed.exitCode
        }
        let seed: [UInt8]
        if let text = self.seed, let bytes = HexDigits.bytes(Substring(text)) {
            seed = bytes
        } else {
            var generator = SystemRandomNumberGenerator()
            seed = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            StandardError.write("receiptkit: seed \(HexDigits.string(seed)) (pass --seed to generate this file again)\n")
        }
        var options = CodegenOptions(bundleIdentifier: bundle, appVersion: version, seed: seed)
        options.platform = platform
        options.entryPoints = self.entryPoints
        options.onSuccess = SuccessBehaviour(rawValue: self.onSuccess) ?? .run
        options.onFailure = FailureBehaviour(rawValue: self.onFailure) ?? .exit173
        options.receiptPath = self.receiptPath
        options.requiredProducts = self.requiredProducts
        options.allowsXcodeReceipts = self.allowXcode
        options.functionName = self.functionName
        if let path = self.anchorCert {
            guard let certificate = try AnchorFiles.certificates([path], label: "--anchor-cert").first else {
                StandardError.write("receiptkit: --anchor-cert \(path): no certificate\n")
                throw ExitStatus.malformed.exitCode
            }
            options.rootFingerprint = CertificateFingerprint.sha256(certificate)
        }
        do {
            if let directory = self.emitHarness {
                let validator = try ReceiptCodegenerator.generateForHarness(options)
                try HarnessPackage.write(validator, to: URL(fileURLWithPath: directory))
                StandardError.write("receiptkit: wrote the harness package \(directory) (\(validator.entryPoints) entry points)\n")
            } else if let output = self.output {
                let validator = try ReceiptCodegenerator.generate(options)
                do {
                    try Data(validator.source.utf8).write(to: URL(fileURLWithPath: output))
                } catch {
                    StandardError.write("receiptkit: \(output): \(error.localizedDescription)\n")
                    throw ExitStatus.cannotCreate.exitCode
                }
                StandardError.write("receiptkit: wrote \(output) (\(validator.entryPoints) entry points)\n")
            }
        } catch let error as CodegenError {
            StandardError.write("receiptkit: \(error.code.rawValue): \(error.reason)\n")
            throw (error.code == .cannotWrite ? ExitStatus.cannotCreate : ExitStatus.usage).exitCode
        }
    }

    static func infoPlist(_ app: String) throws -> [String: Any] {
        let candidates = [app + "/Contents/Info.plist", app + "/Info.plist"]
        guard let path = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }),
            let data = FileManager.default.contents(atPath: path)
        else {
            StandardError.write("receiptkit: \(app) has no Contents/Info.plist or Info.plist\n")
            throw ExitStatus.unreadable.exitCode
        }
        guard let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any] else {
            StandardError.write("receiptkit: \(path) is not a property list\n")
            throw ExitStatus.malformed.exitCode
        }
        return plist
    }
}
