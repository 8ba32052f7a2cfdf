/// The snapshot query and the reading of its rows, both derived from the three tables' column tables: one
/// `UNION ALL` of the transactions, renewal information and original-transaction records of some original
/// transaction ids. A row is the table's tag, then typed places (`c1`, `c2`, …) that each table's columns are given
/// once, by name, here: a column takes the place a column of the same name took in an earlier table, else the first
/// place of its type the table does not use yet, else a new one — so a row is as narrow as the widest table, and a
/// place keeps one type, as PostgreSQL's `UNION` requires (a table that leaves a place empty selects a `NULL` of its
/// type). A row is read back by its tag's table, column by column, from the places its names were given; nobody
/// writes a position by hand. A row of unexpected shape is an ``LedgerError/Code/incompatibleSchema`` error, never a
/// crash.
struct LedgerSnapshotRead: Sendable {
    /// The built-in tables' read.
    static let shared = LedgerSnapshotRead(
        transactions: LedgerTransaction.table, renewalInfo: LedgerRenewalInfo.table,
        originalTransactions: LedgerOriginalTransaction.table)

    /// The types of the places after the tag, in order.
    let placeTypes: [SQLColumnType]
    private let transactions: Part<LedgerTransaction>
    private let renewalInfo: Part<LedgerRenewalInfo>
    private let originalTransactions: Part<LedgerOriginalTransaction>

    init(
        transactions: LedgerTable<LedgerTransaction>,
        renewalInfo: LedgerTable<LedgerRenewalInfo>,
        originalTransactions: LedgerTable<LedgerOriginalTransaction>
    ) {
        var types: [SQLColumnType] = []
        var placeOfName: [String: Int] = [:]
        func assign<Record>(_ table: LedgerTable<Record>) -> [String: Int] {
            var places: [String: Int] = [:]
            for column in table.readColumns {
                let taken = Set(places.values)
                let place: Int
                if let named = placeOfName[column.name], !taken.contains(named), types[named] == column.type {
                    place = named
                } else if let free = types.indices.first(where: { types[$0] == column.type && !taken.contains($0) }) {
                    place = free
                } else {
                    types.append(column.type)
                    place = types.count - 1
                }
                places[column.name] = place
                if placeOfName[column.name] == nil { placeOfName[column.name] = place }
            }
            return places
        }
        let transactionPlaces = assign(transactions)
        let renewalPlaces = assign(renewalInfo)
        let originalPlaces = assign(originalTransactions)
        self.placeTypes = types
        self.transactions = Part(transactions, places: transactionPlaces, types: types)
        self.renewalInfo = Part(renewalInfo, places: renewalPlaces, types: types)
        self.originalTransactions = Part(originalTransactions, places: originalPlaces, types: types)
    }

    /// The tag of the row saying a receipt is recorded (``sql(dialect:ids:recognising:)``).
    static let recordedTag = "h"

    /// The `SELECT`: `dialect` gives the placeholders of environment and bundle id (the first two), and `ids` the
    /// original transaction ids — SQLite's condition on them (`IN (…)`), PostgreSQL's placeholder of their `text[]`.
    /// With `recognising` (the placeholder of a receipt hash), the same statement also says whether that receipt is
    /// recorded: one row tagged ``recordedTag`` when it is, so that a receipt posted again is recognised and answered
    /// in one statement.
    ///
    /// PostgreSQL looks each id up on its own (a nested loop over the list, each lookup an index scan on all three
    /// columns): written `original_transaction_id = ANY($3)`, the plan a prepared statement keeps may filter the list
    /// over every row of the app instead — as the planner chooses when the table was small (or empty) at planning
    /// time, a plan then kept for the connection's life while the table grows.
    func sql(dialect: SQLDialect, ids: String, recognising hash: String? = nil) -> String {
        let p = dialect.placeholder
        let tables = [self.transactions.from, self.renewalInfo.from, self.originalTransactions.from]
        let selects = [
            self.transactions.select(dialect), self.renewalInfo.select(dialect), self.originalTransactions.select(dialect),
        ]
        var parts = zip(selects, tables).map { select, table in
            switch dialect {
            case .sqlite:
                return "\(select) FROM \(table) WHERE environment = \(p(1)) AND bundle_id = \(p(2)) "
                    + "AND original_transaction_id \(ids)"
            case .postgres:
                return """
                    \(select) FROM unnest(CAST(\(ids) AS text[])) AS receiptkit_wanted(original_id) CROSS JOIN LATERAL (\
                    SELECT * FROM \(table) WHERE environment = \(p(1)) AND bundle_id = \(p(2)) \
                    AND original_transaction_id = receiptkit_wanted.original_id OFFSET 0) AS \(table)
                    """
            }
        }
        if let hash {
            let empty = self.placeTypes.indices.map { place in
                switch dialect {
                case .postgres: "CAST(NULL AS \(self.placeTypes[place].rawValue)) AS c\(place + 1)"
                case .sqlite: "NULL AS c\(place + 1)"
                }
            }
            parts.append(
                "SELECT '\(Self.recordedTag)' AS k, \(empty.joined(separator: ", ")) FROM receiptkit_receipts "
                    + "WHERE receipt_hash = \(hash)")
        }
        return parts.joined(separator: "\nUNION ALL\n")
    }

