import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import _ReceiptKitShared

/// Reads one request's body as it arrives, against the size limit, the in-flight ``BodyBudget`` and two clocks:
/// the request timeout for the whole body, and the stall timeout for each pause between its chunks (one
/// ``StallWatch`` per body).
///
/// Each chunk takes budget when it has been read (``BodyBudget/take(_:for:mayBorrow:)``), so a client pays for
/// what it holds in bytes it actually sent. A body with a declared `Content-Length` may borrow from the reserve
/// when the rest of the budget is full; once it does, it must finish within ``borrowWindow`` (or the stall
/// timeout, if shorter) of its first borrowed byte: a body sent whole arrives in milliseconds, while an attacker
/// who wanted to keep the reserve full would have to send it anew four times a second.
struct BodyIntake: Sendable {
    /// How the read ended.
    enum End: Sendable {
        /// The whole body.
        case complete(ByteBuffer)
        /// It grew past the size limit (the rest is not read).
        case tooLarge
        /// A chunk did not fit the budget (the rest is not read).
        case refused(BodyBudget.Refusal)
        /// No byte came for the stall timeout, or a body borrowing from the reserve did not finish within the
        /// borrow window.
        case stalled
        /// The body did not arrive within the request timeout.
        case timedOut
    }

    /// What a request holds of the budget; given back by its owner once the request is answered, also when the
    /// read was cancelled half-way.
    final class Hold: Sendable {
        private let holding: NIOLockedValueBox<BodyBudget.Holding>

        init(address: String) {
            self.holding = NIOLockedValueBox(BodyBudget.Holding(address: address))
        }

        fileprivate func take(_ bytes: Int, from budget: BodyBudget, mayBorrow: Bool) -> Result<BodyBudget.Pool, BodyBudget.Refusal> {
            self.holding.withLockedValue { budget.take(bytes, for: &$0, mayBorrow: mayBorrow) }
        }

        /// Gives everything back (once: the holding is emptied).
        func release(to budget: BodyBudget) {
            let held = self.holding.withLockedValue { holding in
                defer { holding = BodyBudget.Holding(address: holding.address) }
                return holding
            }
            budget.give(back: held)
        }
    }

    /// The most of a body that must have room before any of it is read: about one read from the socket.
    static let firstChunk = 64 * 1024

    /// How long a body that borrowed from the reserve has to finish.
    static let borrowWindow: Duration = .milliseconds(250)

    let budget: BodyBudget
    /// Bytes past which the body is refused (413).
    let sizeLimit: Int
    /// The body's `Content-Length`, if it declared one.
    let declaredLength: Int?
    let stallTimeout: Duration
    let requestTimeout: Duration

    /// Reads `body` into one buffer, or says why not.
    func read(_ body: RequestBody, into hold: Hold) async throws -> End {
        let chunks = ChunkReader(body.makeAsyncIterator())
        let watch = StallWatch(stallTimeout: self.stallTimeout, borrowWindow: Self.borrowWindow, startingAt: .now)
        let whole = try await withDeadline(self.requestTimeout) {
            let reading = Task { try await self.collect(chunks, hold, watch) }
            watch.watch(reading, now: .now)
            defer { watch.finish() }
            return try await withTaskCancellationHandler {
                do {
                    return try await reading.value
                } catch {
                    if watch.stalled { return .stalled }
                    throw error
                }
            } onCancel: {
                reading.cancel()
            }
        }
        return whole ?? .timedOut
    }

    private func collect(_ chunks: ChunkReader, _ hold: Hold, _ watch: StallWatch) async throws -> End {
        var collected = ByteBuffer()
        while true {
            let next = try await chunks.next()
            // A cancelled read (stalled, or the request timed out) ends as if the body had: never take that as
            // whole.
            try Task.checkCancellation()
            guard var chunk = next else { return .complete(collected) }
            let size = chunk.readableBytes
            guard size <= self.sizeLimit - collected.readableBytes else { return .tooLarge }
            switch hold.take(size, from: self.budget, mayBorrow: self.declaredLength != nil) {
            case .failure(let refusal):
                return .refused(refusal)
            case .success(let pool):
                let completes = self.declaredLength.map { collected.readableBytes + size >= $0 } ?? false
                watch.chunkArrived(at: .now, borrowing: pool == .reserve && !completes)
            }
            collected.writeBuffer(&chunk)
        }
    }

    /// A request body's iterator, handed to the task that reads the body. Only one read is ever under way: the
    /// task awaits each before it asks for the next.
    fileprivate final class ChunkReader: @unchecked Sendable {
        private var iterator: RequestBody.AsyncIterator

        init(_ iterator: RequestBody.AsyncIterator) {
            self.iterator = iterator
        }

        func next() async throws -> ByteBuffer? {
            try await self.iterator.next()
        }
    }
}
