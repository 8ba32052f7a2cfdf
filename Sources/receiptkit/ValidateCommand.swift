import ArgumentParser
import Foundation
import ReceiptKit
import X509

struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Verify receipts' signatures and chains, and check app identity, device and expiration.",
        discussion: """
            One input prints VALID or INVALID: <reason codes> (or a JSON object with --json). Several inputs are \
            validated in parallel and print one JSON line each, with a summary on standard error.
            Reason codes: signature_invalid, certificate_untrusted, certificate_expired, \
            signer_not_receipt_signing, xcode_receipt_not_allowed, bundle_id_mismatch, app_version_mismatch, \
            device_hash_mismatch, receipt_expired.
            """
    )

    @Flag(help: "Print JSON: {\"valid\":…,\"reasons\":[…],\"environment\":…,\"receipt\":{…}}.")
    var json = false

    @Flag(help: "The inputs are base64 text (detected automatically otherwise).")
    var base64 = false

    @Option(name: .customLong("bundle-id"), help: "The bundle identifier the receipt must carry.")
    var bundleID: String?

    @Option(name: .customLong("app-version"), help: "The app version the receipt must carry.")
    var appVersion: String?

    @Option(
        name: .customLong("device-id"),
        help: "The device: a UUID, a MAC address (aa:bb:cc:dd:ee:ff), hex:… or base64:…."
    )
    var deviceID: String?

    @Option(name: .customLong("anchor"), help: "A trusted anchor certificate (DER or PEM; repeatable).")
    var anchors: [String] = []

    @Flag(name: .customLong("allow-xcode"), help: "Accept receipts signed by Xcode's StoreKit test certificate.")
    var allowXcode = false

    @Option(name: .customLong("at"), help: "When to validate the chain: creation (default), now, or an RFC 3339 time.")
    var at: String = "creation"

    @Option(name: .customLong("now"), help: "The current time (RFC 3339), for the VPP expiration check.")
    var now: String?

    @Option(name: .customLong("jobs"), help: "Receipts validated in parallel (default: all cores).")
    var jobs: Int?

    @Option(name: .customLong("app"), help: "A macOS .app bundle: validates its receipt against its Info.plist.")
    var app: String?

    @Argument(help: "Receipt files, or - for standard input.")
    var inputs: [String] = []

    func validate() throws {
        if self.app == nil, self.inputs.isEmpty {
            throw ValidationError("give at least one receipt file, or --app")
        }
        if let jobs, jobs < 1 {
            throw ValidationError("--jobs must be at least 1")
        }
        if self.at != "creation", self.at != "now", RFC3339.date(self.at) == nil {
            throw ValidationError("--at takes creation, now or an RFC 3339 time, not '\(self.at)'")
        }
        if let now, RFC3339.date(now) == nil {
            throw ValidationError("--now takes an RFC 3339 time, not '\(now)'")
        }
        if let deviceID {
            do { _ = try DeviceIdentifier(parsing: deviceID) } catch { throw ValidationError(error.reason) }
        }
    }

    func run() async throws {
        var policy = ReceiptValidationPolicy(
            allowsXcodeReceipts: self.allowXcode,
            bundleIdentifier: self.bundleID,
            appVersion: self.appVersion,
            device: try self.deviceID.map { try DeviceIdentifier(parsing: $0) }
        )
        switch self.at {
        case "creation": policy.trustEvaluationTime = .receiptCreationDate
        case "now": policy.trustEvaluationTime = .now
        default: policy.trustEvaluationTime = .fixed(RFC3339.date(self.at) ?? Date())
        }
        var anchorCertificates: [Certificate] = []
        for path in self.anchors {
            do {
                anchorCertificates += try ReceiptTrustAnchors.certificates(fromDEROrPEM: ReceiptFile.contents(atPath: path))
            } catch {
                StandardError.write("receiptkit: --anchor \(path): \(error.code): \(error.reason)\n")
                throw (error.code == .unreadableFile ? ExitStatus.unreadable : .malformed).exitCode
            }
        }
        policy.anchors = ReceiptTrustAnchors(anchorCertificates)

        var inputs = self.inputs.map { Input.file($0) }
        if let app = self.app {
            do {
                let bundle = try ApplicationBundle(path: app)
                policy.bundleIdentifier = policy.bundleIdentifier ?? bundle.bundleIdentifier
                policy.appVersion = policy.appVersion ?? bundle.shortVersion
                inputs.append(.file(bundle.receiptPath))
            } catch {
                StandardError.write("receiptkit: --app \(app): \(error.code): \(error.reason)\n")
                throw (error.code == .unreadableFile ? ExitStatus.unreadable : .malformed).exitCode
            }
        }

        let validator = ReceiptValidator(policy: policy)
        let now = self.now.flatMap(RFC3339.date) ?? Date()
        let base64 = self.base64 ? true : nil

        if inputs.count == 1, case .file(let path) = inputs[0] {
            let outcome = await Self.validate(path, validator: validator, now: now, base64: base64)
            if self.json {
                print(JSONOutput.line(outcome.report(file: nil)))
            } else {
                outcome.printText(path: path)
            }
            throw outcome.status.exitCode
        }

        let worst = await BatchValidation(
            paths: inputs.map { if case .file(let path) = $0 { return path } else { return "" } },
            jobs: self.jobs ?? ProcessInfo.processInfo.activeProcessorCount,
            validate: { path in await Self.validate(path, validator: validator, now: now, base64: base64) }
        ).run()
        throw worst.exitCode
    }

    enum Input {
        case file(String)
    }

    static func validate(_ path: String, validator: ReceiptValidator, now: Date, base64: Bool?) async -> Outcome {
        do {
            let bytes = try ReceiptInput.normalized(ReceiptFile.contents(atPath: path), base64: base64)
            return .validated(try await validator.validate(bytes, now: now))
        } catch {
            return .failed(error)
        }
    }
}
