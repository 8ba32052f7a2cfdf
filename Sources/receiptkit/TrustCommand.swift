import ArgumentParser
import Foundation
import ReceiptKit
import ServerTrust
import X509

struct TrustCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust",
        abstract: "Evaluate HTTPS server certificate chains, with certificate or public-key pinning.",
        subcommands: [TrustEvaluateCommand.self, TrustPinCommand.self, TrustBenchCommand.self]
    )
}

/// The options that describe one evaluation: chain, anchors, identity, time and policy.
struct TrustOptions: ParsableArguments {
    @Option(help: "PEM file with the server's chain, leaf first, then intermediates.")
    var chain: String

    @Option(name: .customLong("anchor"), help: "A trusted root (PEM, possibly several, or DER; repeatable).")
    var anchors: [String] = []

    @Flag(name: .customLong("system-roots"), help: "Trust the system's root certificates too.")
    var systemRoots = false

    @Option(help: "The DNS name the client connects to.")
    var host: String?

    @Option(help: "The IP address the client connects to.")
    var ip: String?

    @Option(help: "The evaluation time (RFC 3339); default now.")
    var at: String?

    @Option(help: "none, certificate or public-key.")
    var mode: String = "none"

    @Option(name: .customLong("pin"), help: "A public-key pin: sha256/<base64> (or sha384/, sha512/) or hex (repeatable).")
    var pins: [String] = []

    @Option(name: .customLong("pin-cert"), help: "A pinned certificate, PEM or DER (repeatable).")
    var pinnedCertificates: [String] = []

    @Flag(
        name: .customLong("allow-invalid"),
        help: "Relax expiry, anchors and name constraints; the leaf must still be linked to a pin by signatures, and name the host."
    )
    var allowInvalid = false

    @Flag(name: .customLong("no-domain-validation"), help: "Do not require the leaf to name the host.")
    var noDomainValidation = false

    @Option(
        help: """
            webpki (default: the CA/Browser Forum rules browsers and rustls enforce) or rfc5280 (looser, for \
            private PKIs: no EKU required, Common Name fallback; name constraints must be critical).
            """
    )
    var profile: String = "webpki"

    func validate() throws {
        guard ["none", "certificate", "public-key"].contains(self.mode) else {
            throw ValidationError("--mode takes none, certificate or public-key")
        }
        if self.host != nil, self.ip != nil { throw ValidationError("give --host or --ip, not both") }
        if ServerTrustProfile(self.profile) == nil { throw ValidationError("--profile takes webpki or rfc5280") }
        if let at, RFC3339.date(at) == nil { throw ValidationError("--at takes an RFC 3339 time, not '\(at)'") }
        if self.mode == "none", !(self.pins.isEmpty && self.pinnedCertificates.isEmpty) {
            throw ValidationError("pins need --mode certificate or --mode public-key")
        }
    }

    struct Evaluation {
        var evaluator: ServerTrustEvaluator
        var chain: [Certificate]
        var identity: ServerIdentity
        var time: Date
    }

    /// Reads the files and builds the evaluation, or exits 65/66 with the reason on standard error.
    func evaluation() throws -> Evaluation {
        let chain: [Certificate]
        let anchors: [Certificate]
        let pinned: [Certificate]
        let pins: [PublicKeyPin]
        (chain, anchors, pinned, pins) = try exitingOnInputErrors {
            (
                try certificates(in: self.chain),
                try self.anchors.flatMap(certificates(in:)),
                try self.pinnedCertificates.flatMap(certificates(in:)),
                try self.pins.map { try PublicKeyPin($0) }
            )
        }
        let mode: PinningMode = self.mode == "certificate" ? .certificate : self.mode == "public-key" ? .publicKey : .none
        let policy = try ServerTrustPolicy(
            mode: mode,
            pins: pins,
            pinnedCertificates: pinned,
            validatesDomainName: !self.noDomainValidation,
            allowsInvalidCertificates: self.allowInvalid,
            requiresBackupPin: false,
            profile: ServerTrustProfile(self.profile) ?? .webPKI
        )
        return Evaluation(
            evaluator: ServerTrustEvaluator(policies: ServerTrustPolicies(policy), anchors: anchors, systemRoots: self.systemRoots),
            chain: chain,
            identity: self.ip.map(ServerIdentity.ip) ?? .host(self.host ?? ""),
            time: self.at.flatMap(RFC3339.date) ?? Date()
        )
    }
}

