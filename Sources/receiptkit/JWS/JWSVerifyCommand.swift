import AppStorePKI
import AppStoreJWS
import AppStoreJWSOCSP
import ArgumentParser
import Foundation
import ReceiptKit
import X509

struct JWSVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify App Store signed data: ES256 signature, x5c chain to Apple Root CA - G3, expectations.",
        discussion: """
            Prints VALID or INVALID: <reason codes> (with several inputs, prefixed by the file name), or with --json \
            one JSON object per input: {"valid":…,"kind":…,"reasons":[…],"environment":…,"anchor":…,"payload":{…},\
            "nested":{…}}. A notification is valid when it and the signed data nested in it are; nested reasons are \
            prefixed with their kind (transaction.signature_invalid). A payload whose fields name no kind, or \
            several (Apple's test vectors hold only bundleId, environment and signedDate), is kind unknown: its \
            signature, chain and markers are verified, and each expectation whose field it holds (--bundle-id on \
            bundleId, --app-apple-id on appAppleId in Production, --environment on environment and receiptType); \
            --kind holds it to one kind's rules instead.
            Reason codes: algorithm_not_allowed, header_parameter_not_allowed, certificate_chain_missing, \
            signature_malformed, signature_invalid, certificate_untrusted, certificate_expired, signer_not_app_store, \
            local_environment_not_allowed, bundle_id_mismatch, app_apple_id_mismatch, environment_mismatch; with \
            --check-revocation also certificate_revoked, revocation_status_unknown, revocation_check_failed and \
            revocation_check_unavailable (the responder could not be reached: "retryable":true, exit 75).
            Exit status as `validate`: 0 valid, 1 invalid, 75 only a revocation check could not be made (try again), \
            65 malformed, 66 unreadable, 64 usage; the worst of all inputs.
            """
    )

    @Flag(help: "Print one JSON object per input.")
    var json = false

    @Option(help: "The payload kind: transaction, renewal-info, app-transaction or notification (default: told from its fields; unknown when they name none, or several).")
    var kind: String?

    @Option(name: .customLong("bundle-id"), help: "The bundle identifier the payload must carry (renewal info carries none).")
    var bundleIdentifier: String?

    @Option(
        name: .customLong("app-apple-id"),
        help: "The app's Apple ID an AppTransaction or notification from Production must carry."
    )
    var appAppleID: Int64?

    @Option(help: "The environment the data must come from: production, sandbox, xcode or localtesting.")
    var environment: String?

    @Option(name: .customLong("anchor"), help: "A trusted anchor certificate (DER or PEM; repeatable), besides Apple Root CA - G3.")
    var anchors: [String] = []

    @Flag(
        name: .customLong("allow-xcode"),
        help: "Accept data signed on a developer's machine (environment Xcode or LocalTesting, one self-signed certificate)."
    )
    var allowXcode = false

    @Flag(
        name: .customLong("check-revocation"),
        help: "Ask the OCSP responders the certificates name (Apple's, over HTTP) whether they are revoked."
    )
    var checkRevocation = false

    @Option(name: .customLong("at"), help: "When to validate the chain: signed (the payload's signedDate, default), now, or an RFC 3339 time.")
    var at: String = "signed"

    @Option(name: .customLong("now"), help: "The current time (RFC 3339) used by --at now and for payloads without signedDate.")
    var now: String?

    @Argument(help: "Files holding a compact JWS or a notification body {\"signedPayload\": …}, or - for standard input.")
    var inputs: [String]

    func validate() throws {
        if self.inputs.isEmpty { throw ValidationError("give at least one file, or - for standard input") }
        if self.inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be read once") }
        if let kind, AppStoreSignedDataKind(kind) == nil {
            throw ValidationError("--kind takes transaction, renewal-info, app-transaction or notification, not '\(kind)'")
        }
        if let environment, AppStoreEnvironment(environment) == nil {
            throw ValidationError("--environment takes production, sandbox, xcode or localtesting, not '\(environment)'")
        }
        if self.at != "signed", self.at != "now", RFC3339.date(self.at) == nil {
            throw ValidationError("--at takes signed, now or an RFC 3339 time, not '\(self.at)'")
        }
        if let now, RFC3339.date(now) == nil { throw ValidationError("--now takes an RFC 3339 time, not '\(now)'") }
    }

    func run() async throws {
        let anchorCertificates = try AnchorFiles.certificates(self.anchors)
        let trustTime: TrustEvaluationTime
        switch self.at {
        case "signed": trustTime = .signedDate
        case "now": trustTime = .now
        default: trustTime = .fixed(RFC3339.date(self.at) ?? Date())
        }
        let policy = JWSVerificationPolicy(
            anchors: AppStoreTrustAnchors(anchorCertificates),
            allowsLocalEnvironments: self.allowXcode,
            bundleIdentifier: self.bundleIdentifier,
            appAppleID: self.appAppleID,
            environment: self.environment.flatMap { AppStoreEnvironment($0) },
            trustEvaluationTime: trustTime,
            revocationCheck: self.checkRevocation ? JWSRevocationCheck(transport: HTTPOCSPTransport()) : nil
        )
        let verifier = JWSVerifier(policy: policy)
        let now = self.now.flatMap(RFC3339.date) ?? Date()
        let kind = self.kind.flatMap { AppStoreSignedDataKind($0) }
        let named = self.inputs.count > 1

        var worst = ExitStatus.valid
        for path in self.inputs {
            let status: ExitStatus
            do throws(InputFailure) {
                let verdict = try await Self.verify(path, kind: kind, verifier: verifier, now: now)
                status = verdict.isValid ? .valid : verdict.isRetryable ? .temporaryFailure : .invalid
                if self.json {
                    var members = verdict.json
                    if named, case .object(var object) = members {
                        object["file"] = .string(path)
                        members = .object(object)
                    }
                    print(String(decoding: members.serialized, as: UTF8.self))
                } else {
                    let text = verdict.isValid ? "VALID" : "INVALID: " + verdict.reasons.joined(separator: " ")
                    print(named ? "\(path): \(text)" : text)
                    if verdict.kind == .unknown, kind == nil {
                        StandardError.write(
                            "receiptkit: \(path): kind unknown (its fields name no kind, or several): signature, "
                                + "chain and the expectations whose fields it holds were checked; --kind holds it to "
                                + "a kind's rules\n")
                    }
                }
            } catch let failure {
                status = failure.status
                StandardError.write("receiptkit: \(path): \(failure.code): \(failure.reason)\n")
                if self.json {
                    var members: [String: JSONValue] = [
                        "valid": .bool(false),
                        "reasons": .array([.string(status == .unreadable ? "unreadable" : "malformed")]),
                        "error": .object(["code": .string(failure.code), "reason": .string(failure.reason)]),
                    ]
                    if named { members["file"] = .string(path) }
                    print(String(decoding: JSONValue.object(members).serialized, as: UTF8.self))
                }
            }
            worst = max(worst, status)
        }
        throw worst.exitCode
    }

    static func verify(
        _ path: String,
        kind: AppStoreSignedDataKind?,
        verifier: JWSVerifier,
        now: Date
    ) async throws(InputFailure) -> JWSVerdict {
        try await JWSInput(path: path, kind: kind, configuration: verifier.decodingConfiguration).verify(with: verifier, now: now)
    }
}
