import AppStorePKI
import ArgumentParser
import Foundation
import ReceiptKit
import X509

struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Verify receipts' signatures and chains, and check app identity, device and expiration.",
        discussion: """
            One input file prints VALID or INVALID: <reason codes> (or a JSON object with --json). Several inputs, \
            a directory (read recursively: .der, .receipt, .b64, .base64 files and files named receipt; symbolic \
            links to files are read, to directories not followed), --files-from or --lines make a batch: inputs \
            are read as a stream, validated in parallel, and each prints one JSON line (in completion order, or \
            input order with --ordered), with progress on a terminal and a summary on standard error.
            Reason codes: signature_invalid, certificate_untrusted, certificate_expired, \
            signer_not_receipt_signing, xcode_receipt_not_allowed, bundle_id_mismatch, app_version_mismatch, \
            device_hash_mismatch, receipt_expired.
            """
    )

    @Flag(help: "Print JSON: {\"valid\":…,\"reasons\":[…],\"environment\":…,\"receipt\":{…}}.")
    var json = false

    @Flag(help: "The inputs are base64 text (detected automatically otherwise).")
    var base64 = false

    @Option(
        name: .customLong("app"),
        help: "A macOS .app bundle: the startup check (its receipt against its Info.plist); no other inputs."
    )
    var app: String?

    @Option(name: .customLong("bundle-id"), help: "The bundle identifier the receipt must carry.")
    var bundleIdentifier: String?

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

    @OptionGroup
    var batch: BatchInputOptions

    func validate() throws {
        if self.app == nil, self.batch.isEmpty {
            throw ValidationError("give at least one receipt file or directory, --files-from, --lines, or --app")
        }
        if self.app != nil, !self.batch.isEmpty {
            throw ValidationError("--app validates the bundle's own receipt: give no other inputs")
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
        let anchorCertificates = try AnchorFiles.certificates(self.anchors)
        let device = try self.deviceID.map { try DeviceIdentifier(parsing: $0) }
        let now = self.now.flatMap(RFC3339.date) ?? Date()
        let base64 = self.base64 ? true : nil

        if let app = self.app {
            let bundle: ApplicationBundle
            do {
                bundle = try ApplicationBundle(path: app)
            } catch {
                StandardError.write("receiptkit: --app \(app): \(error.code): \(error.reason)\n")
                throw InputFailure(error).status.exitCode
            }
            // The library's startup check, with this command's options applied on top.
            var policy = ReceiptStartupCheck.policy(for: bundle, device: device, anchors: AppStoreTrustAnchors(anchorCertificates))
            self.apply(to: &policy)
            let outcome: Outcome
            switch await ReceiptStartupCheck.evaluate(bundle: bundle, policy: policy, now: now) {
            case .success(let result): outcome = .validated(result)
            case .failure(let failure): outcome = .failed(InputFailure(failure))
            }
            self.print(outcome, path: bundle.receiptPath)
            throw outcome.status.exitCode
        }

        var policy = ReceiptValidationPolicy(anchors: AppStoreTrustAnchors(anchorCertificates), device: device)
        self.apply(to: &policy)
        let validator = ReceiptValidator(policy: policy)

        if let path = self.batch.singleInput {
            let outcome = await Self.validate(path, validator: validator, now: now, base64: base64)
            self.print(outcome, path: path)
            throw outcome.status.exitCode
        }

        let worst = await BatchValidation(
            inputs: self.batch.batchInputs,
            options: self.batch.sourceOptions,
            jobs: self.batch.jobCount,
            ordered: self.batch.ordered,
            makeWorker: {
                // Each worker validates with its own trust cache: workers sharing cached certificates would contend
                // on their reference counts on every receipt (a few milliseconds per worker to fill it once).
                let own = ReceiptValidator(policy: validator.policy, cache: AppStoreTrustCache())
                return { item in await Self.validate(item, validator: own, now: now, base64: base64) }
            }
        ).run()
        throw worst.exitCode
    }

    /// The options every validation shares: expected identity (overriding a bundle's), Xcode receipts, chain time.
    private func apply(to policy: inout ReceiptValidationPolicy) {
        policy.allowsXcodeReceipts = self.allowXcode
        if let bundleIdentifier = self.bundleIdentifier { policy.bundleIdentifier = bundleIdentifier }
        if let appVersion = self.appVersion { policy.appVersion = appVersion }
        switch self.at {
        case "creation": policy.trustEvaluationTime = .receiptCreationDate
        case "now": policy.trustEvaluationTime = .now
        default: policy.trustEvaluationTime = .fixed(RFC3339.date(self.at) ?? Date())
        }
    }

    private func print(_ outcome: Outcome, path: String) {
        if self.json {
            Swift.print(String(decoding: outcome.report(file: nil).jsonLine(), as: UTF8.self), terminator: "")
        } else {
            outcome.printText(path: path)
        }
    }

    /// The outcome of one batch input; `nil` for an entry to skip (a symbolic link to a directory).
    static func validate(_ item: ReceiptBatchSource.Item, validator: ReceiptValidator, now: Date, base64: Bool?) async -> Outcome? {
        let contents: [UInt8]
        do {
            guard let read = try item.contents() else { return nil }
            contents = read
        } catch {
            return .failed(error)
        }
        return await Self.validate(contents, validator: validator, now: now, base64: item.base64 ?? base64)
    }

    static func validate(_ path: String, validator: ReceiptValidator, now: Date, base64: Bool?) async -> Outcome {
        do {
            return await Self.validate(try ReceiptFile.contents(atPath: path), validator: validator, now: now, base64: base64)
        } catch {
            return .failed(InputFailure(error))
        }
    }

    private static func validate(_ contents: [UInt8], validator: ReceiptValidator, now: Date, base64: Bool?) async -> Outcome {
        do {
            let bytes = try ReceiptInput.normalized(contents, base64: base64)
            return .validated(try await validator.validate(bytes, now: now))
        } catch {
            return .failed(InputFailure(error))
        }
    }
}
