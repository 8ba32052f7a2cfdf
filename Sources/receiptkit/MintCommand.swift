import ArgumentParser
import Foundation
import ReceiptKit
import ReceiptKitTesting

struct MintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mint",
        abstract: "Create test certificate authorities, signed test receipts and signed App Store JWS.",
        subcommands: [MintCA.self, MintReceipt.self, MintJWSCA.self, MintJWS.self]
    )
}

struct MintCA: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ca",
        abstract: "Create a test PKI shaped like Apple's (root → WWDR-marked intermediate → receipt-signing leaf)."
    )

    @OptionGroup var output: AuthorityOutput

    func run() throws {
        try self.output.save(try TestCertificateAuthority(), anchorFor: "")
    }
}

struct MintReceipt: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipt",
        abstract: "Sign a receipt with a test CA created by `receiptkit mint ca`.",
        discussion: """
            --from reads the verifyReceipt JSON that `receiptkit inspect --json` prints; flags override it. \
            --count N writes N receipts of as many customers into the folder --out (receipt-000001.der, …): \
            receipt i's transaction and original transaction ids end in i, zero-padded to seven digits \
            (1000 becomes 10000000001), each with its own opaque value — a population for load tests.
            """
    )

    @Option(help: "The folder written by `receiptkit mint ca`.")
    var ca: String

    @Option(help: "A verifyReceipt-shaped JSON receipt to start from.")
    var from: String?

    @Option(name: .customLong("bundle-id"))
    var bundleIdentifier: String?

    @Option(name: .customLong("app-version"))
    var appVersion: String?

    @Option(name: .customLong("device-id"), help: "Compute the device hash for this device (UUID, MAC, hex:…, base64:…).")
    var deviceID: String?

    @Option(help: "The receipt creation date (RFC 3339); default: now.")
    var created: String?

    @Option(
        name: .customLong("purchase"),
        help: """
            product_id[,transaction_id[,quantity]][;key=value]… (repeatable); keys: original, purchased, \
            original_purchased, expires (a subscription), cancelled (a refund), trial, intro, web_order, type; \
            times in RFC 3339.
            """)
    var purchases: [String] = []

    @Option(help: "The receipt environment: production, sandbox or xcode (default production, or --from's).")
    var environment: String?

    @Option(help: "appstore (DER) or xcode (BER, indefinite lengths).")
    var style: String = "appstore"

    @Option(help: "sha1 or sha256.")
    var digest: String = "sha256"

    @Option(help: "The receipt file to write (with --count, the folder).")
    var out: String

    @Option(help: "Write this many receipts of distinct customers into the folder --out (at most 9,999,999).")
    var count: Int?

    /// The `--environment` spellings.
    static let environments: [String: ReceiptEnvironment] = [
        "production": .production, "sandbox": .productionSandbox, "xcode": .xcode,
    ]

    func validate() throws {
        guard ["appstore", "xcode"].contains(self.style) else { throw ValidationError("--style is appstore or xcode") }
        guard ["sha1", "sha256"].contains(self.digest) else { throw ValidationError("--digest is sha1 or sha256") }
        if let environment, Self.environments[environment] == nil {
            throw ValidationError("--environment is production, sandbox or xcode, not \(environment)")
        }
        if let created, RFC3339.date(created) == nil { throw ValidationError("--created takes an RFC 3339 time") }
        if let count, !(1...9_999_999).contains(count) { throw ValidationError("--count is 1 to 9,999,999, not \(count)") }
        if self.count != nil, self.deviceID != nil {
            throw ValidationError("--count and --device-id: a population is of many devices; mint one receipt per device")
        }
        for spec in self.purchases {
            do { _ = try ReceiptMinter.purchase(spec: spec, date: nil) } catch { throw ValidationError(error.reason) }
        }
        if let deviceID {
            do { _ = try DeviceIdentifier(parsing: deviceID) } catch { throw ValidationError(error.reason) }
        }
    }

    func run() throws {
        let authority = try exitingOnMintingErrors { () throws(MintingError) in
            try TestCertificateAuthority(contentsOf: URL(fileURLWithPath: self.ca))
        }
        var receipt = AppReceipt(environment: .production)
        if let from = self.from {
            let json: [UInt8]
            do { json = try ReceiptFile.contents(atPath: from) } catch { throw InputFailure(error).reported(subject: "--from \(from)") }
            do {
                receipt = try JSONDecoder().decode(AppReceipt.self, from: Data(json))
            } catch {
                StandardError.write("receiptkit: --from \(from): not a verifyReceipt-shaped receipt: \(error)\n")
                throw ExitStatus.malformed.exitCode
            }
        }
        if let bundleIdentifier { receipt.bundleIdentifier = bundleIdentifier; receipt.bundleIdentifierData = nil }
        if let appVersion { receipt.appVersion = appVersion }
        if let environment { receipt.environment = Self.environments[environment] ?? receipt.environment }
        receipt.creationDate = self.created.flatMap(RFC3339.date) ?? receipt.creationDate ?? Date()
        for spec in self.purchases {
            receipt.inAppPurchases.append(
                try exitingOnMintingErrors { () throws(MintingError) in
                    try ReceiptMinter.purchase(spec: spec, date: receipt.creationDate)
                }
            )
        }
        if let deviceID {
            if receipt.opaqueValue == nil { receipt.opaqueValue = ReceiptMinter.randomOpaqueValue() }
            receipt = ReceiptMinter.settingDeviceHash(of: receipt, for: try DeviceIdentifier(parsing: deviceID))
        }
        let options = ReceiptMinter.Options(
            style: self.style == "xcode" ? .xcode : .appStore,
            digest: self.digest == "sha1" ? .sha1 : .sha256
        )
        if let count = self.count {
            try self.writePopulation(of: receipt, count: count, signer: authority.receiptSigner, options: options)
            return
        }
        let bytes = try ReceiptMinter.mint(receipt, signer: authority.receiptSigner, options: options)
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: self.out))
        } catch {
            StandardError.write("receiptkit: --out \(self.out): cannot be written: \(error)\n")
            throw ExitStatus.cannotCreate.exitCode
        }
        print("wrote \(self.out) (\(bytes.count) bytes)")
    }
}

