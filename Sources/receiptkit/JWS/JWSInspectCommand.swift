import AppStoreJWS
import ArgumentParser
import Foundation
import ReceiptKit
import SwiftASN1
import X509
import _ReceiptKitShared

struct JWSInspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Decode App Store signed data without checking its signature or chain.",
        discussion: """
            Prints the header's certificates (subject, validity, SHA-256) and every payload field as signed, \
            milliseconds dates also in RFC 3339; a notification's nested signed data is decoded too. The kind is \
            unknown when the payload's fields name none, or several. With --json: \
            {"kind":…,"header":{…},"certificates":[…],"payload":{…},"nested":{…}}. Nothing printed here is verified: \
            use `receiptkit jws verify`.
            """
    )

    @Flag(help: "Print one JSON object.")
    var json = false

    @Option(help: "The payload kind: transaction, renewal-info, app-transaction or notification (default: told from its fields; unknown when they name none, or several).")
    var kind: String?

    @Argument(help: "A file holding a compact JWS or a notification body {\"signedPayload\": …}, or - for standard input.")
    var input: String

    func validate() throws {
        if let kind, AppStoreSignedDataKind(kind) == nil {
            throw ValidationError("--kind takes transaction, renewal-info, app-transaction or notification, not '\(kind)'")
        }
    }

    func run() throws {
        let configuration = JWSDecodingConfiguration.default
        let decoded: JWSInput
        var nested: [(name: String, input: JWSInput)] = []
        do throws(InputFailure) {
            decoded = try JWSInput(path: self.input, kind: self.kind.flatMap { AppStoreSignedDataKind($0) }, configuration: configuration)
            for (name, kind, jws) in Self.nestedJWS(of: decoded) {
                nested.append((name, try JWSInput(Array(jws.utf8), kind: kind, configuration: configuration)))
            }
        } catch {
            StandardError.write("receiptkit: \(self.input): \(error.code): \(error.reason)\n")
            throw error.status.exitCode
        }
        if self.json {
            var members = Self.json(decoded)
            if !nested.isEmpty {
                members["nested"] = .object(Dictionary(uniqueKeysWithValues: nested.map { ($0.input.kind.rawValue, .object(Self.json($0.input))) }))
            }
            print(String(decoding: JSONValue.object(members).serialized, as: UTF8.self))
        } else {
            var text = Self.text(decoded, indent: "")
            for (name, input) in nested {
                text += "\(name) (\(input.kind.rawValue)):\n" + Self.text(input, indent: "  ")
            }
            print(text, terminator: "")
        }
    }

    /// The signed data a notification carries, by where it sits: (path, kind, compact JWS).
    static func nestedJWS(of input: JWSInput) -> [(String, AppStoreSignedDataKind, String)] {
        guard input.kind == .notification else { return [] }
        let data = input.compact.payload["data"]?.objectValue
        let appData = input.compact.payload["appData"]?.objectValue
        var found: [(String, AppStoreSignedDataKind, String)] = []
        if let jws = data?["signedTransactionInfo"]?.stringValue { found.append(("data.signedTransactionInfo", .transaction, jws)) }
        if let jws = data?["signedRenewalInfo"]?.stringValue { found.append(("data.signedRenewalInfo", .renewalInfo, jws)) }
        if let jws = appData?["signedAppTransactionInfo"]?.stringValue {
            found.append(("appData.signedAppTransactionInfo", .appTransaction, jws))
        }
        return found
    }

    /// A summary of each `x5c` certificate; a certificate that does not parse is reported, not fatal here.
    static func certificates(_ input: JWSInput) -> [[String: JSONValue]] {
        (input.compact.header.certificateChain ?? []).map { der in
            var members: [String: JSONValue] = ["sha256": .string(HexDigits.string(CertificateFingerprint.sha256(derEncoded: der)))]
            do {
                let certificate = try Certificate(derEncoded: der)
                members["subject"] = .string(certificate.subject.description)
                members["issuer"] = .string(certificate.issuer.description)
                members["not_before"] = RFC3339.string(certificate.notValidBefore).map(JSONValue.string) ?? .null
                members["not_after"] = RFC3339.string(certificate.notValidAfter).map(JSONValue.string) ?? .null
            } catch {
                members["error"] = .string("does not parse: \(error)")
            }
            return members
        }
    }

    static func json(_ input: JWSInput) -> [String: JSONValue] {
        [
            "kind": .string(input.kind.rawValue),
            "header": .object(input.compact.header.fields),
            "certificates": .array(Self.certificates(input).map(JSONValue.object)),
            "payload": .object(input.compact.payload),
        ]
    }

    static func text(_ input: JWSInput, indent: String) -> String {
        var text = "\(indent)kind: \(input.kind.rawValue)\n"
        text += "\(indent)alg: \(input.compact.header.algorithm ?? "(none)")\n"
        let certificates = Self.certificates(input)
        text += "\(indent)x5c: \(certificates.count) certificate\(certificates.count == 1 ? "" : "s")\n"
        for (index, certificate) in certificates.enumerated() {
            if let subject = certificate["subject"]?.stringValue {
                let from = certificate["not_before"]?.stringValue ?? "?"
                let until = certificate["not_after"]?.stringValue ?? "?"
                text += "\(indent)  [\(index)] \(subject) (valid \(from) – \(until))\n"
            } else {
                text += "\(indent)  [\(index)] \(certificate["error"]?.stringValue ?? "")\n"
            }
            text += "\(indent)      sha256 \(certificate["sha256"]?.stringValue ?? "")\n"
        }
        text += "\(indent)payload:\n"
        text += Self.fieldsText(input.compact.payload, indent: indent + "  ")
        return text
    }

    /// One line per field, in name order; objects indented beneath, millisecond dates also in RFC 3339.
    static func fieldsText(_ fields: [String: JSONValue], indent: String) -> String {
        var text = ""
        for name in fields.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let value = fields[name] else { continue }
            switch value {
            case .object(let members):
                text += "\(indent)\(name):\n" + Self.fieldsText(members, indent: indent + "  ")
            case .string(let string) where string.count > 96:
                text += "\(indent)\(name): \"\(string.prefix(40))…\" (\(string.utf8.count) bytes)\n"
            case .number(let number) where name.hasSuffix("Date"):
                let date = AppStoreTimestamp(number).flatMap { RFC3339.string($0.date) }
                text += "\(indent)\(name): \(number.text)\(date.map { " (\($0))" } ?? "")\n"
            default:
                text += "\(indent)\(name): \(String(decoding: value.serialized, as: UTF8.self))\n"
            }
        }
        return text
    }
}
