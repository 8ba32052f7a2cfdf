extension SQLValue {
    /// The text of a stored `TEXT` column; anything else is an ``LedgerError/Code/incompatibleSchema`` error.
    func text() throws(LedgerError) -> String {
        guard case .text(let text) = self else { throw Self.unexpected("text") }
        return text
    }

    func optionalText() throws(LedgerError) -> String? {
        if case .null = self { return nil }
        return try self.text()
    }

    /// The value of a stored `BIGINT` column; anything else is an ``LedgerError/Code/incompatibleSchema`` error.
    func integer() throws(LedgerError) -> Int64 {
        guard case .integer(let integer) = self else { throw Self.unexpected("integer") }
        return integer
    }

    func optionalInteger() throws(LedgerError) -> Int64? {
        if case .null = self { return nil }
        return try self.integer()
    }

    private static func unexpected(_ type: String) -> LedgerError {
        LedgerError(.incompatibleSchema, "a stored \(type) column has an unexpected type")
    }
}
