/// A value Apple documents as one of a list (a product type, a subscription status): a struct with static members
/// rather than an enum, so a value Apple adds tomorrow decodes as itself and `switch`es need a `default`.
public protocol APIEnumeration: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible
where RawValue: Sendable & Hashable & Codable & CustomStringConvertible {}

extension APIEnumeration {
    public var description: String { self.rawValue.description }
}
