#if os(Linux) || os(macOS)
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How ``ChildProcess`` and ``SpawnedProcess`` start a child: `posix_spawn`, never Foundation's `Process`.
///
/// On Linux `Process.run()` lists `/proc/self/fd` to close what the child must not inherit, copying each directory
/// entry's whole 256-byte name field: with about 1,350 descriptors open, an entry at the end of glibc's buffer is read
/// past the mapped page and the process crashes (SIGSEGV in `memcpy`, swift-corelibs-foundation#5472, fixed after
/// Swift 6.3.1). `swift test` runs every suite at once and holds that many — a CI run crashed this way in
/// `CLIRunner`. Here the child inherits its three standard streams only (`posix_spawn_file_actions_addclosefrom_np`)
/// and nothing is listed.
enum PosixSpawn {
    /// Where one of the child's standard streams goes: `/dev/null`, or a descriptor of this process (duplicated).
    typealias Stream = Int32?

    /// Starts `path` with `arguments`; `environment` replaces this process's when given; `directory` is the child's
    /// working directory when given. Every signal at its default and none blocked in the child, which leads a
    /// process group of its own.
    static func spawn(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        stdin: Stream, stdout: Stream, stderr: Stream, command: String
    ) throws -> pid_t {
        #if os(Linux)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (stream, target, mode) in [(stdin, Int32(0), O_RDONLY), (stdout, 1, O_WRONLY), (stderr, 2, O_WRONLY)] {
            if let stream {
                posix_spawn_file_actions_adddup2(&actions, stream, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", mode, 0)
            }
        }
        // Nothing else of this process's: its sockets, files and other children's pipes stay here.
        if let closefrom = Self.gnu.addClosefrom { _ = closefrom(&actions, 3) }
        if let directory {
            guard let chdir = Self.gnu.addChdir else { throw ChildProcess.SpawnFailure(command: command, errno: ENOSYS) }
            let result = chdir(&actions, directory)
            guard result == 0 else { throw ChildProcess.SpawnFailure(command: command, errno: result) }
        }
        // Every signal at its default and none blocked: this process may ignore or block some, which a child would
        // otherwise inherit (a child that ignored SIGTERM outlived its time limit). A process group of its own, so
        // that a time limit ends what the child started too.
        #if os(Linux)
        var attributes = posix_spawnattr_t()
        #else
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { variables in
            variables.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer { for variable in envp ?? [] { free(variable) } }
        var pid = pid_t()
        let result: Int32
        if let envp {
            result = posix_spawnp(&pid, path, &actions, &attributes, argv, envp)
        } else {
            result = posix_spawnp(&pid, path, &actions, &attributes, argv, environ)
        }
        guard result == 0 else { throw ChildProcess.SpawnFailure(command: command, errno: result) }
        return pid
    }

    /// A pipe whose two ends are close-on-exec here (the child gets copies as its standard streams, which are not).
    static func pipe(_ command: String) throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        let result: Int32
        if let pipe2 = Self.gnu.pipe2 {
            result = fds.withUnsafeMutableBufferPointer { pipe2($0.baseAddress, O_CLOEXEC) }
        } else {
            // Not atomic: a child another thread starts between the two calls may inherit the ends.
            result = fds.withUnsafeMutableBufferPointer { Foundation.pipe($0.baseAddress) }
            if result == 0 { for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) } }
        }
        guard result == 0 else { throw ChildProcess.SpawnFailure(command: command, errno: errno) }
        return (fds[0], fds[1])
    }

    /// Waits for `pid` to exit and returns what `Process` reports: the exit status, or the number of the signal that
    /// ended it, with which of the two it is; nil when someone else reaped it (ECHILD).
    static func wait(for pid: pid_t) -> (status: Int32, signalled: Bool)? {
        var raw: Int32 = 0
        var result = waitpid(pid, &raw, 0)
        while result < 0 && errno == EINTR { result = waitpid(pid, &raw, 0) }
        guard result == pid else { return nil }
        // Exited: the status in bits 8–15; ended by a signal: its number in bits 0–6.
        return raw & 0x7F == 0 ? ((raw >> 8) & 0xFF, false) : (raw & 0x7F, true)
    }

    /// Reads once from `fd`: what is there, at least a byte, or nothing at the end of the stream.
    static func readChunk(_ fd: Int32) -> Data {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return Data() }
            return Data(buffer[0..<count])
        }
    }

    /// Writes all of `data` to `fd`, or as much as the reader takes before it goes away. SIGPIPE is blocked on the
    /// calling thread meanwhile (a write then fails with EPIPE, and this process is not ended); a SIGPIPE the write
    /// raised is taken before the thread's mask is put back as it was, so that any thread may call this.
    static func write(_ data: Data, to fd: Int32) {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        var pendingBefore = sigset_t()
        sigpending(&pendingBefore)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 && sigismember(&pendingBefore, SIGPIPE) == 0 {
                // Pending, so taken at once.
                var taken: Int32 = 0
                _ = sigwait(&pipeSignal, &taken)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count, let base = bytes.baseAddress {
                let written = Foundation.write(fd, base + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { break }
                offset += written
            }
        }
    }

    /// glibc's `pipe2`, `posix_spawn_file_actions_addclosefrom_np` (2.34) and `posix_spawn_file_actions_addchdir_np`
    /// (2.29), which the Glibc module does not declare (they need `_GNU_SOURCE`), looked up by name; nil where the C
    /// library has no such function.
    private struct GNUFunctions: @unchecked Sendable {
        #if os(Linux)
        typealias Actions = posix_spawn_file_actions_t
        #else
        typealias Actions = posix_spawn_file_actions_t?
        #endif
        let pipe2: (@convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32)?
        let addClosefrom: (@convention(c) (UnsafeMutablePointer<Actions>, Int32) -> Int32)?
        let addChdir: (@convention(c) (UnsafeMutablePointer<Actions>, UnsafePointer<CChar>) -> Int32)?

        init() {
            let everywhere = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
            func symbol<F>(_ name: String, as type: F.Type) -> F? {
                guard let address = dlsym(everywhere, name) else { return nil }
                return unsafeBitCast(address, to: type)
            }
            self.pipe2 = symbol("pipe2", as: (@convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32).self)
            self.addClosefrom = symbol(
                "posix_spawn_file_actions_addclosefrom_np", as: (@convention(c) (UnsafeMutablePointer<Actions>, Int32) -> Int32).self)
            self.addChdir = symbol(
                "posix_spawn_file_actions_addchdir_np",
                as: (@convention(c) (UnsafeMutablePointer<Actions>, UnsafePointer<CChar>) -> Int32).self)
        }
    }

    private static let gnu = GNUFunctions()
}
#endif
