import NIOConcurrencyHelpers
package import ReceiptLedger
import NIOCore
import NIOPosix
package import PostgresNIO

/// A TCP proxy on 127.0.0.1 in front of a server (PostgreSQL, in the tests) that can be switched off — listener
/// closed, every connection through it dropped, so new connections are refused as if the server had stopped — and
/// on again on the same port; or frozen — connections kept open, nothing relayed either way, as in a network
/// partition that no one announces.
package final class SwitchableProxy: Sendable {
    package let port: Int
    private let target: (host: String, port: Int)
    private let listener: NIOLockedValueBox<(any Channel)?>
    private let connections: NIOLockedValueBox<[any Channel]>
    private let frozen: NIOLockedValueBox<Bool>

    package init(targetHost: String, targetPort: Int) async throws {
        let connections = NIOLockedValueBox<[any Channel]>([])
        let frozen = NIOLockedValueBox(false)
        let channel = try await Self.bind(
            port: 0, target: (targetHost, targetPort), connections: connections, frozen: frozen)
        guard let port = channel.localAddress?.port else { throw ProxyFailure() }
        self.port = port
        self.target = (targetHost, targetPort)
        self.connections = connections
        self.frozen = frozen
        self.listener = NIOLockedValueBox(channel)
    }

    /// How long the leases of ``ledger(of:)`` wait while the server answers. A CI run (2026-12-02) failed all three
    /// outage tests in their setup (the migration, before any outage) with "no connection within 3.0 seconds" on two
    /// loaded cores; the other test ledgers' 20 s (``LedgerBackend/testLeaseLimit``) would outlast the test HTTP
    /// client's 20 s read timeout on an outage's first request (the lease's limit, then up to 3 s of diagnosis). That
    /// first request may wait the whole limit, so the "2 s" outage of the recovery test lasts up to about 8 s: still
    /// short beside its 30 s case, whose grown reconnection backoff is what that test is about.
    package static let leaseLimit: Duration = .seconds(8)

    /// A ledger of `real`'s database, reached through this proxy (plaintext: the proxy relays bytes), its leases
    /// waiting ``leaseLimit`` while the server answers. The tests of the service's own 3 s
    /// (`unreachablePostgresFailsFast`) make their ledger without the proxy.
    package func ledger(of real: PostgresClient.Configuration) -> PostgresLedger {
        var configuration = PostgresClient.Configuration(
            host: "127.0.0.1", port: self.port, username: real.username, password: real.password,
            database: real.database, tls: .disable)
        configuration.options = real.options
        return PostgresLedger(
            configuration: configuration, answeringLeaseLimit: Self.leaseLimit, logger: LedgerBackend.quiet)
    }

    /// A proxy in front of `real`'s server.
    package static func postgres(_ real: PostgresClient.Configuration) async throws -> SwitchableProxy {
        guard let host = real.host, let port = real.port else { throw PostgresUnavailable() }
        return try await SwitchableProxy(targetHost: host, targetPort: port)
    }

    /// Stops relaying bytes (until ``thaw()``), closing nothing: a silent partition.
    package func freeze() {
        self.frozen.withLockedValue { $0 = true }
    }

    /// Relays again.
    package func thaw() {
        self.frozen.withLockedValue { $0 = false }
    }

    /// Stops the proxy: no listener, every connection through it closed.
    package func switchOff() async throws {
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
    package func switchOn() async throws {
        let channel = try await Self.bind(
            port: self.port, target: self.target, connections: self.connections, frozen: self.frozen)
        self.listener.withLockedValue { $0 = channel }
    }

    private static func bind(
        port: Int, target: (host: String, port: Int), connections: NIOLockedValueBox<[any Channel]>,
        frozen: NIOLockedValueBox<Bool>
    ) async throws -> any Channel {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { inbound in
                ClientBootstrap(group: inbound.eventLoop)
                    .connect(host: target.host, port: target.port)
                    .flatMap { outbound in
                        connections.withLockedValue { $0 += [inbound, outbound] }
                        return outbound.pipeline.addHandler(Relay(partner: inbound, frozen: frozen)).flatMap {
                            inbound.pipeline.addHandler(Relay(partner: outbound, frozen: frozen))
                        }
                    }
            }
            .bind(host: "127.0.0.1", port: port)
            .get()
    }

    /// Copies what one side reads to the other (drops it while frozen), and closes the other when one closes.
    private final class Relay: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let partner: any Channel
        let frozen: NIOLockedValueBox<Bool>

        init(partner: any Channel, frozen: NIOLockedValueBox<Bool>) {
            self.partner = partner
            self.frozen = frozen
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !self.frozen.withLockedValue({ $0 }) else { return }
            self.partner.writeAndFlush(self.unwrapInboundIn(data), promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            self.partner.close(promise: nil)
            context.fireChannelInactive()
        }
    }

    struct ProxyFailure: Error {}
}
