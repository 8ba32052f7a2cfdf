import Foundation
@testable import ReceiptLedger
import Testing

/// One process owns an SQLite ledger file: a second ledger on it is refused while the first is open (here within one
/// process; `ServeCLITests` starts a second `receiptkit serve`), and the file opens again once the owner shuts down.
@Suite("SQLite owner lock")
struct SQLiteOwnerLockTests {
    @Test("a second ledger on an open file is in_use, naming the owner; shut down, the owner lets go")
    func secondOwnerRefused() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-lock-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("ledger.sqlite").path

        let owner = try await SQLiteLedger(path: path)
        try await owner.migrate()
        let refused = await #expect(throws: LedgerError.self) { _ = try await SQLiteLedger(path: path) }
        #expect(refused?.code == .inUse)
        #expect(refused?.isRetryable == false)
        #expect(refused?.reason == "sqlite:\(path) is in use by another process (pid \(ProcessInfo.processInfo.processIdentifier)): one process owns an SQLite ledger; run several instances on PostgreSQL")
        await owner.shutdown()

        // The owner let go. A child process another test spawns at this moment holds a copy of every descriptor
        // between its fork and its exec (close-on-exec closes them only then), and the lock with it: on a loaded
        // machine that can take a while, so the next open may have to wait for it — never longer than the bound.
        let next = try await Self.openWhenFree(path, within: .seconds(30))
        #expect(try await next.schemaVersion() == LedgerMigration.latestVersion)
        await next.shutdown()
    }

    @Test("a lock this process let go but a child being started still holds (fork shares the open file) is waited for")
    func aChildsCopyOfTheLockIsWaitedOut() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-lock-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("ledger.sqlite").path
        let owner = try await SQLiteLedger(path: path)
        await owner.shutdown()
        // Stand-in for the child: another open file description of the lock file, locked, which the file still says
        // this process owns; it lets go 300 ms later, on a thread of its own (as a child process would, whatever
        // the tasks of this one are doing).
        let child = open(path + ".lock", O_RDWR)
        #expect(child >= 0)
        // A real child another test spawns now may itself hold the owner's copy for a moment (a full run here
        // failed on this flock once): taken when free, within a bound far above that.
        let free = ContinuousClock.now + .seconds(30)
        var locked = flock(child, LOCK_EX | LOCK_NB) == 0
        while !locked && ContinuousClock.now < free {
            try await Task.sleep(for: .milliseconds(20))
            locked = flock(child, LOCK_EX | LOCK_NB) == 0
        }
        #expect(locked)
        Thread.detachNewThread {
            usleep(300_000)
            close(child)
        }
        let next = try await SQLiteLedger(path: path)
        await next.shutdown()
    }

    @Test("in-memory ledgers own no file: any number open at once")
    func memoryLedgersNeverLock() async throws {
        let first = try await SQLiteLedger(path: nil)
        let second = try await SQLiteLedger(path: nil)
        try await first.migrate()
        try await second.migrate()
        await first.shutdown()
        await second.shutdown()
    }

    @Test("a lock file that cannot be made is unavailable, not a crash")
    func unlockable() async {
        let error = await #expect(throws: LedgerError.self) {
            _ = try await SQLiteLedger(path: "/nonexistent-directory-\(UUID())/ledger.sqlite")
        }
        #expect(error?.code == .unavailable)
        #expect(error?.reason.contains("cannot open the owner lock") == true)
    }

    /// A ledger on `path`, retried while the file is in use, for at most `bound`.
    static func openWhenFree(_ path: String, within bound: Duration) async throws -> SQLiteLedger {
        let deadline = ContinuousClock.now + bound
        while true {
            let attempt: Result<SQLiteLedger, LedgerError>
            do {
                attempt = .success(try await SQLiteLedger(path: path))
            } catch {
                attempt = .failure(error)
            }
            switch attempt {
            case .success(let ledger):
                return ledger
            case .failure(let error):
                guard error.code == .inUse, ContinuousClock.now < deadline else { throw error }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }
}
