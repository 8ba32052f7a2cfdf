import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP proxy on 127.0.0.1 in front of a server (PostgreSQL, in the tests) that can be switched off — listener
/// closed, every connection through it dropped, so new connections are refused as if the server had stopped — and
/// on again on the same port.
final class SwitchableProxy: Sendable {
    let port: Int
    private let target: (host: String, port: Int)
    private let listener: NIOLockedValueBox<(any Channel)?>
    private let connections: NIOLockedValueBox<[any Channel]>

    init(targetHost: String, targetPort: Int) async throws {
        let connections = NIOLockedValueBox<[any Channel]>([])
        let channel = try await Self.bind(port: 0, target: (targetHost, targetPort), connections: connections)
        guard let port = channel.localAddress?.port else { throw ProxyFailure() }
        self.port = port
        self.target = (targetHost, targetPort)
        self.connections = connections
        self.listener = NIOLockedValueBox(channel)
    }

    /// Stops the proxy: no listener, every connection through it closed.
    func switchOff() async throws {
        let listener = self.listener.withLockedValue { listener in
            defer { listener = nil }
            return listener
        }
        try await listener?.close()
        let open = self.connections.withLockedValue { open in
            defer { open = [] }
            return open
        }
        for channel in open { try? await channel.close() }
    }

    /// Listens again on the same port.
    func switchOn() async throws {
        let channel = try await Self.bind(port: self.port, target: self.target, connections: self.connections)
        self.listener.withLockedValue { $0 = channel }
    }

    private static func bind(
        port: Int, target: (host: String, port: Int), connections: NIOLockedValueBox<[any Channel]>
    ) async throws -> any Channel {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { inbound in
                ClientBootstrap(group: inbound.eventLoop)
                    .connect(host: target.host, port: target.port)
                    .flatMap { outbound in
                        connections.withLockedValue { $0 += [inbound, outbound] }
                        return outbound.pipeline.addHandler(Relay(partner: inbound)).flatMap {
                            inbound.pipeline.addHandler(Relay(partner: outbound))
                        }
                    }
            }
            .bind(host: "127.0.0.1", port: port)
            .get()
    }

    /// Copies what one side reads to the other, and closes the other when one closes.
    private final class Relay: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let partner: any Channel

        init(partner: any Channel) { self.partner = partner }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            self.partner.writeAndFlush(self.unwrapInboundIn(data), promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            self.partner.close(promise: nil)
            context.fireChannelInactive()
        }
    }

    struct ProxyFailure: Error {}
}
