import Foundation

/// The transfer codings a request body may come in: none, or `chunked` alone. Anything else (`gzip, chunked`,
/// `deflate`) would be read as if it were not there, so the request is refused with 501 (RFC 9112 §6.1).
enum TransferCodings {
    /// Whether a `Transfer-Encoding` field value (all its lines joined with commas; `nil` when absent) is accepted.
    static func areSupported(_ value: String?) -> Bool {
        guard let value else { return true }
        return value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() } == ["chunked"]
    }
}
