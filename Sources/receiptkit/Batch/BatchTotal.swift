import Foundation

/// How many inputs a batch has, for its progress line's total and time left: known at once when every input is a
/// plain file path, otherwise counted on a thread of its own when the inputs can be read twice — never holding up
/// the work.
enum BatchTotal {
    /// The number of inputs when every one is a plain file path (no directory, list or lines).
    static func known(_ inputs: [ReceiptBatchSource.Input]) -> Int? {
        var count = 0
        for input in inputs {
            guard case .path(let path) = input else { return nil }
            var isDirectory: ObjCBool = false
            if path != "-", FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                return nil
            }
            count += 1
        }
        return count
    }

    /// Counts the inputs on a thread of its own (directory entries and list lines are cheap to count) and hands the
    /// total to `found`, when counting leaves them for the workers; does nothing otherwise.
    static func count(
        _ inputs: [ReceiptBatchSource.Input], options: ReceiptBatchSource.Options, found: @escaping @Sendable (Int) -> Void
    ) {
        guard Self.canBeReadTwice(inputs) else { return }
        Thread.detachNewThread {
            let counter = ReceiptBatchSource(inputs, options: options)
            var count = 0
            while counter.next() != nil { count += 1 }
            found(count)
        }
    }

    /// Whether counting the inputs leaves them for the workers: lists and line files must be regular files (a
    /// pipe, standard input or `<(find …)`, gives its records to whoever reads them first).
    private static func canBeReadTwice(_ inputs: [ReceiptBatchSource.Input]) -> Bool {
        inputs.allSatisfy { input in
            switch input {
            case .path: return true
            case .pathList(let path), .base64Lines(let path):
                // attributesOfItem does not follow links: /dev/fd/63 is a link to a pipe, and is not counted.
                let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
                return path != "-" && type == .typeRegular
            }
        }
    }
}
