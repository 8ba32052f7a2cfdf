import Foundation
import Testing

/// `receiptkit codegen`: files written, seeds, usage errors. (Compiling and running what it writes is
/// ReceiptCodegenTests' work.)
struct CodegenCLITests {
    static let directory = CLITests.scratch.appendingPathComponent("codegen")

    func path(_ name: String) throws -> String {
        try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
        return Self.directory.appendingPathComponent(name).path
    }

    @Test func aSeedGivesTheSameFileAndNoSeedPrintsTheOneUsed() async throws {
        let a = try path("a.swift")
        let b = try path("b.swift")
        let arguments = ["codegen", "--bundle-id", "com.example.app", "--version", "1.0", "--seed", "00112233445566778899"]
        #expect(try await CLIRunner.run(arguments + ["--output", a]).status == 0)
        #expect(try await CLIRunner.run(arguments + ["--output", b]).status == 0)
        #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b))

        let random = try await CLIRunner.run(["codegen", "--bundle-id", "com.example.app", "--version", "1.0", "--output", try path("c.swift")])
        #expect(random.status == 0)
        let seed = try #require(random.stderr.split(separator: "\n").first { $0.hasPrefix("receiptkit: seed ") })
        let hex = seed.dropFirst("receiptkit: seed ".count).prefix { $0.isHexDigit }
        #expect(hex.count == 32)
        let source = try String(contentsOfFile: try path("c.swift"), encoding: .utf8)
        #expect(!source.contains(String(hex)))  // the seed is never written into the file
    }

    @Test func theHarnessPackageIsWritten() async throws {
        let directory = try path("harness")
        let output = try await CLIRunner.run([
            "codegen", "--bundle-id", "com.example.app", "--version", "1.0", "--seed", "0102030405060708", "--emit-harness", directory,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        for file in ["Package.swift", "Sources/harness/ReceiptCheck.swift", "Sources/harness/main.swift"] {
            #expect(FileManager.default.fileExists(atPath: directory + "/" + file), "\(file) missing")
        }
    }

    @Test func anAppBundlesInfoPlistNamesTheAppAndVersion() async throws {
        let app = try path("Example.app")
        try FileManager.default.createDirectory(atPath: app + "/Contents", withIntermediateDirectories: true)
        let plist: [String: Any] = ["CFBundleIdentifier": "com.example.bundled", "CFBundleShortVersionString": "3.1", "CFBundleVersion": "310"]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            .write(to: URL(fileURLWithPath: app + "/Contents/Info.plist"))
        let fromApp = try path("app.swift")
        let explicit = try path("explicit.swift")
        #expect(try await CLIRunner.run(["codegen", "--app", app, "--seed", "0102030405060708", "--output", fromApp]).status == 0)
        #expect(try await CLIRunner.run([
            "codegen", "--bundle-id", "com.example.bundled", "--version", "3.1", "--seed", "0102030405060708", "--output", explicit,
        ]).status == 0)
        #expect(FileManager.default.contents(atPath: fromApp) == FileManager.default.contents(atPath: explicit))
    }

    @Test(arguments: [
        ["codegen", "--bundle-id", "x", "--version", "1"],
        ["codegen", "--bundle-id", "x", "--output", "/tmp/x.swift"],
        ["codegen", "--bundle-id", "x", "--version", "1", "--output", "/tmp/x.swift", "--seed", "abc"],
        ["codegen", "--bundle-id", "x", "--version", "1", "--output", "/tmp/x.swift", "--platform", "android"],
        ["codegen", "--bundle-id", "x", "--version", "1", "--output", "/tmp/x.swift", "--entry-points", "9"],
        ["codegen", "--bundle-id", "x", "--version", "1", "--output", "/tmp/x.swift", "--on-failure", "crash"],
    ])
    func usageMistakesExit64(arguments: [String]) async throws {
        let output = try await CLIRunner.run(arguments)
        #expect(output.status == 64, "\(arguments): \(output.stderr)")
    }
}
