/// A value Apple documents as one of a list (a transaction type, an offer type, a notification type): a struct with
/// static members rather than an enum, so a value Apple adds tomorrow decodes as itself — the raw value is always
/// kept — and `switch`es need a `default`. Encoded as its raw value.
public protocol AppStoreEnumeration: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible
where RawValue: Sendable & Hashable & Codable & CustomStringConvertible {}

extension AppStoreEnumeration {
    public var description: String { self.rawValue.description }
}
