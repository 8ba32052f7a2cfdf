#if os(Linux) || os(macOS)
package import Foundation
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process run without holding one of Swift's cooperative threads while it runs: for the test doubles and
/// tests that run `openssl`, a compiler or a compiled program.
///
/// `swift test` runs every suite of the package at once on a pool as wide as the machine has cores (two in CI). A
/// test that waited there for a child (the differential test runs `openssl cms` three hundred times) held a pool
/// thread the whole time, from every other suite's tasks: the service's handlers, the ledger's time limits. Here the
/// waiting happens on threads of its own.
///
/// The child is started with `posix_spawn` and waited for with `waitpid`, not with Foundation's `Process`: on Linux
/// `Process` learns of the exit through a socket the child inherits, so it reports the exit only once every process
/// holding that socket has closed it — a daemon the child started (`sh -c 'sleep 60 & echo'` took 60 s), or any
/// child another thread started at the same moment. The child here inherits its standard input, output and error
/// only, and the pipes are close-on-exec in this process, so no other child holds them either.
///
/// Every run has a time limit: a child that has not exited by then is killed and the run throws ``Timeout``, naming
/// the command, so a program that hangs fails its test instead of holding the whole run until CI's own limit (a CI
/// run once stood still for more than an hour in a test that takes seconds here, with nothing in the log to say why).
/// Completion is the child's exit, not the end of its output: a descendant that kept the output open gets a short
/// grace for its last bytes, then the run returns what it has.
package enum ChildProcess {
    package struct Output: Sendable {
        /// The exit status, or the number of the signal that ended the child.
        package let status: Int32
        /// Standard output and standard error, interleaved.
        package let text: String
    }

    /// A child that outlived its time limit, killed.
    package struct Timeout: Error, CustomStringConvertible {
        package let command: String
        package let limit: Duration
        /// What it had written by then.
        package let output: String
        /// The signal that ended it: SIGTERM, or SIGKILL when SIGTERM had not within 5 s.
        package let signal: Int32

        package var description: String {
            "\(self.command) had not exited after \(self.limit) and was killed; its last output:\n\(self.output.suffix(2000))"
        }
    }

    /// A child that could not be started.
    package struct SpawnFailure: Error, CustomStringConvertible {
        package let command: String
        package let errno: Int32

        package var description: String { "could not start \(self.command): \(String(cString: strerror(self.errno)))" }
    }

    /// How long a run may take unless the caller says otherwise: far above any child the tests start (an optimizing
    /// compile of a generated validator takes about 80 s here), far below CI's limit.
    package static let defaultTimeLimit = Duration.seconds(900)

    /// Runs `executable`, writing `input` (if any) to its standard input, and returns once it has exited.
    package static func run(
        _ executable: URL, _ arguments: [String], input: Data? = nil, timeLimit: Duration = Self.defaultTimeLimit
    ) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try Self.waitFor(executable, arguments, input: input, timeLimit: timeLimit) })
            }.start()
        }
    }

    private static func waitFor(_ executable: URL, _ arguments: [String], input: Data?, timeLimit: Duration) throws -> Output {
        let command = String(([executable.path] + arguments).joined(separator: " ").prefix(300))
        let output = try Self.pipe(command)
        let stdin: (read: Int32, write: Int32)?
        do {
            stdin = input == nil ? nil : try Self.pipe(command)
        } catch {
            close(output.read)
            close(output.write)
            throw error
        }
        let pid: pid_t
        do {
            pid = try Self.spawn(executable.path, arguments, stdin: stdin?.read, output: output.write, command: command)
        } catch {
            for fd in [output.read, output.write, stdin?.read, stdin?.write].compactMap({ $0 }) { close(fd) }
            throw error
        }
        close(output.write)
        if let stdin, let input {
            close(stdin.read)
            // Written from another thread: a program that answers as it reads would otherwise fill the output pipe
            // while this one is still writing.
            Thread {
                // A child that exits without reading all of its input must not end this process: SIGPIPE is
                // blocked on this thread only (a write then fails with EPIPE), not ignored process-wide, which
                // every child started elsewhere would inherit.
                var pipeSignal = sigset_t()
                sigemptyset(&pipeSignal)
                sigaddset(&pipeSignal, SIGPIPE)
                pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
                input.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset < bytes.count, let base = bytes.baseAddress {
                        let written = write(stdin.write, base + offset, bytes.count - offset)
                        if written < 0 && errno == EINTR { continue }
                        guard written > 0 else { break }
                        offset += written
                    }
                }
                close(stdin.write)
            }.start()
        }

        let collected = NIOLockedValueBox(Data())
        let drained = DispatchSemaphore(value: 0)
        Thread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(output.read, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                collected.withLockedValue { $0.append(contentsOf: buffer[0..<count]) }
            }
            close(output.read)
            drained.signal()
        }.start()

        let status = NIOLockedValueBox<Int32?>(nil)
        let exited = DispatchSemaphore(value: 0)
        Thread {
            var raw: Int32 = 0
            var result = waitpid(pid, &raw, 0)
            while result < 0 && errno == EINTR { result = waitpid(pid, &raw, 0) }
            // Exited: the status in bits 8–15; ended by a signal: its number in bits 0–6 (what `Process` reports).
            // Reaped by someone else (ECHILD): no status, which no caller takes for success.
            if result == pid { status.withLockedValue { $0 = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : raw & 0x7F } }
            exited.signal()
        }.start()

        if exited.wait(timeout: .now() + Self.seconds(timeLimit)) == .timedOut {
            // The child's whole process group: a compiler's frontends, what a shell started.
            kill(-pid, SIGTERM)
            var signal = SIGTERM
            if exited.wait(timeout: .now() + 5) == .timedOut {
                kill(-pid, SIGKILL)
                signal = SIGKILL
                _ = exited.wait(timeout: .now() + 5)
            }
            _ = drained.wait(timeout: .now() + 2)
            throw Timeout(
                command: command, limit: timeLimit, output: Self.text(collected.withLockedValue { $0 }), signal: signal)
        }
        // The last bytes arrive with the end of the pipe; a descendant holding it open gets a few seconds, not forever.
        _ = drained.wait(timeout: .now() + 10)
        return Output(status: status.withLockedValue { $0 } ?? -1, text: Self.text(collected.withLockedValue { $0 }))
    }

    /// A pipe whose two ends are close-on-exec here (the child gets copies as its standard streams, which are not).
    private static func pipe(_ command: String) throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        let result: Int32
        if let pipe2 = Self.gnu.pipe2 {
            result = fds.withUnsafeMutableBufferPointer { pipe2($0.baseAddress, O_CLOEXEC) }
        } else {
            // Not atomic: a child another thread starts between the two calls may inherit the ends.
            result = fds.withUnsafeMutableBufferPointer { Foundation.pipe($0.baseAddress) }
            if result == 0 { for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) } }
        }
        guard result == 0 else { throw SpawnFailure(command: command, errno: errno) }
        return (fds[0], fds[1])
    }

    private static func spawn(_ path: String, _ arguments: [String], stdin: Int32?, output: Int32, command: String) throws -> pid_t {
        #if os(Linux)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin {
            posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        // Nothing else of this process's: its sockets, files and other children's pipes stay here.
        if let closefrom = Self.gnu.addClosefrom { _ = closefrom(&actions, 3) }
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
        var pid = pid_t()
        let result = posix_spawnp(&pid, path, &actions, &attributes, argv, environ)
        guard result == 0 else { throw SpawnFailure(command: command, errno: result) }
        return pid
    }

    /// glibc's `pipe2` and `posix_spawn_file_actions_addclosefrom_np` (2.34), which the Glibc module does not
    /// declare (they need `_GNU_SOURCE`), looked up by name; nil where the C library has no such function.
    private struct GNUFunctions: @unchecked Sendable {
        #if os(Linux)
        typealias Actions = posix_spawn_file_actions_t
        #else
        typealias Actions = posix_spawn_file_actions_t?
        #endif
        let pipe2: (@convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32)?
        let addClosefrom: (@convention(c) (UnsafeMutablePointer<Actions>, Int32) -> Int32)?

        init() {
            let everywhere = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
            func symbol<F>(_ name: String, as type: F.Type) -> F? {
                guard let address = dlsym(everywhere, name) else { return nil }
                return unsafeBitCast(address, to: type)
            }
            self.pipe2 = symbol("pipe2", as: (@convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32).self)
            self.addClosefrom = symbol(
                "posix_spawn_file_actions_addclosefrom_np", as: (@convention(c) (UnsafeMutablePointer<Actions>, Int32) -> Int32).self)
        }
    }

    private static let gnu = GNUFunctions()

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func text(_ data: Data) -> String {
        String(decoding: data, as: UTF8.self)
    }
}
#endif
