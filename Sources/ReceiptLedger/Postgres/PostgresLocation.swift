import struct Foundation.URLComponents
import NIOSSL
import PostgresNIO

/// A `postgres://` (or `postgresql://`) URL taken apart: `postgres://user[:password]@host[:port]/database`
/// with an optional `?sslmode=disable|prefer|require` (default `prefer`).
struct PostgresLocation: Sendable, Hashable {
    var host: String
    var port: Int
    var user: String
    var password: String?
    var database: String?
    var sslMode: String

    init(url: String) throws(LedgerError) {
        guard let components = URLComponents(string: url),
            let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql"
        else {
            throw LedgerError(.invalidLocation, "not a postgres:// URL")
        }
        let items = components.queryItems ?? []
        guard let user = components.user, !user.isEmpty else {
            throw LedgerError(.invalidLocation, "the postgres URL names no user (postgres://USER@host/database)")
        }
        self.host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        self.port = components.port ?? 5432
        guard (1...65535).contains(self.port) else {
            throw LedgerError(.invalidLocation, "port \(self.port) is out of range")
        }
        self.user = user
        self.password = components.password
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        self.database = path.isEmpty ? nil : path
        self.sslMode = items.last { $0.name == "sslmode" }?.value ?? "prefer"
        guard ["disable", "prefer", "require"].contains(self.sslMode) else {
            throw LedgerError(.invalidLocation, "sslmode must be disable, prefer or require, not \(self.sslMode)")
        }
    }

    func configuration() -> PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS =
            switch self.sslMode {
            case "disable": .disable
            case "require": .require(.makeClientConfiguration())
            default: .prefer(.makeClientConfiguration())
            }
        var configuration = PostgresClient.Configuration(
            host: self.host, port: self.port, username: self.user, password: self.password,
            database: self.database, tls: tls)
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }
}
