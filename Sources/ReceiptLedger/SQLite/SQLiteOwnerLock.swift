#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The lock that makes one process the owner of an SQLite ledger file: an exclusive `flock(2)` on `PATH.lock`,
/// beside the database, held until ``release()`` (or the process ends, when the kernel drops it). A second
/// ``SQLiteLedger`` on the same file — another `receiptkit serve`, or the same process opening it twice — is refused
/// with ``LedgerError/Code/inUse`` naming the owner's process id: its snapshot cache would never learn of the owner's
/// writes, and it would answer stale.
///
/// `flock` and SQLite's own POSIX record locks are independent, so this lock never blocks SQLite's.
///
/// A lock this process let go may still be held for a moment by a child it is starting (between fork and exec the
/// child shares the lock's open file, close-on-exec or not): when the file names this process and this process holds
/// no such lock, the next owner waits up to 10 s for it rather than calling the file in use.
final class SQLiteOwnerLock: Sendable {
    private let descriptor: Int32
    private let lockPath: String
    private let held = Mutex(true)

    private init(descriptor: Int32, lockPath: String) {
        self.descriptor = descriptor
        self.lockPath = lockPath
    }

    /// Takes the lock of the database at `path`, or throws ``LedgerError/Code/inUse`` when another holds it.
    static func acquire(path: String) throws(LedgerError) -> SQLiteOwnerLock {
        let lockPath = path + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw LedgerError(.unavailable, "cannot open the owner lock \(lockPath): \(Self.message(errno))")
        }
        var waited = 0
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let failure = errno
            let owner = Self.owner(descriptor)
            // This process released the lock but a child it is starting still holds a copy of the descriptor until
            // its exec closes it (the lock goes with the open file, which fork shares): wait that moment out.
            if failure == EWOULDBLOCK, owner == Int(getpid()), !Self.heldHere.withLock({ $0.contains(lockPath) }),
                waited < Self.forkWindowWait
            {
                usleep(5_000)
                waited += 5
                continue
            }
            close(descriptor)
            guard failure == EWOULDBLOCK else {
                throw LedgerError(.unavailable, "cannot lock \(lockPath): \(Self.message(failure))")
            }
            throw LedgerError(
                .inUse,
                "sqlite:\(path) is in use by another process\(owner.map { " (pid \($0))" } ?? ""): one process owns an "
                    + "SQLite ledger; run several instances on PostgreSQL")
        }
        // Who owns it, for the next one's message (best effort: the lock, not the text, is what excludes).
        let text = Array("\(getpid())\n".utf8)
        if ftruncate(descriptor, 0) == 0 {
            _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
        Self.heldHere.withLock { _ = $0.insert(lockPath) }
        return SQLiteOwnerLock(descriptor: descriptor, lockPath: lockPath)
    }

    /// The lock files this process holds now.
    private static let heldHere = Mutex<Set<String>>([])
    /// How long, in milliseconds, a lock this process released may still be held by a child being started.
    private static let forkWindowWait = 10_000

    /// Drops the lock (closing the descriptor releases it). Only the first call closes: a descriptor closed twice
    /// could be another file's by then.
    func release() {
        guard self.held.withLock({ held in defer { held = false }; return held }) else { return }
        Self.heldHere.withLock { _ = $0.remove(self.lockPath) }
        close(self.descriptor)
    }

    /// The process id the lock file names, if it names one.
    private static func owner(_ descriptor: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let digits = buffer.prefix(count).prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard !digits.isEmpty, digits.count <= 10 else { return nil }
        return Int(String(decoding: digits, as: UTF8.self))
    }

    private static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
