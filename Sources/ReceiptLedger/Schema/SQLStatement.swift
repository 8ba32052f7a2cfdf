/// SQL text with its bound values, in the dialect it was built for.
struct SQLStatement: Sendable {
    var sql: String
    var binds: [SQLValue]
}
