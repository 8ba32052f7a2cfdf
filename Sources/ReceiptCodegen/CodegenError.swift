/// Why a validator could not be generated.
public struct CodegenError: Error, Sendable, CustomStringConvertible {
    /// Stable codes.
    public enum Code: String, Sendable {
        /// An option is missing or out of range.
        case invalidOption = "invalid_option"
        /// The generator contradicted itself (a bug: please report it).
        case internalInconsistency = "internal_inconsistency"
        /// The harness package could not be written.
        case cannotWrite = "cannot_write"
    }

    /// What went wrong.
    public let code: Code
    /// A sentence for people.
    public let reason: String

    init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(self.code.rawValue): \(self.reason)" }
}
