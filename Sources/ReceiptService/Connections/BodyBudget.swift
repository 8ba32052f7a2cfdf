import NIOConcurrencyHelpers

/// The bytes of request bodies the server holds at once, across connections
/// (``VerifyReceiptConfiguration/maximumInFlightBodyBytes``), taken as they arrive.
///
/// A body takes budget chunk by chunk as its bytes are read, never by the length it announces: headers alone cost
/// an attacker nothing, and a stalled upload holds only what it sent. Three rules keep a patient attacker from
/// filling it:
///
/// - **One address, one share.** The bodies of one peer address hold at most
///   ``VerifyReceiptConfiguration/maximumInFlightBodyBytesPerAddress`` (never less than a body of the largest
///   size), so filling the budget takes many addresses.
/// - **A reserve for bodies that arrive whole.** ``VerifyReceiptConfiguration/bodyReservePercent`` of the budget
///   is kept from bodies still arriving: only a body with a declared `Content-Length` that finishes at once (the
///   chunk that completes it, or within ``BodyIntake/borrowWindow`` of its first borrowed byte) may take from it. A flood of partial
///   uploads fills the rest; ordinary requests still find room.
/// - **A request alone always fits**, so a budget below the body limit slows large bodies to one at a time
///   rather than refusing them for ever.
///
/// Holdings are given back when the request has been answered (``give(back:)``).
final class BodyBudget: Sendable {
    /// Why a chunk was refused.
    enum Refusal: String, Error, Sendable, Equatable {
        /// Its address holds its share already.
        case addressShare = "address_share"
        /// The budget (the reserve included, where the chunk may use it) is full.
        case full
    }

    /// Where a granted chunk's bytes were counted.
    enum Pool: Sendable, Equatable {
        case general
        case reserve
    }

    /// The bytes one request holds, by pool: what ``give(back:)`` returns.
    struct Holding: Sendable, Equatable {
        let address: String
        var general = 0
        var reserve = 0

        init(address: String) {
            self.address = address
        }

        /// Whether any of it came from the reserve.
        var borrows: Bool { self.reserve > 0 }
    }

    private struct State {
        var general = 0
        var reserve = 0
        var byAddress: [String: Int] = [:]
    }

    /// The budget in bytes.
    let limit: Int
    /// The part of ``limit`` bodies still arriving may not take.
    let reserveSize: Int
    /// The most one peer address may hold.
    let addressShare: Int
    private let state = NIOLockedValueBox(State())
    /// Where the bytes held are shown (`receiptkit_request_body_bytes`).
    private let metrics: ServiceMetrics?

    /// - Parameters:
    ///   - limit: The budget.
    ///   - reservePercent: Its share (0–90) kept for bodies that arrive whole; never so large that the rest cannot
    ///     hold one body of `largestBody`.
    ///   - addressShare: What one address may hold; never less than `largestBody`.
    ///   - largestBody: The body size limit.
    ///   - metrics: Where the bytes held are shown.
    init(limit: Int, reservePercent: Int, addressShare: Int, largestBody: Int, metrics: ServiceMetrics? = nil) {
        self.metrics = metrics
        let limit = max(1, limit)
        let largestBody = min(max(1, largestBody), limit)
        let percent = min(90, max(0, reservePercent))
        self.limit = limit
        // `limit / 100 * percent` cannot overflow (the limit is at most a TiB by its setting, and percent ≤ 90).
        self.reserveSize = min(limit / 100 * percent, limit - largestBody)
        self.addressShare = max(addressShare, largestBody)
    }

    /// Counts `bytes` more of `holding`'s body; `mayBorrow` when that body may take from the reserve (it completes
    /// with this chunk, or it has a declared length and must finish within the stall timeout once it borrows).
    func take(_ bytes: Int, for holding: inout Holding, mayBorrow: Bool) -> Result<Pool, Refusal> {
        let bytes = max(0, bytes)
        let granted: Result<Pool, Refusal> = self.state.withLockedValue { state in
            let held = state.byAddress[holding.address, default: 0]
            guard held == 0 || bytes <= self.addressShare - held else { return .failure(.addressShare) }
            let pool: Pool
            if bytes <= self.limit - self.reserveSize - state.general {
                pool = .general
            } else if mayBorrow, bytes <= self.reserveSize - state.reserve {
                pool = .reserve
            } else if state.general == 0, state.reserve == 0 {
                pool = .general
            } else {
                return .failure(.full)
            }
            switch pool {
            case .general: state.general += bytes
            case .reserve: state.reserve += bytes
            }
            state.byAddress[holding.address] = held + bytes
            self.metrics?.setBodyBytesHeld(state.general + state.reserve)
            return .success(pool)
        }
        switch granted {
        case .success(.general): holding.general += bytes
        case .success(.reserve): holding.reserve += bytes
        case .failure: break
        }
        return granted
    }

    /// Why a new body from `address` could not take its first `bytes` now (a read's worth, at most), or `nil` when
    /// it could: its address's share, and the budget — the reserve included only when `mayBorrow` — have them
    /// left. Checked before any of the body is read, and before a client is told `100 Continue`.
    func refusal(for address: String, bytes: Int, mayBorrow: Bool) -> Refusal? {
        let bytes = max(0, bytes)
        return self.state.withLockedValue { state in
            let held = state.byAddress[address, default: 0]
            guard held == 0 || bytes <= self.addressShare - held else { return .addressShare }
            if state.general + state.reserve == 0 || bytes <= self.limit - self.reserveSize - state.general { return nil }
            return mayBorrow && bytes <= self.reserveSize - state.reserve ? nil : .full
        }
    }

    /// Gives back everything `holding` took.
    func give(back holding: Holding) {
        guard holding.general > 0 || holding.reserve > 0 else { return }
        self.state.withLockedValue { state in
            state.general = max(0, state.general - holding.general)
            state.reserve = max(0, state.reserve - holding.reserve)
            let left = state.byAddress[holding.address, default: 0] - holding.general - holding.reserve
            state.byAddress[holding.address] = left > 0 ? left : nil
            self.metrics?.setBodyBytesHeld(state.general + state.reserve)
        }
    }

    /// The bytes held now, in all: for tests and `/metrics`.
    var held: Int {
        self.state.withLockedValue { $0.general + $0.reserve }
    }
}
