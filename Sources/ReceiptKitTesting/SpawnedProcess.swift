#if os(Linux) || os(macOS)
package import Foundation
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process that runs while a test talks to it — a `receiptkit serve`, a browser — started with
/// `posix_spawn` and waited for with `waitpid` (see ``ChildProcess`` for why not Foundation's `Process`).
///
/// The names follow `Process` (`processIdentifier`, `isRunning`, `terminate()`, `terminationStatus`,
/// `terminationReason`) so that a test reads the same. Each standard stream goes to `/dev/null`, to a pipe this object
/// holds (read with ``readChunk(_:)`` and ``readToEnd(_:)``, written with ``write(_:)``), or to a descriptor the
/// caller owns (a file, say). The pipes' ends here are close-on-exec, so no other child holds them, and closed when
/// this object goes away.
package final class SpawnedProcess: Sendable {
    /// Where one of the child's standard streams goes.
    package enum Stream: Sendable {
        case null
        case pipe
        /// A descriptor of this process, duplicated for the child (the caller keeps and closes its own).
        case descriptor(Int32)
    }

    /// Which of the child's streams to read.
    package enum Channel: Sendable {
        case output
        case error
    }

    /// How the child ended, as `Process` reports it.
    package enum TerminationReason: Sendable, Equatable {
        case exit
        case uncaughtSignal
    }

    package let processIdentifier: pid_t
    private let input: Int32?
    private let output: Int32?
    private let error: Int32?
    private let termination = NIOLockedValueBox<(status: Int32, signalled: Bool)?>(nil)
    private let inputClosed = NIOLockedValueBox(false)
    private let exited = DispatchSemaphore(value: 0)

    /// Starts `executable`; `environment` replaces this process's when given, `directory` is the working directory.
    package init(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        standardInput: Stream = .null, standardOutput: Stream = .null, standardError: Stream = .null
    ) throws {
        let command = String(([executable.path] + arguments).joined(separator: " ").prefix(300))
        var opened: [Int32] = []
        func end(_ stream: Stream, childReads: Bool) throws -> (child: Int32?, here: Int32?) {
            switch stream {
            case .null: return (nil, nil)
            case .descriptor(let fd): return (fd, nil)
            case .pipe:
                let pipe = try PosixSpawn.pipe(command)
                opened += [pipe.read, pipe.write]
                return childReads ? (pipe.read, pipe.write) : (pipe.write, pipe.read)
            }
        }
        let stdin: (child: Int32?, here: Int32?), stdout: (child: Int32?, here: Int32?), stderr: (child: Int32?, here: Int32?)
        let pid: pid_t
        do {
            stdin = try end(standardInput, childReads: true)
            stdout = try end(standardOutput, childReads: false)
            stderr = try end(standardError, childReads: false)
            pid = try PosixSpawn.spawn(
                executable.path, arguments, environment: environment, directory: directory?.path,
                stdin: stdin.child, stdout: stdout.child, stderr: stderr.child, command: command)
        } catch {
            for fd in opened { close(fd) }
            throw error
        }
        // The child has its copies; the pipes' other ends stay here.
        for fd in opened where fd != stdin.here && fd != stdout.here && fd != stderr.here { close(fd) }
        self.processIdentifier = pid
        self.input = stdin.here
        self.output = stdout.here
        self.error = stderr.here
        let termination = self.termination, exited = self.exited
        Thread {
            let ended = PosixSpawn.wait(for: pid)
            termination.withLockedValue { $0 = ended ?? (-1, false) }
            exited.signal()
        }.start()
    }

    deinit {
        for fd in [self.output, self.error].compactMap({ $0 }) { close(fd) }
        self.closeInput()
    }

    /// Whether the child has not exited yet.
    package var isRunning: Bool { self.termination.withLockedValue { $0 } == nil }

    /// The exit status, or the number of the signal that ended the child; -1 while it runs.
    package var terminationStatus: Int32 { self.termination.withLockedValue { $0?.status } ?? -1 }

    /// Whether the child exited or a signal ended it; `.exit` while it runs.
    package var terminationReason: TerminationReason {
        self.termination.withLockedValue { $0?.signalled } == true ? .uncaughtSignal : .exit
    }

    /// Sends `signal` to the child, unless it has exited (its pid may since be another process's).
    package func signal(_ signal: Int32) {
        if self.isRunning { kill(self.processIdentifier, signal) }
    }

    /// SIGTERM.
    package func terminate() {
        self.signal(SIGTERM)
    }

    /// Returns once the child has exited, with its status.
    @discardableResult
    package func waitUntilExit() -> Int32 {
        self.exited.wait()
        self.exited.signal()  // later waits return at once
        return self.terminationStatus
    }

    /// Returns once the child has exited or `seconds` have passed; whether it has exited.
    package func waitUntilExit(seconds: Double) -> Bool {
        guard self.exited.wait(timeout: .now() + seconds) == .success else { return false }
        self.exited.signal()
        return true
    }

    /// Returns once the child has exited, without holding a thread of Swift's pool while it waits.
    @discardableResult
    package func exit() async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.waitUntilExit()) }.start()
        }
    }

    /// What the child has written to `channel` (a pipe): at least a byte, or nothing once it is closed. Blocks.
    package func readChunk(_ channel: Channel) -> Data {
        guard let fd = channel == .output ? self.output : self.error else { return Data() }
        return PosixSpawn.readChunk(fd)
    }

    /// Everything the child writes to `channel` (a pipe) until it is closed. Blocks.
    package func readToEnd(_ channel: Channel) -> Data {
        var data = Data()
        while case let chunk = self.readChunk(channel), !chunk.isEmpty { data.append(chunk) }
        return data
    }

    /// Writes `data` to the child's standard input (a pipe). Blocks until the child has read it or closed its end.
    package func write(_ data: Data) {
        guard let fd = self.input, !self.inputClosed.withLockedValue({ $0 }) else { return }
        PosixSpawn.write(data, to: fd)
    }

    /// Closes the child's standard input (a pipe): it reads the end of its input.
    package func closeInput() {
        guard let fd = self.input else { return }
        let wasClosed = self.inputClosed.withLockedValue { closed in
            defer { closed = true }
            return closed
        }
        if !wasClosed { close(fd) }
    }
}
#endif