extension MintReceipt {
    /// `count` receipts like `receipt`, receipt i's ids suffixed with i (seven digits), each with its own opaque
    /// value, into the folder ``out``; progress every 1,000 on standard error.
    func writePopulation(
        of receipt: AppReceipt, count: Int, signer: ReceiptSigner, options: ReceiptMinter.Options
    ) throws {
        let folder = URL(fileURLWithPath: self.out)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            StandardError.write("receiptkit: --out \(self.out): cannot be created: \(error)\n")
            throw ExitStatus.cannotCreate.exitCode
        }
        for index in 1...count {
            let suffix = String(index)
            let padded = String(repeating: "0", count: max(0, 7 - suffix.count)) + suffix
            var customer = receipt
            customer.opaqueValue = ReceiptMinter.randomOpaqueValue()
            customer.inAppPurchases = receipt.inAppPurchases.map { purchase in
                var purchase = purchase
                purchase.transactionIdentifier = purchase.transactionIdentifier.map { $0 + padded }
                purchase.originalTransactionIdentifier = purchase.originalTransactionIdentifier.map { $0 + padded }
                return purchase
            }
            let bytes = try ReceiptMinter.mint(customer, signer: signer, options: options)
            let file = folder.appendingPathComponent("receipt-\(padded).der")
            do {
                try Data(bytes).write(to: file)
            } catch {
                StandardError.write("receiptkit: \(file.path): cannot be written: \(error)\n")
                throw ExitStatus.cannotCreate.exitCode
            }
            if index.isMultiple(of: 1000), index < count { StandardError.write("receiptkit: \(index) of \(count) written\n") }
        }
        print("wrote \(count) receipts to \(self.out)")
    }
}

/// Runs `body`, turning a ``MintingError`` into its exit status (66 unreadable, 65 malformed, 73 unwritable) with
/// the reason on standard error.
func exitingOnMintingErrors<T>(_ body: () throws(MintingError) -> T) throws -> T {
    do {
        return try body()
    } catch {
        StandardError.write("receiptkit: \(error.code): \(error.reason)\n")
        switch error.code {
        case .unreadableFile: throw ExitStatus.unreadable.exitCode
        case .unwritableFile: throw ExitStatus.cannotCreate.exitCode
        case .malformedPurchaseSpec: throw ExitStatus.usage.exitCode
        default: throw ExitStatus.malformed.exitCode
        }
    }
}
