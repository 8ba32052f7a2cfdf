import Foundation

/// The `openssl` command, used as an independent CMS implementation.
enum OpenSSL {
    static let path: String? = ["/usr/bin/openssl", "/usr/local/bin/openssl", "/opt/homebrew/bin/openssl"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static let skipMessage = "openssl is not installed: the independent CMS check is skipped (.ci/run installs it)"

    /// Runs `openssl cms -verify` on DER `receipt` against the PEM `anchor`; returns the exit status and stderr.
    static func verify(receipt: [UInt8], anchorPEM: String) throws -> (status: Int32, stderr: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("receiptkit-openssl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("receipt.der")
        let anchor = directory.appendingPathComponent("anchor.pem")
        try Data(receipt).write(to: input)
        try Data(anchorPEM.utf8).write(to: anchor)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try path ?? { throw CocoaError(.fileNoSuchFile) }())
        process.arguments = [
            "cms", "-verify", "-inform", "DER", "-binary", "-in", input.path, "-CAfile", anchor.path,
            "-purpose", "any", "-out", "/dev/null",
        ]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stderr)
    }
}
