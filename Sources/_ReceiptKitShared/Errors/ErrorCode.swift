/// The kind of a ``CodedError``: a snake_case identifier used in JSON output and logs, e.g. `malformed_payload`.
///
/// Conforming types are structs with a `rawValue` and static constants, so new codes can be added in minor releases:
/// switch on them with a `default`.
public protocol ErrorCode: Sendable, Hashable, CustomStringConvertible {
    /// The snake_case identifier.
    var rawValue: String { get }
}

extension ErrorCode {
    public var description: String { self.rawValue }
}
