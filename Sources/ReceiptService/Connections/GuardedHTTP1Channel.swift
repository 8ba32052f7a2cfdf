import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1.1 child channel with the service's connection limits around it: a ``ConnectionGuard``
/// in front of the HTTP decoder (connection cap, header-read deadline on raw bytes), a ``WriteStallGuard`` (clients
/// that stop reading their responses) and a ``RequestHeadWatcher`` behind it (when heads arrive and responses end).
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let connections: OpenConnections
    let headerReadTimeout: TimeAmount
    let responseWriteTimeout: TimeAmount
    let metrics: ServiceMetrics

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let connections = self.connections
        let metrics = self.metrics
        let timeout = self.headerReadTimeout
        let writeTimeout = self.responseWriteTimeout
        let http1 = self.http1
        let prepared = channel.eventLoop.makeCompletedFuture {
            let clock = RequestHeadClock(timeout: timeout) { [weak channel] in
                metrics.countClosedConnection(reason: .headerTimeout)
                channel?.close(promise: nil)
            }
            try channel.pipeline.syncOperations.addHandler(
                ConnectionGuard(connections: connections, clock: clock, metrics: metrics))
            try channel.pipeline.syncOperations.addHandler(WriteStallGuard(timeout: writeTimeout, metrics: metrics))
            return NIOLoopBound(clock, eventLoop: channel.eventLoop)
        }
        return prepared.flatMap { clock in
            http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
                let pipeline = channel.pipeline.syncOperations
                let state = try pipeline.handler(type: HTTPConnectionStateHandler.self)
                try pipeline.addHandler(
                    RequestHeadWatcher(clock: clock.value, connections: connections), position: .before(state))
                return value
            }
        }
    }

    func handle(value: Value, logger: Logger) async {
        await self.http1.handle(value: value, logger: logger)
    }
}
