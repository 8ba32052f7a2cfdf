package import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// HTTP/1.1 servers on 127.0.0.1 for the transports' tests, and a port that refuses connections.
package enum Loopback {
    /// Runs `handler` behind a server on 127.0.0.1 while `body` runs with its port.
    package static func withServer(
        _ handler: some ChannelInboundHandler & Sendable, _ body: (Int) async throws -> Void
    ) async throws {
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

    /// A port on 127.0.0.1 that is bound but not listening while `body` runs: a connection is refused, and no other
    /// test can take the port meanwhile (a port closed before use could be reused by a parallel test's server).
    package static func withRefusingPort(_ body: (Int) async throws -> Void) async throws {
        let (descriptor, port) = try Self.boundSocket()
        defer { close(descriptor) }
        try await body(port)
    }

    /// A port nobody listens on now, for a server a test starts itself (`receiptkit serve --port`): the one the
    /// system picks for a socket bound to 127.0.0.1:0, closed again.
    package static func freePort() throws -> Int {
        let (descriptor, port) = try Self.boundSocket()
        close(descriptor)
        return port
    }

    /// A TCP socket bound to 127.0.0.1 on a port the system picks, and that port.
    private static func boundSocket() throws -> (descriptor: Int32, port: Int) {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw LoopbackUnavailable() }
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
        guard bound else {
            close(descriptor)
            throw LoopbackUnavailable()
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}

/// The operating system refused a socket or bind on 127.0.0.1.
package struct LoopbackUnavailable: Error {}
