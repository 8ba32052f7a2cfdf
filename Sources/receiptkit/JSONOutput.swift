import Foundation

/// JSON rendering for command output: sorted keys, no escaped slashes, one document per line.
enum JSONOutput {
    static func line(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Writes to standard error.
enum StandardError {
    static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    static var isTerminal: Bool { isatty(STDERR_FILENO) != 0 }
}
