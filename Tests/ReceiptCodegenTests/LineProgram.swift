import Foundation
import ReceiptKitTesting

/// A program compiled from templates (`swiftc -O`, warnings as errors) that answers each line of its input, `command
/// hex [hex]`, with one line: the tests' way to run generated code on many inputs in one process.
struct LineProgram: Sendable {
    let executable: URL

    /// - Parameters:
    ///   - declarations: The functions under test and helpers; `hex(_:)` and `bytes(_:)` are added.
    ///   - cases: `case "command": out = …` lines, where `a` and `b` are the decoded arguments.
    ///   - name: A prefix for the program's temporary folder.
    init(declarations: String, cases: [String], name: String) async throws {
        let source = "import Foundation\n\n" + declarations + #"""

            func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
            func bytes(_ text: Substring) -> [UInt8] {
                var out: [UInt8] = []
                var i = text.startIndex
                while i < text.endIndex, let j = text.index(i, offsetBy: 2, limitedBy: text.endIndex), let v = UInt8(text[i..<j], radix: 16) {
                    out.append(v)
                    i = j
                }
                return out
            }
            while let line = readLine() {
                let parts = line.split(separator: " ", omittingEmptySubsequences: false)
                let a = parts.count > 1 ? bytes(parts[1]) : []
                let b = parts.count > 2 ? bytes(parts[2]) : []
                _ = (a, b)  // not every program takes arguments
                var out = "unknown"
                switch String(parts[0]) {
                \#(cases.joined(separator: "\n    "))
                default: break
                }
                print(out)
            }
            """#
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("main.swift")
        try Data(source.utf8).write(to: file)
        self.executable = directory.appendingPathComponent(name)
        let result = try await ChildProcess.compile(["-swift-version", "6", "-warnings-as-errors", "-O", file.path, "-o", self.executable.path])
        guard result.status == 0 else { throw HarnessBuild.Failure(description: "swiftc failed:\n\(result.text.prefix(4000))") }
    }

    /// Answers to `queries` (one line each), in order.
    func ask(_ queries: [String]) async throws -> [String] {
        let text = queries.joined(separator: "\n") + "\n"
        let answer = try await ChildProcess.run(self.executable, [], input: Data(text.utf8))
        return answer.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
}
