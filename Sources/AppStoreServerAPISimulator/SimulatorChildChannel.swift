import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1.1 child channel, except that while the store is down (``SimulatedAppStore/isDown``) each
/// accepted connection is closed before anything is read, as a host that is gone would drop it.
struct SimulatorChildChannel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let store: SimulatedAppStore

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard !self.store.isDown else {
            return channel.close().flatMapThrowing { throw ChannelError.ioOnClosedChannel }
        }
        return self.http1.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await self.http1.handle(value: value, logger: logger)
    }
}
