import Foundation

/// Runs a child process without holding one of Swift's cooperative threads while it runs.
///
/// `swift test` runs every suite of the package at once on a pool as wide as the machine has cores — two in CI. A
/// test that waited there for a compiler (a minute or more a generation) took a pool thread the whole time; with both
/// taken, the service suites' handlers could not run and their requests timed out. Here the waiting happens on a
/// thread of its own, and compilers take turns: at most one per core (``compile(_:)``), as the pool allowed before.
enum ChildProcess {
    struct Output: Sendable {
        let status: Int32
        /// Standard output and standard error, interleaved.
        let text: String
    }

    /// Runs `executable`, writing `input` (if any) to its standard input, and returns once it has exited.
    static func run(_ executable: URL, _ arguments: [String], input: Data? = nil) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try Self.waitFor(executable, arguments, input: input) }) }.start()
        }
    }

    /// Runs `swiftc` with `arguments` once a compiler slot is free.
    static func compile(_ arguments: [String]) async throws -> Output {
        await CompilerSlots.shared.acquire()
        do {
            let output = try await Self.run(URL(fileURLWithPath: HarnessBuild.swiftc ?? "swiftc"), arguments)
            await CompilerSlots.shared.release()
            return output
        } catch {
            await CompilerSlots.shared.release()
            throw error
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
