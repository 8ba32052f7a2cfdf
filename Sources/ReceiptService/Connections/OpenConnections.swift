import NIOConcurrencyHelpers
import NIOCore

/// The server's open connections against its caps, shared by every connection's ``ConnectionGuard``: the total
/// (``VerifyReceiptConfiguration/maximumConnections``), the share of one peer address
/// (``VerifyReceiptConfiguration/maximumConnectionsPerAddress``), and which connections sit idle between requests,
/// oldest first — at the cap, the one idle the longest is closed to admit a new connection.
final class OpenConnections: Sendable {
    /// Why a connection was not admitted.
    enum Refusal: Error {
        /// Every place is taken by a connection that is not idle.
        case full
        /// Its peer address holds its share already.
        case address
    }

    private struct Entry {
        let channel: any Channel
        let address: String
        /// When it last became idle (an order, not a time), or `nil` while a request is under way.
        var idleSince: UInt64?
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var perAddress: [String: Int] = [:]
        var idleCounter: UInt64 = 0
    }

    /// The cap (``VerifyReceiptConfiguration/maximumConnections``).
    let limit: Int
    /// The share of one peer address.
    let addressLimit: Int
    private let state = NIOLockedValueBox(State())
    /// Where the open connections and the reclaims are counted (`nil`: not counted, for the probes' listener).
    private let metrics: ServiceMetrics?

    init(limit: Int, addressLimit: Int, metrics: ServiceMetrics?) {
        self.limit = max(1, limit)
        self.addressLimit = max(1, addressLimit)
        self.metrics = metrics
    }

    /// Takes a place for `channel`, a connection from `address` (its peer's IP; `nil` is counted as one unknown
    /// address). At the cap, the place of the connection idle the longest is given to it (counted as
    /// `idle_reclaimed`), and that connection told to close (``ReclaimIdleConnection``: on its own event loop, at
    /// once if it still idles, else after the request it has begun since); without one idle, or past the address's
    /// share, the connection is refused.
    func admit(_ channel: any Channel, address: String?) -> Result<Void, Refusal> {
        let address = address ?? "unknown"
        let outcome: Result<(count: Int, reclaimed: (any Channel)?), Refusal> = self.state.withLockedValue { state in
            guard state.perAddress[address, default: 0] < self.addressLimit else { return .failure(.address) }
            var reclaimed: (any Channel)?
            if state.entries.count >= self.limit {
                let oldest = state.entries.filter { $0.value.idleSince != nil }
                    .min { ($0.value.idleSince ?? 0) < ($1.value.idleSince ?? 0) }
                guard let oldest else { return .failure(.full) }
                // It leaves the table now: its place is the new connection's, whenever its close completes.
                state.entries.removeValue(forKey: oldest.key)
                Self.forget(oldest.value.address, in: &state)
                reclaimed = oldest.value.channel
            }
            state.entries[ObjectIdentifier(channel)] = Entry(channel: channel, address: address, idleSince: nil)
            state.perAddress[address, default: 0] += 1
            return .success((state.entries.count, reclaimed))
        }
        switch outcome {
        case .failure(let refusal):
            return .failure(refusal)
        case .success(let (count, reclaimed)):
            if let reclaimed {
                self.metrics?.countClosedConnection(reason: .idleReclaimed)
                reclaimed.pipeline.fireUserInboundEventTriggered(ReclaimIdleConnection())
            }
            self.metrics?.setOpenConnections(count)
            return .success(())
        }
    }

    /// `channel` answered every request it sent and waits: it may be reclaimed, oldest first.
    func becameIdle(_ channel: any Channel) {
        self.state.withLockedValue { state in
            guard state.entries[ObjectIdentifier(channel)] != nil else { return }
            state.idleCounter &+= 1
            state.entries[ObjectIdentifier(channel)]?.idleSince = state.idleCounter
        }
    }

    /// Bytes arrived on `channel`: a request may be under way, so it is not reclaimed.
    func becameBusy(_ channel: any Channel) {
        self.state.withLockedValue { state in
            state.entries[ObjectIdentifier(channel)]?.idleSince = nil
        }
    }

    /// Gives back the place of `channel` (if it still holds one: a reclaimed connection gave it up already).
    func release(_ channel: any Channel) {
        let remaining = self.state.withLockedValue { state -> Int in
            if let entry = state.entries.removeValue(forKey: ObjectIdentifier(channel)) {
                Self.forget(entry.address, in: &state)
            }
            return state.entries.count
        }
        self.metrics?.setOpenConnections(remaining)
    }

    /// One connection fewer from `address`.
    private static func forget(_ address: String, in state: inout State) {
        let left = state.perAddress[address, default: 1] - 1
        state.perAddress[address] = left > 0 ? left : nil
    }

    /// Connections open now (those reclaimed and not yet closed excluded).
    var count: Int { self.state.withLockedValue { $0.entries.count } }
}
