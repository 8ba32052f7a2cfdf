import NIOCore

/// One connection's header-read deadline, shared by the two handlers that see it from either side of the HTTP
/// decoder: ``ConnectionGuard`` (raw bytes) arms it when a request's first bytes arrive, ``RequestHeadWatcher``
/// (decoded parts) disarms it when the request's head has been decoded.
///
/// A connection is *between requests* when every head it sent has been answered: only then can bytes start a new
/// head. A keep-alive connection that sends nothing is left to the idle timeout; the deadline runs from the
/// connection's opening and from the first byte of each later request.
///
/// Lives on the connection's event loop; both handlers and the timer run there.
final class RequestHeadClock {
    private let timeout: TimeAmount
    private let onExpiry: () -> Void
    private var headsReceived = 0
    private var responsesEnded = 0
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount, onExpiry: @escaping () -> Void) {
        self.timeout = timeout
        self.onExpiry = onExpiry
    }

    /// Whether every head the connection sent has been answered.
    var isBetweenRequests: Bool { self.headsReceived == self.responsesEnded }
    /// Whether the connection was last told to ``OpenConnections`` as idle (no byte since its last answer).
    var isIdle = false
    /// Reads of raw bytes so far, and their number when the last request's end was decoded: equal when nothing
    /// has arrived since (no next request begun).
    var reads: UInt64 = 0
    var readsAtRequestEnd: UInt64 = 0
    /// Whether ``OpenConnections`` gave this connection's place away while a request was under way: it closes once
    /// that request is answered.
    var reclaimRequested = false

    /// A connection opened, or bytes arrived: starts the deadline when they may begin a head and none runs yet.
    func bytesMayStartHead(on eventLoop: any EventLoop) {
        guard self.isBetweenRequests, self.timer == nil else { return }
        self.timer = eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: self.timeout) { [weak self] in
            guard let self else { return }
            self.timer = nil
            if self.isBetweenRequests { self.onExpiry() }
        }
    }

    /// A request's head was decoded.
    func headReceived() {
        self.headsReceived &+= 1
        self.cancel()
    }

    /// A response's last part was written.
    func responseEnded() {
        self.responsesEnded &+= 1
    }

    /// Stops the deadline (the head arrived, or the connection closed).
    func cancel() {
        self.timer?.cancel()
        self.timer = nil
    }
}
