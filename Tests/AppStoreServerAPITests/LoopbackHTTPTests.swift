@testable import AppStoreServerAPI
import APITestSupport
import AppStorePKI
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The real transport (AsyncHTTPClient) against a tiny HTTP/1.1 server on 127.0.0.1: headers go out, status,
/// headers and body come back, the size bound and the timeout hold. (The full App Store Server API simulator lives in
/// ReceiptKitTesting; this only pins the transport.)
struct LoopbackHTTPTests {
    /// Answers each request with the next scripted `(status, headers, body)`, or never answers when the script says
    /// `nil`; records the request heads.
    final class Handler: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let script: NIOLockedValueBox<[(Int, [(String, String)], String)?]>
        let heads: NIOLockedValueBox<[HTTPRequestHead]>

        init(_ script: [(Int, [(String, String)], String)?]) {
            self.script = NIOLockedValueBox(script)
            self.heads = NIOLockedValueBox([])
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch self.unwrapInboundIn(data) {
            case .head(let head):
                self.heads.withLockedValue { $0.append(head) }
            case .body:
                break
            case .end:
                let next = self.script.withLockedValue { $0.isEmpty ? nil : $0.removeFirst() }
                guard let (status, headers, body) = next else { return }
                var fields = HTTPHeaders(headers)
                fields.add(name: "Content-Length", value: String(body.utf8.count))
                let head = HTTPResponseHead(
                    version: .http1_1,
                    status: HTTPResponseStatus(statusCode: status),
                    headers: fields
                )
                context.write(self.wrapOutboundOut(.head(head)), promise: nil)
                context.write(self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
                context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }

    /// Answers each request with a head that announces a body, then never sends the body.
    final class StallingHandler: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .end = self.unwrapInboundIn(data) else { return }
            let head = HTTPResponseHead(
                version: .http1_1,
                status: .ok,
                headers: ["Content-Type": "application/json", "Content-Length": "100"]
            )
            context.writeAndFlush(self.wrapOutboundOut(.head(head)), promise: nil)
        }
    }

    func withServer(_ handler: some ChannelInboundHandler & Sendable, _ body: (Int) async throws -> Void) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let channel = try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap { channel.pipeline.addHandler(handler) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        do {
            try await body(channel.localAddress?.port ?? 0)
        } catch {
            try? await channel.close()
            try? await group.shutdownGracefully()
            throw error
        }
        try await channel.close()
        try await group.shutdownGracefully()
    }

    func client(
        port: Int,
        _ edit: (inout AppStoreServerAPIConfiguration) -> Void = { _ in }
    ) throws -> AppStoreServerAPIClient {
        var configuration = try AppStoreServerAPIConfiguration(
            key: try TestClients.key("LOOPBACK01"),
            bundleIdentifier: "com.example.app",
            environment: .sandbox,
            baseURL: "http://127.0.0.1:\(port)"
        )
        edit(&configuration)
        return try AppStoreServerAPIClient(configuration: configuration, runtime: PinnedRuntime().runtime)
    }

    @Test func aRequestTravelsOverHTTPAndA429IsRetried() async throws {
        let handler = Handler([
            (429, [("Retry-After", "1")], #"{"errorCode":4290000,"errorMessage":"Rate limit exceeded."}"#),
            (200, [("Content-Type", "application/json")], #"{"testNotificationToken":"ce3af791"}"#),
        ])
        try await withServer(handler) { port in
            let response = try await client(port: port).requestTestNotification()
            #expect(response.testNotificationToken == "ce3af791")
        }
        let heads = handler.heads.withLockedValue { $0 }
        #expect(heads.count == 2)
        #expect(heads.allSatisfy { $0.method == .POST && $0.uri == "/inApps/v1/notifications/test" })
        #expect(heads.first?.headers.first(name: "Authorization")?.hasPrefix("Bearer ") == true)
        #expect(heads.first?.headers.first(name: "Accept") == "application/json")
    }

    @Test func anAppleErrorComesBackWithItsCode() async throws {
        let handler = Handler([(404, [], #"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#)])
        try await withServer(handler) { port in
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await client(port: port).transactionInfoUnverified(transactionID: "1")
            }
            #expect(error?.code == .apiError)
            #expect(error?.apiErrorCode == .transactionIDNotFound)
            #expect(error?.httpStatus == 404)
        }
    }

    @Test func aBodyOverTheBoundIsRefused() async throws {
        let handler = Handler([(200, [], String(repeating: "x", count: 4096))])
        try await withServer(handler) { port in
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await client(port: port) { $0.maximumResponseSize = 1024 }.requestTestNotification()
            }
            #expect(error?.code == .responseTooLarge)
        }
    }

    @Test func aServerThatNeverAnswersTimesOutAsUnreachable() async throws {
        let handler = Handler([nil, nil])
        try await withServer(handler) { port in
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await client(port: port) {
                    $0.timeout = .milliseconds(300)
                    $0.retryPolicy = RetryPolicy(maximumAttempts: 2)
                }.requestTestNotification()
            }
            #expect(error?.code == .unreachable)
        }
        #expect(handler.heads.withLockedValue { $0.count } == 2)
    }

    @Test(.timeLimit(.minutes(1)))
    func aBodyThatNeverArrivesTimesOutAsUnreachable() async throws {
        try await withServer(StallingHandler()) { port in
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await client(port: port) {
                    $0.timeout = .milliseconds(300)
                    $0.retryPolicy = .never
                }.requestTestNotification()
            }
            #expect(error?.code == .unreachable)
            // The transport's own limit ended it (its reason), and the test's time limit catches a hang.
            #expect(error?.reason.contains("no complete answer within") == true)
        }
    }

    @Test func aRefusedConnectionIsUnreachable() async throws {
        try await withRefusingPort { port in
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await client(port: port) { $0.retryPolicy = .never }.requestTestNotification()
            }
            #expect(error?.code == .unreachable)
        }
    }

    /// A port on 127.0.0.1 that is bound but not listening while `body` runs: a connection is refused, and no other
    /// test can take the port meanwhile (a port closed before use could be reused by a parallel test's server).
    func withRefusingPort(_ body: (Int) async throws -> Void) async throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        try #require(bound)
        try await body(Int(UInt16(bigEndian: address.sin_port)))
    }
}
