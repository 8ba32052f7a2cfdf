import ArgumentParser
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import ServerTrust
import ServerTrustNIO
import X509

/// Fetches an HTTPS URL, trusting the server only under a pinned ServerTrust policy.
///
///     swift run PinnedFetch https://example.com/ --system-roots --pin sha256/… --pin sha256/…
@main
struct PinnedFetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "GET an HTTPS URL with public-key pinning; prints the status line and body, or why trust failed."
    )

    @Argument(help: "https://host[:port]/path")
    var url: String

    @Option(name: .customLong("pin"), help: "sha256/<base64> public-key pin (repeat; two or more unless --single-pin).")
    var pins: [String] = []

    @Flag(name: .customLong("single-pin"), help: "Allow a single pin (waives the backup-pin rule).")
    var singlePin = false

    @Option(name: .customLong("anchor"), help: "Extra trusted root, PEM or DER (repeatable).")
    var anchors: [String] = []

    @Flag(name: .customLong("system-roots"), help: "Trust the system's roots.")
    var systemRoots = false

    func run() async throws {
        guard let components = URLComponents(string: self.url), components.scheme == "https",
            let host = components.host
        else { throw ValidationError("give an https:// URL") }
        let port = components.port ?? 443
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath

        var anchorCertificates: [Certificate] = []
        for file in self.anchors {
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            anchorCertificates += try ServerTrustCertificates.parse([UInt8](data))
        }
        let policy = try ServerTrustPolicy(
            mode: self.pins.isEmpty ? .none : .publicKey,
            pins: try self.pins.map { try PublicKeyPin($0) },
            requiresBackupPin: !self.singlePin
        )
        let evaluator = ServerTrustEvaluator(
            policies: ServerTrustPolicies(policy),
            anchors: anchorCertificates,
            systemRoots: self.systemRoots
        )
        let identity: ServerIdentity = host.first(where: { $0 == ":" || $0.isLetter }) == nil || host.contains(":")
            ? .ip(host) : .host(host)
        let verdict = VerdictBox()

        let group = MultiThreadedEventLoopGroup.singleton
        let context = try NIOSSLContext(configuration: .makeClientConfiguration())
        let response = group.next().makePromise(of: String.self)
        let channel = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let tls = try NIOSSLClientHandler(
                        context: context,
                        serverHostname: identity.hostname,
                        customVerificationCallback: evaluator.nioVerificationCallback(
                            for: identity,
                            onResult: { verdict.set($0) }
                        )
                    )
                    try channel.pipeline.syncOperations.addHandler(tls)
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(ResponseCollector(promise: response))
                }
            }
            .connect(host: host, port: port).get()

        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path)
        head.headers.add(name: "Host", value: host)
        head.headers.add(name: "Connection", value: "close")
        do {
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            try await channel.writeAndFlush(HTTPClientRequestPart.end(nil)).get()
            print(try await response.futureResult.get())
        } catch {
            if let result = verdict.value, !result.isTrusted {
                FileHandle.standardError.write(Data("not trusted: \(result.failures.map(\.code).joined(separator: " "))\n".utf8))
                throw ExitCode(1)
            }
            throw error
        }
    }
}

/// Collects one HTTP response into "status line\n\nbody".
final class ResponseCollector: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart
    private let promise: EventLoopPromise<String>
    private var text = ""

    init(promise: EventLoopPromise<String>) { self.promise = promise }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head(let head): self.text = "HTTP \(head.status.code) \(head.status.reasonPhrase)\n\n"
        case .body(let buffer): self.text += String(buffer: buffer)
        case .end:
            self.promise.succeed(self.text)
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        self.promise.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.promise.fail(ChannelError.eof)
    }
}

final class VerdictBox: @unchecked Sendable {
    private let lock = NSLock()
    private var result: ServerTrustResult?
    func set(_ result: ServerTrustResult) { self.lock.lock(); self.result = result; self.lock.unlock() }
    var value: ServerTrustResult? { self.lock.lock(); defer { self.lock.unlock() }; return self.result }
}
