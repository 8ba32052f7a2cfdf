#if os(Linux) || os(macOS)
package import Foundation

/// A child process run without holding one of Swift's cooperative threads while it runs: for the test doubles and
/// tests that run `openssl`, a compiler or a compiled program.
///
/// `swift test` runs every suite of the package at once on a pool as wide as the machine has cores (two in CI). A
/// test that waited there for a child (the differential test runs `openssl cms` three hundred times) held a pool
/// thread the whole time, from every other suite's tasks: the service's handlers, the ledger's time limits. Here the
/// waiting happens on a thread of its own.
package enum ChildProcess {
    package struct Output: Sendable {
        package let status: Int32
        /// Standard output and standard error, interleaved.
        package let text: String
    }

    /// Runs `executable`, writing `input` (if any) to its standard input, and returns once it has exited.
    package static func run(_ executable: URL, _ arguments: [String], input: Data? = nil) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try Self.waitFor(executable, arguments, input: input) }) }.start()
        }
    }

    private static func waitFor(_ executable: URL, _ arguments: [String], input: Data?) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            // Written from another thread: a program that answers as it reads would otherwise fill the output pipe
            // while this one is still writing.
            Thread { stdin.fileHandleForWriting.write(input); try? stdin.fileHandleForWriting.close() }.start()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, text: String(decoding: data, as: UTF8.self))
    }
}
#endif
