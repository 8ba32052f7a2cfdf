import AppStorePKI
import AppStoreJWS
import ArgumentParser
import Foundation
import ReceiptKit

struct JWSBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure JWS per second on one core: decoding only, and verification with and without the chain cache.",
        discussion: """
            Each measurement is a warm loop in this process for --seconds, at a fixed --now. With a cached chain a \
            verification is one P-256 signature check plus decoding: compare with `openssl speed ecdsap256` \
            (Benchmarks/rates.sh prints both). Build with -c release for meaningful numbers.
            """
    )

    @Option(help: "Seconds per measurement.")
    var seconds: Double = 2

    @Option(name: .customLong("anchor"), help: "An extra trusted anchor (DER or PEM; repeatable).")
    var anchors: [String] = []

    @Flag(name: .customLong("allow-xcode"), help: "Accept locally signed data (environment Xcode or LocalTesting).")
    var allowXcode = false

    @Option(help: "What to measure: any of decode, cached, uncached, comma-separated.")
    var measure: String = "decode,cached,uncached"

    @Argument(help: "Files holding a compact JWS or a notification body.")
    var inputs: [String]

    var phases: [String] { self.measure.split(separator: ",").map { String($0) } }

    func validate() throws {
        try BenchCommand.validate(seconds: self.seconds)
        let unknown = Set(self.phases).subtracting(["decode", "cached", "uncached"])
        guard unknown.isEmpty else { throw ValidationError("--measure takes decode, cached, uncached") }
        if self.inputs.isEmpty { throw ValidationError("give at least one JWS file") }
    }

    func run() async throws {
        let policy = JWSVerificationPolicy(
            anchors: AppStoreTrustAnchors(try AnchorFiles.certificates(self.anchors)),
            allowsLocalEnvironments: self.allowXcode
        )
        let cached = JWSVerifier(policy: policy, cache: AppStoreTrustCache())
        let uncached = JWSVerifier(policy: policy, cache: nil)
        let now = Date(timeIntervalSince1970: 1_768_471_200)
        print("file\tdecode/s\tcached/s\tuncached/s\tverdict")
        for path in self.inputs {
            let input: JWSInput
            let verdict: JWSVerdict
            do throws(InputFailure) {
                input = try JWSInput(path: path, kind: nil, configuration: cached.decodingConfiguration)
                verdict = try await input.verify(with: cached, now: now)
            } catch {
                StandardError.write("receiptkit: \(path): \(error.code): \(error.reason)\n")
                throw error.status.exitCode
            }
            let phases = self.phases
            var decode = "-"
            var warm = "-"
            var cold = "-"
            let jws = input.jws
            let kind = input.kind
            if phases.contains("decode") {
                decode = String(Int(try BenchCommand.rate(seconds: self.seconds) { _ = try CompactJWS(jws) }))
            }
            if phases.contains("cached") {
                warm = String(Int(try await BenchCommand.rate(seconds: self.seconds) {
                    _ = try await cached.verify(jws, kind: kind, now: now)
                }))
            }
            if phases.contains("uncached") {
                cold = String(Int(try await BenchCommand.rate(seconds: self.seconds) {
                    _ = try await uncached.verify(jws, kind: kind, now: now)
                }))
            }
            let label = verdict.isValid ? "valid" : verdict.reasons.joined(separator: ",")
            print("\((path as NSString).lastPathComponent)\t\(decode)\t\(warm)\t\(cold)\t\(label)")
        }
    }
}
