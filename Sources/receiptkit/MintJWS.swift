import AppStoreJWS
import ArgumentParser
import Foundation
import ReceiptKit
import ReceiptKitTesting
import X509

struct MintJWS: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jws",
        abstract: "Sign App Store–shaped JWS (transaction, renewal info, AppTransaction, notification) with a test CA.",
        discussion: """
            Signs with the authority `receiptkit mint jws-ca` wrote (verify with --anchor DIR/root.cer), or with \
            --local a fresh self-signed certificate as Xcode's StoreKit testing does (verify with --allow-xcode). \
            A notification nests a transaction (and renewal info for a subscription) signed by the same key. \
            --from starts from a JSON payload (the "payload" of `receiptkit jws inspect --json`); --field sets any \
            field to a JSON value, --transaction-field and --renewal-field those of the signed transaction and renewal \
            info a notification carries. --fault signs something a verifier must refuse.
            """
    )

    @Option(help: "The folder written by `receiptkit mint jws-ca`.")
    var ca: String?

    @Flag(help: "Sign with a fresh self-signed certificate, as data signed on a developer's machine is.")
    var local = false

    @Option(help: "transaction, renewal-info, app-transaction or notification.")
    var kind: String = "transaction"

    @Option(help: "A JSON object to use as the payload instead of a generated one.")
    var from: String?

    @Option(name: .customLong("bundle-id"))
    var bundleIdentifier: String = "com.example.app"

    @Option(name: .customLong("product-id"))
    var productID: String = "com.example.app.pro"

    @Option(name: .customLong("transaction-id"))
    var transactionID: String = "2000000000000001"

    @Option(name: .customLong("original-transaction-id"), help: "Default: the transaction id.")
    var originalTransactionID: String?

    @Option(help: "The transaction type (Auto-Renewable Subscription, Non-Consumable, Consumable, Non-Renewing Subscription).")
    var type: String = TransactionType.autoRenewableSubscription.rawValue

    @Option(name: .customLong("app-apple-id"))
    var appAppleID: Int64 = 1_234_567_890

    @Option(help: "Production, Sandbox, Xcode or LocalTesting (default: Production, or Xcode with --local).")
    var environment: String?

    @Option(help: "signedDate (and purchase date), RFC 3339; default: now.")
    var signed: String?

    @Option(name: .customLong("notification-type"))
    var notificationType: String = NotificationType.subscribed.rawValue

    @Option(help: "The notification subtype.")
    var subtype: String?

    @Option(name: .customLong("notification-uuid"), help: "Default: a random UUID.")
    var notificationUUID: String?

    @Option(name: .customLong("field"), help: ArgumentHelp("Set a payload field: NAME=JSON, e.g. price=1990 or storefront='\"FRA\"' (repeatable).", valueName: "NAME=JSON"))
    var fields: [String] = []

    @Option(
        name: .customLong("transaction-field"),
        help: ArgumentHelp(
            "With --kind notification: set a field of the signed transaction inside it, e.g. revocationDate=1750000000000 (repeatable).",
            valueName: "NAME=JSON"))
    var transactionFields: [String] = []

    @Option(
        name: .customLong("renewal-field"),
        help: ArgumentHelp(
            "With --kind notification: set a field of the signed renewal info inside it, e.g. autoRenewStatus=0 (repeatable).",
            valueName: "NAME=JSON"))
    var renewalFields: [String] = []

    @Option(
        name: .customLong("fault"),
        help: "Sign something wrong: alg-none, alg-hs256, der-signature, corrupt-signature, no-x5c, jku-header, payload-edited (repeatable)."
    )
    var faults: [String] = []

    @Flag(help: "Write the body Apple POSTs to a notification URL: {\"signedPayload\": …}.")
    var wrap = false

    @Option(help: "The file to write (default: standard output).")
    var out: String = "-"

    static let faultNames = ["alg-none", "alg-hs256", "der-signature", "corrupt-signature", "no-x5c", "jku-header", "payload-edited"]

    func validate() throws {
        guard (self.ca != nil) != self.local else { throw ValidationError("give --ca DIR or --local (one of them)") }
        guard AppStoreSignedDataKind(self.kind) != nil else {
            throw ValidationError("--kind takes transaction, renewal-info, app-transaction or notification, not '\(self.kind)'")
        }
        if let environment, AppStoreEnvironment(environment) == nil {
            throw ValidationError("--environment takes production, sandbox, xcode or localtesting, not '\(environment)'")
        }
        if let signed, RFC3339.date(signed) == nil { throw ValidationError("--signed takes an RFC 3339 time, not '\(signed)'") }
        for fault in self.faults where !Self.faultNames.contains(fault) {
            throw ValidationError("--fault takes \(Self.faultNames.joined(separator: ", ")), not '\(fault)'")
        }
        for field in self.fields + self.transactionFields + self.renewalFields {
            _ = try Self.field(field)
        }
        if !(self.transactionFields.isEmpty && self.renewalFields.isEmpty) {
            guard AppStoreSignedDataKind(self.kind) == .notification, self.from == nil else {
                throw ValidationError(
                    "--transaction-field and --renewal-field set the signed data inside a generated notification: use --kind notification without --from (--field sets the payload's own fields)")
            }
        }
    }

    /// `NAME=JSON` as a name and a value.
    static func field(_ spec: String) throws -> (String, JSONValue) {
        guard let equals = spec.firstIndex(of: "="), equals != spec.startIndex else {
            throw ValidationError("--field takes NAME=JSON, not '\(spec)'")
        }
        do {
            return (String(spec[..<equals]), try JSONValue(jsonEncoded: Array(spec[spec.index(after: equals)...].utf8)))
        } catch {
            throw ValidationError("--field \(spec): the value is not JSON (\(error.reason)); quote strings: NAME='\"text\"'")
        }
    }

    func run() throws {
        let signer: JWSTestAuthority.Identity
        let chain: [Certificate]
        if let ca = self.ca {
            let authority = try exitingOnMintingErrors { () throws(MintingError) in
                try JWSTestAuthority(contentsOf: URL(fileURLWithPath: ca))
            }
            signer = authority.leaf
            chain = authority.chain
        } else {
            signer = try JWSTestAuthority.localTestingSigner()
            chain = [signer.certificate]
        }
        let environment = self.environment.flatMap { AppStoreEnvironment($0) } ?? (self.local ? .xcode : .production)
        let signedDate = self.signed.flatMap(RFC3339.date) ?? Date()
        let kind = AppStoreSignedDataKind(self.kind) ?? .transaction

        var payload: [String: JSONValue]
        if let from = self.from {
            payload = try Self.payload(from: from)
        } else {
            payload = try self.generated(kind, environment: environment, signedDate: signedDate, signer: signer, chain: chain)
        }
        for spec in self.fields {
            let (name, value) = try Self.field(spec)
            payload[name] = value
        }

        var faults = JWSMinter.Faults()
        for fault in self.faults {
            switch fault {
            case "alg-none": faults.algorithm = "none"
            case "alg-hs256": faults.algorithm = "HS256"
            case "der-signature": faults.derSignature = true
            case "corrupt-signature": faults.corruptsSignature = true
            case "no-x5c": faults.omitsChain = true
            case "jku-header": faults.extraHeader["jku"] = .string("https://keys.example.invalid/jwks")
            case "payload-edited":
                var edited = payload
                edited["receiptkitEdited"] = .bool(true)
                faults.payloadAfterSigning = edited
            default: break  // validate() admits only faultNames
            }
        }
        var text = try JWSMinter.sign(payload, signer: signer, chain: chain, faults: faults)
        if self.wrap {
            text = String(decoding: JSONValue.object(["signedPayload": .string(text)]).serialized, as: UTF8.self)
        }
        let bytes = Data((text + "\n").utf8)
        if self.out == "-" {
            FileHandle.standardOutput.write(bytes)
            return
        }
        do {
            try bytes.write(to: URL(fileURLWithPath: self.out))
        } catch {
            StandardError.write("receiptkit: --out \(self.out): cannot be written: \(error)\n")
            throw ExitStatus.cannotCreate.exitCode
        }
        StandardError.write("wrote \(self.out) (\(kind.rawValue), \(bytes.count) bytes)\n")
    }

    /// The payload a --from file holds.
    static func payload(from path: String) throws -> [String: JSONValue] {
        let bytes: [UInt8]
        do { bytes = try ReceiptFile.contents(atPath: path) } catch { throw InputFailure(error).reported(subject: "--from \(path)") }
        let value: JSONValue
        do {
            value = try JSONValue(jsonEncoded: bytes)
        } catch {
            StandardError.write("receiptkit: --from \(path): \(error.code): \(error.reason)\n")
            throw ExitStatus.malformed.exitCode
        }
        guard case .object(let fields) = value else {
            StandardError.write("receiptkit: --from \(path): not a JSON object\n")
            throw ExitStatus.malformed.exitCode
        }
        return fields
    }

    private func generated(
        _ kind: AppStoreSignedDataKind,
        environment: AppStoreEnvironment,
        signedDate: Date,
        signer: JWSTestAuthority.Identity,
        chain: [Certificate]
    ) throws -> [String: JSONValue] {
        var transaction = JWSSamplePayload.transaction(
            bundleIdentifier: self.bundleIdentifier, productID: self.productID, transactionID: self.transactionID,
            originalTransactionID: self.originalTransactionID, type: TransactionType(rawValue: self.type), environment: environment,
            purchaseDate: signedDate, signedDate: signedDate
        )
        var renewalInfo = JWSSamplePayload.renewalInfo(
            productID: self.productID, originalTransactionID: self.originalTransactionID ?? self.transactionID,
            environment: environment, signedDate: signedDate
        )
        // The nested payloads' own fields (validate() admits them only for a notification).
        for spec in self.transactionFields {
            let (name, value) = try Self.field(spec)
            transaction[name] = value
        }
        for spec in self.renewalFields {
            let (name, value) = try Self.field(spec)
            renewalInfo[name] = value
        }
        switch kind {
        case .transaction, .unknown:  // validate() admits no unknown: a kind to mint is one a caller names
            return transaction
        case .renewalInfo:
            return renewalInfo
        case .appTransaction:
            return JWSSamplePayload.appTransaction(
                bundleIdentifier: self.bundleIdentifier, appAppleID: self.appAppleID, environment: environment, signedDate: signedDate
            )
        case .notification:
            let isTest = NotificationType(rawValue: self.notificationType) == .test
            let subscription = TransactionType(rawValue: self.type) == .autoRenewableSubscription
            return JWSSamplePayload.notification(
                type: NotificationType(rawValue: self.notificationType),
                subtype: self.subtype.map(NotificationSubtype.init(rawValue:)),
                notificationUUID: self.notificationUUID ?? UUID().uuidString.lowercased(),
                bundleIdentifier: self.bundleIdentifier,
                appAppleID: environment == .production ? self.appAppleID : nil,
                environment: environment,
                signedDate: signedDate,
                signedTransactionInfo: isTest ? nil : try JWSMinter.sign(transaction, signer: signer, chain: chain),
                signedRenewalInfo: isTest || !subscription ? nil : try JWSMinter.sign(renewalInfo, signer: signer, chain: chain)
            )
        }
    }
}