struct TrustEvaluateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Decide whether a server's chain is trusted for a host.",
        discussion: """
            Exit status: 0 trusted, 1 not trusted (reason codes printed), 64 usage error, 65 unparseable \
            certificate or pin, 66 unreadable file. Evaluates what it is given: any number of pins, no backup-pin \
            minimum. Reasons: chain_untrusted, expired, hostname_mismatch, extended_key_usage, pin_mismatch, \
            pins_expired, pinning_required, malformed_chain, chain_too_long, invalid_host, no_policy_for_host; and \
            for a path signed up to an anchor that breaks the profile's certificate rules: invalid_serial_number, \
            malformed_extension, unknown_critical_extension, extension_criticality, invalid_name, key_identifier, \
            ca_constraints, path_length, name_constraints, certificate_version. With --allow-invalid, a pin counts \
            only when the leaf is linked to it by signatures.
            """
    )

    @OptionGroup var options: TrustOptions

    @Flag(help: "Print {\"trusted\":…,\"reasons\":[…],\"chain\":[subjects of the validated path]}.")
    var json = false

    func run() async throws {
        let evaluation = try self.options.evaluation()
        let result = await evaluation.evaluator.evaluate(
            chain: evaluation.chain,
            for: evaluation.identity,
            at: evaluation.time
        )
        if self.json {
            struct Report: Encodable {
                var trusted: Bool
                var reasons: [String]
                var chain: [String]
            }
            print(JSONOutput.line(Report(
                trusted: result.isTrusted,
                reasons: result.failures.map(\.code),
                chain: result.chain.map { String(describing: $0.subject) }
            )))
        } else if result.isTrusted {
            print("TRUSTED")
            for certificate in result.chain { print("  \(certificate.subject)") }
        } else {
            print("NOT TRUSTED: " + result.failures.map(\.code).joined(separator: " "))
        }
        throw (result.isTrusted ? ExitStatus.valid : .invalid).exitCode
    }
}

struct TrustBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure server-trust evaluations per second on one task for a chain and policy.",
        discussion: "Compare with `openssl speed -seconds 3 ecdsap256 rsa2048` run alongside. Build with -c release."
    )

    @OptionGroup var options: TrustOptions

    @Option(help: "Seconds to measure, in (0, 3600].")
    var seconds: Double = 3

    func validate() throws {
        try BenchCommand.validate(seconds: self.seconds)
    }

    func run() async throws {
        let evaluation = try self.options.evaluation()
        let first = await evaluation.evaluator.evaluate(chain: evaluation.chain, for: evaluation.identity, at: evaluation.time)
        let rate = try await BenchCommand.rate(seconds: self.seconds) {
            _ = await evaluation.evaluator.evaluate(chain: evaluation.chain, for: evaluation.identity, at: evaluation.time)
        }
        let verdict = first.isTrusted ? "trusted" : first.failures.map(\.code).joined(separator: ",")
        print("chain of \(evaluation.chain.count) (+ anchor): \(Int(rate)) evaluations/s, \(verdict)")
    }
}

struct TrustPinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin",
        abstract: "Print each certificate's subject and its sha256/ public-key pin (what OkHttp prints on a pin failure)."
    )

    @Argument(help: "Certificate files (PEM, possibly several per file, or DER).")
    var files: [String]

    func run() throws {
        for path in self.files {
            for certificate in try exitingOnInputErrors({ try certificates(in: path) }) {
                let pin = PublicKeyPin(publicKeyOf: certificate).map(String.init(describing:)) ?? "-"
                print("\(pin)  \(certificate.subject)")
            }
        }
    }
}

/// The certificates in a PEM or DER file.
private func certificates(in path: String) throws -> [Certificate] {
    try ServerTrustCertificates.parse(try ReceiptFile.contents(atPath: path))
}

/// Runs `body`, turning an unreadable file into exit 66 and an unparseable certificate or pin into exit 65, each
/// with its reason on standard error.
private func exitingOnInputErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as ReceiptFileError {
        StandardError.write("receiptkit: \(error.code): \(error.reason)\n")
        throw ExitStatus.unreadable.exitCode
    } catch let error as ServerTrustError {
        StandardError.write("receiptkit: \(error.code): \(error.reason)\n")
        throw ExitStatus.malformed.exitCode
    }
}
