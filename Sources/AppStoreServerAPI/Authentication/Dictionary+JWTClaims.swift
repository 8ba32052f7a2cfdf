import AppStoreJWS

extension [String: JSONValue] {
    /// The number member `key` as a `Double` (a JWT's `iat` and `exp` may be fractional), beside AppStoreJWS's
    /// `string(_:)` and `integer(_:)`.
    func double(_ key: String) -> Double? {
        if case .number(let number)? = self[key] { return number.double }
        return nil
    }
}
