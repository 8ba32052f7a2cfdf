/// The shape every "why a well-formed input is not valid" value shares: a stable snake_case code, encoded in JSON as
/// that bare string, compared by it. Conforming types are structs with static members rather than enums, so new
/// reasons can be added without breaking callers' `switch`es; a code this version does not know decodes as itself.
public protocol ReasonCode: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The reason code, e.g. `bundle_id_mismatch`.
    var code: String { get }
    /// The reason `code` names, known or not.
    init(reasonCode code: String)
}

extension ReasonCode {
    public var description: String { self.code }

    public init(from decoder: any Decoder) throws {
        self.init(reasonCode: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.code)
    }
}
