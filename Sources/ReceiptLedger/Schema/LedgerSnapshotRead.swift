/// The snapshot query and the reading of its rows, both derived from the three tables' column tables: one
/// `UNION ALL` of the transactions, renewal information and original-transaction records of some original
/// transaction ids, whose columns are `kind` (the table's tag) and every column any of the tables reads, each under
/// its own name and type (`NULL` of that type in a table without it, so every column keeps one type, as PostgreSQL's
/// `UNION` requires). A row is read back by its tag's table, column by column, by the positions of its names.
/// A row of unexpected shape is an ``LedgerError/Code/incompatibleSchema`` error, never a crash.
struct LedgerSnapshotRead: Sendable {
    /// The built-in tables' read.
    static let shared = LedgerSnapshotRead(
        transactions: LedgerTransaction.table, renewalInfo: LedgerRenewalInfo.table,
        originalTransactions: LedgerOriginalTransaction.table)

    /// The names of the selected columns, in order: `kind`, then each column the first time a table names it.
    let columnNames: [String]
    private let transactions: Part<LedgerTransaction>
    private let renewalInfo: Part<LedgerRenewalInfo>
    private let originalTransactions: Part<LedgerOriginalTransaction>

    init(
        transactions: LedgerTable<LedgerTransaction>,
        renewalInfo: LedgerTable<LedgerRenewalInfo>,
        originalTransactions: LedgerTable<LedgerOriginalTransaction>
    ) {
        var names = ["kind"]
        var types: [String: String] = [:]
        func add<Record>(_ table: LedgerTable<Record>) {
            for column in table.readColumns where types[column.name] == nil {
                names.append(column.name)
                types[column.name] = column.type.rawValue
            }
        }
        add(transactions)
        add(renewalInfo)
        add(originalTransactions)
        self.columnNames = names
        self.transactions = Part(transactions, names: names, types: types)
        self.renewalInfo = Part(renewalInfo, names: names, types: types)
        self.originalTransactions = Part(originalTransactions, names: names, types: types)
    }

    /// The `SELECT`, `ids` being the condition on `original_transaction_id` and `dialect` giving the placeholders
    /// of environment and bundle id.
    func sql(dialect: SQLDialect, ids: String) -> String {
        let p = dialect.placeholder
        let scope = "environment = \(p(1)) AND bundle_id = \(p(2)) AND original_transaction_id \(ids)"
        return [self.transactions.select, self.renewalInfo.select, self.originalTransactions.select]
            .map { "\($0) WHERE \(scope)" }
            .joined(separator: "\nUNION ALL\n")
    }

    /// The snapshot the rows of ``sql(dialect:ids:)`` hold for `query`.
    func snapshot(_ rows: [[SQLValue]], query: LedgerQuery) throws(LedgerError) -> LedgerSnapshot {
        var transactions: [LedgerTransaction] = []
        var infos: [LedgerRenewalInfo] = []
        var originals: [LedgerOriginalTransaction] = []
        transactions.reserveCapacity(rows.count)
        for row in rows {
            guard row.count == self.columnNames.count, case .text(let tag) = row[0] else {
                throw LedgerError(.incompatibleSchema, "a snapshot row has an unexpected shape")
            }
            switch tag {
            case self.transactions.tag: transactions.append(try self.transactions.record(row, query))
            case self.renewalInfo.tag: infos.append(try self.renewalInfo.record(row, query))
            case self.originalTransactions.tag: originals.append(try self.originalTransactions.record(row, query))
            default: throw LedgerError(.incompatibleSchema, "a snapshot row has an unknown kind")
            }
        }
        transactions.sort(by: LedgerTransaction.isNewer)
        infos.sort { $0.originalTransactionIdentifier < $1.originalTransactionIdentifier }
        originals.sort { $0.originalTransactionIdentifier < $1.originalTransactionIdentifier }
        return LedgerSnapshot(transactions: transactions, renewalInfo: infos, originalTransactions: originals)
    }

    /// One table's share of the query: its `SELECT` list and where each of its columns sits in a row.
    private struct Part<Record>: Sendable {
        let tag: String
        let select: String
        let blank: @Sendable (LedgerQuery) -> Record
        let readers: [(position: Int, read: @Sendable (inout Record, SQLValue) throws(LedgerError) -> Void)]

        init(_ table: LedgerTable<Record>, names: [String], types: [String: String]) {
            let own = Dictionary(table.readColumns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            let list = names.dropFirst().map { name in
                own[name] == nil ? "CAST(NULL AS \(types[name] ?? "TEXT")) AS \(name)" : name
            }
            self.tag = table.tag
            self.select = "SELECT '\(table.tag)' AS kind, \(list.joined(separator: ", ")) FROM \(table.name)"
            self.blank = table.blank
            self.readers = names.indices.compactMap { position in
                own[names[position]]?.read.map { (position, $0) }
            }
        }

        func record(_ row: [SQLValue], _ query: LedgerQuery) throws(LedgerError) -> Record {
            var record = self.blank(query)
            for reader in self.readers {
                try reader.read(&record, row[reader.position])
            }
            return record
        }
    }
}
