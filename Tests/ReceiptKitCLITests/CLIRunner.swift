import Foundation
import ReceiptKitTesting

/// Runs the built `receiptkit` binary and captures what a user would see.
struct CLIRunner {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `receiptkit` executable next to the test bundle (swift test builds it as a dependency of this target).
    static var executable: URL {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("receiptkit"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("receiptkit"),
            packageRoot.appendingPathComponent(".build/debug/receiptkit"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]
    }

    /// Runs the binary with `arguments`, writing `stdin` (if any) to its standard input, and returns once it has exited.
    ///
    /// The waiting happens on a thread of its own, not on one of Swift's cooperative threads: `swift test` runs every
    /// suite at once on a pool as wide as the machine has cores (two in CI), and a test waiting there for a child
    /// holds a thread the service suites' handlers need. The two outputs are read at once, and the input written from
    /// another thread, so that a child filling one pipe never waits on a reader busy with the other.
    /// - Parameters:
    ///   - stdout: Where standard output goes (then `Output.stdout` is empty); a pipe read here by default.
    ///   - timeout: How long the child may run before it is killed (then its status is that of SIGKILL, 9), so a
    ///     hung child fails its test instead of hanging the suite.
    ///   - executable: Another program to run than `receiptkit` (one that runs it, such as `script`).
    static func run(
        _ arguments: [String],
        stdin: Data? = nil,
        stdout: FileHandle? = nil,
        timeout: Duration = .seconds(300),
        executable: URL? = nil,
        environment: [String: String] = [:]
    ) async throws -> Output {
        let program = executable ?? Self.executable
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        try Self.waitFor(
                            program, arguments, stdin: stdin, stdout: stdout, timeout: timeout, environment: environment)
                    })
            }.start()
        }
    }

    private static func waitFor(
        _ program: URL, _ arguments: [String], stdin: Data?, stdout: FileHandle?, timeout: Duration,
        environment: [String: String]
    ) throws -> Output {
        // The test's own environment, with `environment` set on top.
        let process = try SpawnedProcess(
            program, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { _, set in set },
            directory: packageRoot, standardInput: .pipe, standardOutput: stdout.map { .descriptor($0.fileDescriptor) } ?? .pipe,
            standardError: .pipe)
        let watchdog = DispatchWorkItem { process.signal(SIGKILL) }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
        defer { watchdog.cancel() }
        Thread {
            if let stdin { process.write(stdin) }
            process.closeInput()
        }.start()
        let errors = Reader { process.readToEnd(.error) }
        let stdoutData = process.readToEnd(.output)
        let stderrData = errors.wait()
        return Output(
            status: process.waitUntilExit(),
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self)
        )
    }

    /// A stream read to its end on a thread of its own.
    private final class Reader: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var data = Data()  // written by the thread before `done` is signalled, read after

        init(_ read: @escaping @Sendable () -> Data) {
            Thread { [self] in
                self.data = read()
                self.done.signal()
            }.start()
        }

        func wait() -> Data {
            self.done.wait()
            return self.data
        }
    }
}
