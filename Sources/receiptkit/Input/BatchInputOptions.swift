import ArgumentParser
import Foundation

/// The inputs of a batch of receipts and how it runs: what `validate` reads besides a single file, as one option
/// group, with the rules that tie the options together and the ``ReceiptBatchSource`` they describe.
struct BatchInputOptions: ParsableArguments {
    @Option(name: .customLong("jobs"), help: "Receipts validated in parallel, 1–1024 (default: all cores).")
    var jobs: Int?

    @Option(
        name: .customLong("files-from"),
        help: ArgumentHelp("Read receipt paths from FILE, one per line (- for standard input; repeatable).", valueName: "FILE")
    )
    var filesFrom: [String] = []

    @Flag(name: .customLong("null"), help: "Paths in --files-from are separated by NUL bytes (find -print0).")
    var nullSeparated = false

    @Flag(help: "Each line of the inputs (standard input when none) is one base64 receipt.")
    var lines = false

    @Flag(help: "In a batch, print lines in input order instead of completion order.")
    var ordered = false

    @Flag(name: .customLong("all-files"), help: "In directories, read every regular file, whatever its extension.")
    var allFiles = false

    @Argument(help: "Receipt files or directories, or - for standard input.")
    var inputs: [String] = []

    /// Whether any input is given: an argument, a --files-from list, or --lines (which reads standard input alone).
    var isEmpty: Bool { self.inputs.isEmpty && self.filesFrom.isEmpty && !self.lines }

    /// The batch inputs, in order: arguments (as line files with --lines), then --files-from lists.
    var batchInputs: [ReceiptBatchSource.Input] {
        let named: [ReceiptBatchSource.Input]
        if self.lines {
            named = (self.inputs.isEmpty ? ["-"] : self.inputs).map { .base64Lines($0) }
        } else {
            named = self.inputs.map { .path($0) }
        }
        return named + self.filesFrom.map { .pathList($0) }
    }

    /// One plain input file: validated alone, with text output.
    var singleInput: String? {
        guard !self.lines, self.filesFrom.isEmpty, self.inputs.count == 1, let path = self.inputs.first else { return nil }
        var isDirectory: ObjCBool = false
        if path != "-", FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return nil
        }
        return path
    }

    /// How the source walks directories and splits path lists.
    var sourceOptions: ReceiptBatchSource.Options {
        var options = ReceiptBatchSource.Options()
        if self.allFiles { options.directoryExtensions = nil }
        if self.nullSeparated { options.pathSeparator = 0 }
        return options
    }

    /// The number of workers: --jobs, or one per core.
    var jobCount: Int { self.jobs ?? ProcessInfo.processInfo.activeProcessorCount }

    func validate() throws {
        let stdinReaders = self.batchInputs.filter { input in
            switch input {
            case .path(let path), .pathList(let path), .base64Lines(let path): return path == "-"
            }
        }
        if stdinReaders.count > 1 {
            throw ValidationError("standard input (-) can be read once: as a receipt, a --files-from list or --lines")
        }
        if self.nullSeparated, self.filesFrom.isEmpty {
            throw ValidationError("--null applies to --files-from lists: give --files-from")
        }
        if let jobs, !(1...1024).contains(jobs) {
            throw ValidationError("--jobs takes a whole number from 1 to 1024, not \(jobs)")
        }
    }
}