    /// Where `name` of the table tagged `tag` sits in a row (0 is the tag), for tests.
    func position(of name: String, tag: String) -> Int? {
        switch tag {
        case self.transactions.tag: self.transactions.places[name].map { $0 + 1 }
        case self.renewalInfo.tag: self.renewalInfo.places[name].map { $0 + 1 }
        case self.originalTransactions.tag: self.originalTransactions.places[name].map { $0 + 1 }
        default: nil
        }
    }

    /// The snapshot the rows of ``sql(dialect:ids:recognising:)`` hold for `query`.
    func snapshot(_ rows: [[SQLValue]], query: LedgerQuery) throws(LedgerError) -> LedgerSnapshot {
        try self.recognition(rows, query: query).snapshot
    }

    /// The snapshot the rows of ``sql(dialect:ids:recognising:)`` hold for `query`, and whether they say the receipt
    /// is recorded.
    func recognition(_ rows: [[SQLValue]], query: LedgerQuery) throws(LedgerError)
        -> (snapshot: LedgerSnapshot, recorded: Bool)
    {
        var recorded = false
        var transactions: [LedgerTransaction] = []
        var infos: [LedgerRenewalInfo] = []
        var originals: [LedgerOriginalTransaction] = []
        transactions.reserveCapacity(rows.count)
        let width = self.placeTypes.count + 1
        for row in rows {
            guard row.count == width, case .text(let tag) = row[0] else {
                throw LedgerError(.incompatibleSchema, "a snapshot row has an unexpected shape")
            }
            switch tag {
            case self.transactions.tag: transactions.append(try self.transactions.record(row, query))
            case self.renewalInfo.tag: infos.append(try self.renewalInfo.record(row, query))
            case self.originalTransactions.tag: originals.append(try self.originalTransactions.record(row, query))
            case Self.recordedTag: recorded = true
            default: throw LedgerError(.incompatibleSchema, "a snapshot row has an unknown kind")
            }
        }
        transactions.sort(by: LedgerTransaction.isNewer)
        infos.sort { $0.originalTransactionIdentifier < $1.originalTransactionIdentifier }
        originals.sort { $0.originalTransactionIdentifier < $1.originalTransactionIdentifier }
        return (LedgerSnapshot(transactions: transactions, renewalInfo: infos, originalTransactions: originals), recorded)
    }

    /// One table's share of the query: its `SELECT` list and where each of its columns sits in a row.
    private struct Part<Record>: Sendable {
        let tag: String
        /// The table's name.
        let from: String
        /// The place of each column the table reads (0-based, after the tag).
        let places: [String: Int]
        /// The `SELECT` list of PostgreSQL (a place the table leaves empty is a `NULL` of the place's type)
        /// and of SQLite (a plain `NULL`: its columns have no declared type to agree on, and the text parses faster).
        let postgresSelect: String
        let sqliteSelect: String
        let blank: @Sendable (LedgerQuery) -> Record
        let readers: [(position: Int, read: @Sendable (inout Record, SQLValue) throws(LedgerError) -> Void)]

        init(_ table: LedgerTable<Record>, places: [String: Int], types: [SQLColumnType]) {
            var columnAt: [Int: String] = [:]
            for (name, place) in places { columnAt[place] = name }
            // Places are aliased `c1`, `c2`, …: the drivers hand every row its columns' names, and names this short
            // are stored inline, not allocated.
            func select(_ empty: (SQLColumnType) -> String) -> String {
                let list = types.indices.map { place in "\(columnAt[place] ?? empty(types[place])) AS c\(place + 1)" }
                return "SELECT '\(table.tag)' AS k, \(list.joined(separator: ", "))"
            }
            self.tag = table.tag
            self.from = table.name
            self.places = places
            self.postgresSelect = select { "CAST(NULL AS \($0.rawValue))" }
            self.sqliteSelect = select { _ in "NULL" }
            self.blank = table.blank
            self.readers = table.readColumns.compactMap { column in
                guard let place = places[column.name], let read = column.read else { return nil }
                return (place + 1, read)
            }
        }

        func select(_ dialect: SQLDialect) -> String {
            switch dialect {
            case .postgres: self.postgresSelect
            case .sqlite: self.sqliteSelect
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
