import Foundation
import PostgresNIO
import ReceiptKit
@testable import ReceiptLedger
import LedgerTestSupport
import Testing

/// The snapshot cache: a kept snapshot is answered until a write names one of its ids, never after; a read that
/// overlapped a write is not kept; it stays within its bounds; and on every backend a write is seen by the next
/// read — on PostgreSQL another instance's too, once its change notification arrives.
@Suite("Ledger snapshot cache")
struct LedgerSnapshotCacheTests {
    static let app = "com.example.app"

    static func query(_ ids: [String]) -> LedgerQuery {
        LedgerQuery(environment: .production, bundleIdentifier: Self.app, originalTransactionIdentifiers: ids)
    }

    /// A snapshot of one transaction of `original`, with `json` as its purchase.
    static func snapshot(_ original: String, json: Int = 10) -> LedgerSnapshot {
        LedgerSnapshot(
            transactions: [Self.transaction(original, original, cancelled: nil, json: json)], renewalInfo: [])
    }

    static func transaction(
        _ id: String, _ original: String, cancelled: Int64?, json: Int = 10, source: LedgerSource = .receipt
    ) -> LedgerTransaction {
        LedgerTransaction(
            environment: .production, bundleIdentifier: Self.app, transactionIdentifier: id,
            originalTransactionIdentifier: original, productIdentifier: "com.example.monthly",
            purchaseDateMilliseconds: 1_000, expiresDateMilliseconds: 2_000_000_000_000,
            cancellationDateMilliseconds: cancelled, receiptHash: "jws:\(id)-\(cancelled ?? 0)",
            receiptCreationMilliseconds: 1_900_000_000_000 + (cancelled ?? 0),
            json: Array(repeating: UInt8(ascii: "x"), count: json),
            source: source)
    }

    @Test("kept until a write names one of its ids; a write about other ids leaves it")
    func keptUntilWritten() throws {
        let cache = LedgerSnapshotCache(enabled: true)
        let query = Self.query(["1", "2"])
        let ticket = try #require(cache.ticket())
        cache.keep(Self.snapshot("1"), for: query, ticket: ticket)
        #expect(cache.snapshot(for: query) == Self.snapshot("1"))
        cache.written(["3"])
        #expect(cache.snapshot(for: query) == Self.snapshot("1"))
        cache.written(["2"])
        #expect(cache.snapshot(for: query) == nil)
        #expect(cache.statistics.entries == 0 && cache.statistics.bytes == 0)
    }

    @Test("statistics: hits, misses (nothing kept, or written since), and no count while disabled")
    func statisticsCountLookups() throws {
        let cache = LedgerSnapshotCache(enabled: true)
        let query = Self.query(["1"])
        #expect(cache.snapshot(for: query) == nil)
        let ticket = try #require(cache.ticket())
        cache.keep(Self.snapshot("1"), for: query, ticket: ticket)
        #expect(cache.snapshot(for: query) != nil)
        #expect(cache.snapshot(for: query) != nil)
        let bytes = LedgerSnapshotCache.estimatedBytes(Self.snapshot("1"), query: query)
        #expect(cache.statistics == LedgerCacheStatistics(isEnabled: true, entries: 1, bytes: bytes, hits: 2, misses: 1))
        cache.written(["1"])
        #expect(cache.snapshot(for: query) == nil)  // kept, but written since: a miss, and dropped
        #expect(cache.statistics == LedgerCacheStatistics(isEnabled: true, entries: 0, bytes: 0, hits: 2, misses: 2))
        cache.setHearsWrites(false)
        #expect(cache.snapshot(for: query) == nil)
        #expect(cache.statistics == LedgerCacheStatistics(isEnabled: false, entries: 0, bytes: 0, hits: 2, misses: 2))
    }

