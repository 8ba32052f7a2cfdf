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
        let output = try PosixSpawn.pipe(command)
        let stdin: (read: Int32, write: Int32)?
        do {
            stdin = input == nil ? nil : try PosixSpawn.pipe(command)
        } catch {
            close(output.read)
            close(output.write)
            throw error
        }
        let pid: pid_t
        do {
            pid = try PosixSpawn.spawn(
                executable.path, arguments, stdin: stdin?.read, stdout: output.write, stderr: output.write, command: command)
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
                PosixSpawn.write(input, to: stdin.write)
                close(stdin.write)
            }.start()
        }

        let collected = NIOLockedValueBox(Data())
        let drained = DispatchSemaphore(value: 0)
        Thread {
            while case let chunk = PosixSpawn.readChunk(output.read), !chunk.isEmpty {
                collected.withLockedValue { $0.append(chunk) }
            }
            close(output.read)
            drained.signal()
        }.start()

        let status = NIOLockedValueBox<Int32?>(nil)
        let exited = DispatchSemaphore(value: 0)
        Thread {
            // Reaped by someone else (ECHILD): no status, which no caller takes for success.
            if let exit = PosixSpawn.wait(for: pid) { status.withLockedValue { $0 = exit.status } }
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

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func text(_ data: Data) -> String {
        String(decoding: data, as: UTF8.self)
    }
}
#endif
