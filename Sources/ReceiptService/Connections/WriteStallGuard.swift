import NIOCore

/// Closes a connection whose client stops reading its responses: once the connection's outbound buffer is over its
/// high-water mark (the kernel's send buffer full, NIO's past 64 KiB), the response writer waits; if the client has
/// not drained it within ``VerifyReceiptConfiguration/responseWriteTimeout``, the connection is closed and counted
/// (`reason="write_stalled"`). A client that pipelines requests and never reads thus holds its responses' memory for
/// that long at most, never for good.
final class WriteStallGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timeout: TimeAmount
    private let metrics: ServiceMetrics
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount, metrics: ServiceMetrics) {
        self.timeout = timeout
        self.metrics = metrics
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            self.timer?.cancel()
            self.timer = nil
        } else if self.timer == nil {
            let metrics = self.metrics
            let channel = context.channel
            self.timer = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: self.timeout) { [weak self] in
                self?.timer = nil
                guard !channel.isWritable else { return }
                metrics.countClosedConnection(reason: .writeStalled)
                channel.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.timer?.cancel()
        self.timer = nil
        context.fireChannelInactive()
    }
}