    @Test("near misses: a miss of a query looked up lately and no longer kept counts; a first lookup, and one after a flush, do not")
    func nearMissesCountWhatALargerCacheWouldAnswer() throws {
        // Room for two snapshots; three queries in turn always miss, and from the second pass on every miss is near.
        let bytes = LedgerSnapshotCache.estimatedBytes(Self.snapshot("1"), query: Self.query(["1"]))
        let cache = LedgerSnapshotCache(maximumBytes: 2 * bytes + bytes / 2, enabled: true)
        for _ in 0..<3 {
            for id in ["1", "2", "3"] where cache.snapshot(for: Self.query([id])) == nil {
                cache.keep(Self.snapshot(id), for: Self.query([id]), ticket: try #require(cache.ticket()))
            }
        }
        #expect(cache.statistics.hits == 0)
        #expect(cache.statistics.misses == 9)
        #expect(cache.statistics.nearMisses == 6)
        cache.flush()
        #expect(cache.snapshot(for: Self.query(["1"])) == nil)
        #expect(cache.statistics.nearMisses == 6)  // after a flush a miss says nothing of the cache's size
    }

    @Test("near misses are counted by a cache enabled after it was made (PostgreSQL's, once its listener hears)")
    func nearMissesOnceEnabledLater() throws {
        let cache = LedgerSnapshotCache(enabled: false)
        cache.schemaAnnouncesChanges()
        cache.setHearsWrites(true)
        #expect(cache.snapshot(for: Self.query(["1"])) == nil)
        #expect(cache.snapshot(for: Self.query(["1"])) == nil)
        #expect(cache.statistics.misses == 2)
        #expect(cache.statistics.nearMisses == 1)
    }

    @Test("recent lookups: a key is remembered for as many lookups as the capacity, repeats counted")
    func recentLookupsForgetTheOldest() {
        var recent = RecentLookups(capacity: 3)
        #expect(recent.note(1) == false)
        #expect(recent.note(2) == false)
        #expect(recent.note(1) == true)
        #expect(recent.note(3) == false)  // forgets the first 1; the second stays
        #expect(recent.note(4) == false)  // forgets 2
        #expect(recent.note(1) == true)
        #expect(recent.note(2) == false)
        recent.removeAll()
        #expect(recent.note(4) == false)
    }

    @Test("a read that a write overlapped is not kept; one that began after it is")
    func overlappingReadIsNotKept() throws {
        let cache = LedgerSnapshotCache(enabled: true)
        let query = Self.query(["1"])
        let before = try #require(cache.ticket())
        cache.written(["1"])  // committed while the read ran: the read may hold the old row
        cache.keep(Self.snapshot("1"), for: query, ticket: before)
        #expect(cache.snapshot(for: query) == nil)
        let after = try #require(cache.ticket())
        cache.keep(Self.snapshot("1"), for: query, ticket: after)
        #expect(cache.snapshot(for: query) == Self.snapshot("1"))
    }

    @Test("a flush drops everything and keeps no read that was running")
    func flushDropsRunningReads() throws {
        let cache = LedgerSnapshotCache(enabled: true)
        let running = try #require(cache.ticket())
        cache.keep(Self.snapshot("1"), for: Self.query(["1"]), ticket: running)
        cache.flush()
        #expect(cache.snapshot(for: Self.query(["1"])) == nil)
        cache.keep(Self.snapshot("2"), for: Self.query(["2"]), ticket: running)
        #expect(cache.snapshot(for: Self.query(["2"])) == nil)
    }

    @Test("a write naming a kept snapshot's transaction under another original transaction id drops it too")
    func movedTransactionDropsTheSnapshot() throws {
        let cache = LedgerSnapshotCache(enabled: true)
        let query = Self.query(["5000"])
        cache.keep(Self.snapshot("5000"), for: query, ticket: try #require(cache.ticket()))
        // A refund that files transaction 5000 under original 4000: its update names 4000 and 5000.
        let update = LedgerUpdate(source: .notification, transactions: [Self.transaction("5000", "4000", cancelled: 1)])
        #expect(update.writtenIdentifiers == ["4000", "5000"])
        cache.written(["4000"])
        #expect(cache.snapshot(for: query) != nil)  // the original id alone would leave it
        cache.written(update.writtenIdentifiers)
        #expect(cache.snapshot(for: query) == nil)
    }

    @Test("PostgreSQL's cache works only while its listener hears writes and the schema announces them")
    func disabledUntilHeard() throws {
        let cache = LedgerSnapshotCache(enabled: false)
        #expect(cache.ticket() == nil)
        cache.setHearsWrites(true)
        #expect(cache.ticket() == nil && !cache.isEnabled)  // not migrated: nobody announces changes yet
        cache.schemaAnnouncesChanges()
        let ticket = try #require(cache.ticket())
        cache.keep(Self.snapshot("1"), for: Self.query(["1"]), ticket: ticket)
        #expect(cache.snapshot(for: Self.query(["1"])) != nil)
        cache.setHearsWrites(false)  // the listener's connection failed: others' writes go unheard
        #expect(cache.snapshot(for: Self.query(["1"])) == nil && cache.ticket() == nil)
        cache.setHearsWrites(true)
        #expect(cache.snapshot(for: Self.query(["1"])) == nil)  // flushed: nothing from before comes back
        #expect(cache.isEnabled)
        #expect(LedgerSnapshotCache(maximumBytes: 0, enabled: true).ticket() == nil)
    }

    @Test("bounded in bytes, oldest dropped first; a snapshot larger than the bound is not kept")
    func boundedInBytes() throws {
        let one = LedgerSnapshotCache.estimatedBytes(Self.snapshot("1", json: 1_000), query: Self.query(["1"]))
        let cache = LedgerSnapshotCache(maximumBytes: 3 * one, enabled: true)
        for id in ["1", "2", "3", "4"] {
            cache.keep(Self.snapshot(id, json: 1_000), for: Self.query([id]), ticket: try #require(cache.ticket()))
        }
        #expect(cache.snapshot(for: Self.query(["1"])) == nil)
        #expect(["2", "3", "4"].allSatisfy { cache.snapshot(for: Self.query([$0])) != nil })
        #expect(cache.statistics.entries == 3 && cache.statistics.bytes <= 3 * one)
        cache.keep(Self.snapshot("5", json: 4 * one), for: Self.query(["5"]), ticket: try #require(cache.ticket()))
        #expect(cache.snapshot(for: Self.query(["5"])) == nil)
        #expect(cache.statistics.entries == 3)
        // Reading, invalidating and dropping one query again and again does not grow the eviction order without
        // bound: it is compacted.
        for _ in 0..<5_000 {
            cache.keep(Self.snapshot("2", json: 1_000), for: Self.query(["2"]), ticket: try #require(cache.ticket()))
            cache.written(["2"])
            #expect(cache.snapshot(for: Self.query(["2"])) == nil)
        }
        #expect(cache.statistics.bytes <= 3 * one)
        #expect(cache.orderLength <= 2 * cache.statistics.entries + 1_025)
    }

    @Test("past the most ids it remembers as written, it starts again empty")
    func trackedIdentifiersAreBounded() throws {
        let cache = LedgerSnapshotCache(maximumTrackedIdentifiers: 10, enabled: true)
        let running = try #require(cache.ticket())
        cache.keep(Self.snapshot("kept"), for: Self.query(["kept"]), ticket: running)
        for id in 0..<10 { cache.written(["w\(id)"]) }
        #expect(cache.snapshot(for: Self.query(["kept"])) != nil)
        cache.written(["w10"])
        #expect(cache.snapshot(for: Self.query(["kept"])) == nil)
        // A read that was running at the flush is not kept either.
        cache.keep(Self.snapshot("late"), for: Self.query(["late"]), ticket: running)
        #expect(cache.snapshot(for: Self.query(["late"])) == nil)
    }

    // MARK: Every backend

    static func cache(of ledger: any Ledger) throws -> LedgerSnapshotCache {
        if let sqlite = ledger as? SQLiteLedger { return sqlite.operations.snapshots }
        return try #require(ledger as? PostgresLedger).operations.snapshots
    }

    /// Waits, boundedly, until `cache` works (PostgreSQL: its listener has connected).
    static func untilEnabled(_ cache: LedgerSnapshotCache) async throws {
        for _ in 0..<200 where !cache.isEnabled { try await Task.sleep(for: .milliseconds(25)) }
        #expect(cache.isEnabled)
    }

    /// Runs `body` on a fresh ledger of `backend` once `seed` has written and the snapshot of `ids` is kept (the
    /// next reads would be answered from it).
    static func withKeptSnapshot(
        _ backend: LedgerBackend, of ids: [String], seed: @escaping @Sendable (any Ledger) async throws -> Void,
        _ body: @escaping @Sendable (any Ledger, LedgerQuery) async throws -> Void
    ) async throws {
        try await backend.withLedger { ledger in
            let cache = try Self.cache(of: ledger)
            try await Self.untilEnabled(cache)
            try await seed(ledger)
            let query = Self.query(ids)
            #expect(try await Self.kept(query, by: ledger, in: cache))
            try await body(ledger, query)
        }
    }

    @Test("every kind of write is seen by the next read, though the snapshot before it was kept",
          arguments: LedgerBackend.available)
    func writesAreSeenAtOnce(backend: LedgerBackend) async throws {
        let entry = LedgerContractTests.entry(
            ServiceTestPKI.receipt(purchases: [ServiceTestPKI.purchase("7000", original: "7000", day: 1)]),
            tag: "cached")
        try await Self.withKeptSnapshot(backend, of: ["7000"], seed: { try await $0.record(entry) }) { ledger, query in
            #expect(try await ledger.snapshot(matching: query).transactions.count == 1)

            // A refund from a notification.
            let refunded = Self.transaction("7000", "7000", cancelled: 9_000_000, source: .notification)
            let notification = LedgerNotification(
                notificationUUID: UUID().uuidString, environment: .production, bundleIdentifier: Self.app,
                notificationType: "REFUND", subtype: nil, signedMilliseconds: 9_000_000,
                receivedMilliseconds: 9_000_001,
                payloadJSON: Array("{}".utf8), transaction: refunded, renewalInfo: nil)
            #expect(try await ledger.recordNotification(notification))
            #expect(try await ledger.snapshot(matching: query).transactions.first?.cancellationDateMilliseconds == 9_000_000)

            // A renewal from the App Store Server API, and its refresh stamp.
            let renewal = Self.transaction("7001", "7000", cancelled: nil, source: .api)
            let stamp = LedgerRefresh(query, at: Date(timeIntervalSince1970: 9_500))
            try await ledger.apply(LedgerUpdate(source: .api, transactions: [renewal], refresh: stamp))
            let refreshed = try await ledger.snapshot(matching: query)
            #expect(Set(refreshed.transactions.map(\.transactionIdentifier)) == ["7000", "7001"])
            #expect(refreshed.apiRefreshedMilliseconds(originalTransactionIdentifier: "7000") == 9_500_000)

            // Renewal information.
            let info = LedgerRenewalInfo(
                environment: .production, bundleIdentifier: Self.app, originalTransactionIdentifier: "7000",
                productIdentifier: "com.example.monthly", updatedMilliseconds: 9_600_000,
                json: Array(#"{"auto_renew_status":"0"}"#.utf8))
            try await ledger.apply(LedgerUpdate(source: .notification, renewalInfo: [info]))
            #expect(try await ledger.snapshot(matching: query).renewalInfo == [info])

            // A newer receipt.
            let newer = LedgerContractTests.entry(
                ServiceTestPKI.receipt(createdDay: 300, purchases: [ServiceTestPKI.purchase("7000", original: "7000", day: 1)]),
                tag: "newer")
            try await ledger.record(newer)
            #expect(try await ledger.snapshot(matching: query).latestReceiptHash == newer.hash)
        }
    }

    @Test("a refund that files a kept transaction under another original transaction id is seen by the next read",
          arguments: LedgerBackend.available)
    func movedTransactionIsSeen(backend: LedgerBackend) async throws {
        let seed = LedgerUpdate(source: .api, transactions: [Self.transaction("5000", "5000", cancelled: nil)])
        try await Self.withKeptSnapshot(backend, of: ["5000"], seed: { try await $0.apply(seed) }) { ledger, query in
            try await ledger.apply(
                LedgerUpdate(source: .notification, transactions: [Self.transaction("5000", "4000", cancelled: 1_000)]))
            // The row now belongs to 4000: 5000's snapshot no longer holds it, refunded or not.
            #expect(try await ledger.snapshot(matching: query).transactions.isEmpty)
            let moved = try await ledger.snapshot(matching: Self.query(["4000"]))
            #expect(moved.transactions.first?.cancellationDateMilliseconds == 1_000)
        }
    }

    @Test("snapshotCacheBytes 0 reads every snapshot from the database")
    func cacheCanBeTurnedOff() async throws {
        let ledger = try await SQLiteLedger(path: nil, snapshotCacheBytes: 0)
        try await ledger.migrate()
        let query = Self.query(["1"])
        _ = try await ledger.snapshot(matching: query)
        #expect(!ledger.operations.snapshots.isEnabled && ledger.cacheStatistics?.entries == 0)
        await ledger.shutdown()
        let postgres = try PostgresLedger(url: "postgres://rk@127.0.0.1:1/rk?sslmode=disable", snapshotCacheBytes: 0)
        postgres.operations.snapshots.setHearsWrites(true)
        postgres.operations.snapshots.schemaAnnouncesChanges()
        #expect(!postgres.operations.snapshots.isEnabled)
    }

    @Test("PostgreSQL: another instance's refund reaches a kept snapshot, also across a lost listener connection",
          .enabled(if: LedgerBackend.postgresURL != nil, Comment(rawValue: LedgerBackend.postgresSkipMessage)))
    func anotherInstancesWritesAreHeard() async throws {
        try await LedgerBackend.withPostgresSchema { configuration in
            // b's connections carry a name of their own, so that the test cuts b's listener and no one else's.
            let name = "rk-test-b-\(UUID().uuidString.prefix(8))"
            var named = configuration
            named.options.additionalStartupParameters.append(("application_name", name))
            let a = PostgresLedger(configuration: configuration, answeringLeaseLimit: LedgerBackend.testLeaseLimit, logger: LedgerBackend.quiet)
            let b = PostgresLedger(configuration: named, answeringLeaseLimit: LedgerBackend.testLeaseLimit, logger: LedgerBackend.quiet)
            try await LedgerBackend.running(a) {
                try await LedgerBackend.running(b) {
                    try await a.migrate()
                    try await b.migrate()
                    let cache = b.operations.snapshots
                    try await Self.untilEnabled(cache)
                    let query = Self.query(["8000"])
                    try await a.apply(LedgerUpdate(
                        source: .api, transactions: [Self.transaction("8000", "8000", cancelled: nil)]))
                    #expect(try await b.snapshot(matching: query).transactions.count == 1)
                    #expect(try await Self.kept(query, by: b, in: cache))

                    try await a.apply(LedgerUpdate(
                        source: .notification, transactions: [Self.transaction("8000", "8000", cancelled: 1_000)]))
                    #expect(try await Self.eventually(b, query) { $0.transactions.first?.cancellationDateMilliseconds == 1_000 })

                    // b's listener loses its connection: while it is away nothing is kept, and what a wrote
                    // meanwhile is read once it is back.
                    #expect(try await b.snapshot(matching: query).transactions.count == 1)
                    // Every connection of b's, its listener's among them (whose last statement may be its heartbeat).
                    let terminated = try await a.client.query(PostgresQuery(unsafeSQL: """
                        SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '\(name)'
                        """))
                    var count = 0
                    for try await _ in terminated { count += 1 }
                    #expect(count >= 1)
                    try await a.apply(LedgerUpdate(
                        source: .notification, transactions: [Self.transaction("8000", "8000", cancelled: 2_000)]))
                    #expect(try await Self.eventually(b, query) { $0.transactions.first?.cancellationDateMilliseconds == 2_000 })
                    try await Self.untilEnabled(cache)
                }
            }
        }
    }

    @Test("PostgreSQL: a connection cut without a word stops the cache within the heartbeat's interval and limit",
          .enabled(if: LedgerBackend.postgresURL != nil, Comment(rawValue: LedgerBackend.postgresSkipMessage)))
    func silentPartitionStopsTheCache() async throws {
        try await LedgerBackend.withPostgresSchema { real in
            let proxy = try await SwitchableProxy.postgres(real)
            let ledger = proxy.ledger(of: real)
            try await LedgerBackend.running(ledger) {
                try await ledger.migrate()
                let cache = ledger.operations.snapshots
                try await Self.untilEnabled(cache)
                let query = Self.query(["9000"])
                try await ledger.apply(LedgerUpdate(
                    source: .api, transactions: [Self.transaction("9000", "9000", cancelled: nil)]))
                #expect(try await Self.kept(query, by: ledger, in: cache))
                proxy.freeze()
                defer { proxy.thaw() }
                // Another instance's refund now goes unheard; the kept snapshot must stop being answered once the
                // heartbeat misses (interval + limit), not when TCP gives up hours later. The bound leaves a minute
                // for a machine busy enough to keep the heartbeat's task from running.
                let frozen = ContinuousClock.now
                let bound = PostgresChangeListener.heartbeatInterval + PostgresChangeListener.heartbeatLimit + .seconds(60)
                while cache.isEnabled, ContinuousClock.now - frozen < bound {
                    try await Task.sleep(for: .milliseconds(50))
                }
                #expect(!cache.isEnabled)
                #expect(cache.snapshot(for: query) == nil)
            }
        }
    }

    /// Whether reading `query` from `ledger` leaves its snapshot kept in `cache`, within 5 s: on PostgreSQL the
    /// announcement of a write just made (this instance's own included) may arrive after the read and drop it, so
    /// it reads again until none is in flight.
    static func kept(_ query: LedgerQuery, by ledger: any Ledger, in cache: LedgerSnapshotCache) async throws -> Bool {
        for _ in 0..<200 {
            _ = try await ledger.snapshot(matching: query)
            if cache.snapshot(for: query) != nil { return true }
            try await Task.sleep(for: .milliseconds(25))
        }
        return false
    }

    /// Reads `query` from `ledger` until `condition` holds, at most 10 s; whether it did.
    /// Whether `condition` holds for a read through `ledger` within 10 s. A read that finds the database unavailable
    /// counts as "not yet": after the test cuts every connection of an instance, the read that races the pool's
    /// notice of a cut connection fails once with `serverClosedConnection` (seen in a full run), as a request would.
    static func eventually(
        _ ledger: PostgresLedger, _ query: LedgerQuery, _ condition: (LedgerSnapshot) -> Bool
    ) async throws -> Bool {
        for _ in 0..<400 {
            let snapshot: LedgerSnapshot?
            do {
                snapshot = try await ledger.snapshot(matching: query)
            } catch {
                guard error.code == .unavailable else { throw error }
                snapshot = nil  // not yet
            }
            if let snapshot, condition(snapshot) { return true }
            try await Task.sleep(for: .milliseconds(25))
        }
        return false
    }
}
