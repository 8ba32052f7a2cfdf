import Foundation

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

    /// - Parameter stdout: Where standard output goes (then `Output.stdout` is empty); a pipe read here by default.
    static func run(_ arguments: [String], stdin: Data? = nil, stdout: FileHandle? = nil) throws -> Output {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = stdout ?? out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        if stdout != nil { try out.fileHandleForWriting.close() }
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self)
        )
    }
}
