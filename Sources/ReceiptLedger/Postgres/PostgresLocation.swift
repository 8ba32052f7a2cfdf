import struct Foundation.URLComponents
import NIOSSL
import PostgresNIO

/// A `postgres://` (or `postgresql://`) URL taken apart: `postgres://user[:password]@host[:port]/database`
/// with an optional `?sslmode=disable|prefer|require|verify-ca|verify-full`, `&sslrootcert=PATH` and
/// `&application_name=NAME` (what `pg_stat_activity` shows for the ledger's connections; `receiptkit` by default).
///
/// Without `sslmode`, a host that is not loopback gets `require`: `prefer` falls back to plaintext when the
/// server (or an attacker on the path) does not offer TLS, and would send the password and every ledger row in
/// the clear. Loopback (`localhost`, `127.0.0.0/8`, `::1`) keeps `prefer`, since nothing is on that path.
/// `disable` only when the URL says so. `require` and `verify-full` verify the server's certificate and name
/// (stricter than libpq's `require`, which checks neither); `verify-ca` the certificate only. The roots are the
/// system's, or the PEM certificates of `sslrootcert` (a private CA, as a managed database's), read when the URL
/// is read.
struct PostgresLocation: Sendable, Hashable {
    var host: String
    var port: Int
    var user: String
    var password: String?
    var database: String?
    var sslMode: String
    /// `sslrootcert`: a PEM file of the roots the server's certificate must chain to, instead of the system's.
    var rootCertificatePath: String?
    /// `application_name`: printable ASCII, at most 63 characters (what the server keeps).
    var applicationName: String

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
        self.sslMode = items.last { $0.name == "sslmode" }?.value ?? (Self.isLoopback(self.host) ? "prefer" : "require")
        guard Self.sslModes.contains(self.sslMode) else {
            throw LedgerError(
                .invalidLocation, "sslmode must be \(Self.sslModes.joined(separator: ", ")), not \(self.sslMode)")
        }
        self.rootCertificatePath = items.last { $0.name == "sslrootcert" }?.value
        self.applicationName = items.last { $0.name == "application_name" }?.value ?? "receiptkit"
        guard (1...63).contains(self.applicationName.utf8.count),
            self.applicationName.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
        else {
            throw LedgerError(.invalidLocation, "application_name must be 1 to 63 printable ASCII characters")
        }
        if let root = self.rootCertificatePath {
            guard self.sslMode != "disable" else {
                throw LedgerError(.invalidLocation, "sslrootcert names roots for TLS, and sslmode=disable turns TLS off")
            }
            // Read now: a missing or malformed file is a mistake in the URL, said at start, not a failed handshake.
            let certificates = try? NIOSSLCertificate.fromPEMFile(root)
            guard let certificates, !certificates.isEmpty else {
                throw LedgerError(.invalidLocation, "sslrootcert \(root): not a readable file of PEM certificates")
            }
        }
    }

    /// The `sslmode` values understood, libpq's spellings (`allow` is not: it would try plaintext first).
    static let sslModes = ["disable", "prefer", "require", "verify-ca", "verify-full"]

    /// The TLS client configuration `sslmode` and `sslrootcert` describe (for every mode but `disable`).
    var tlsConfiguration: TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if self.sslMode == "verify-ca" { tls.certificateVerification = .noHostnameVerification }
        if let root = self.rootCertificatePath { tls.trustRoots = .file(root) }
        return tls
    }

    /// Whether a server without TLS is refused (every mode but `disable` and `prefer`).
    var requiresTLS: Bool { !["disable", "prefer"].contains(self.sslMode) }

    /// Whether `host` names this machine: `localhost`, an IPv4 address in 127.0.0.0/8, or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { octet in
            octet.count <= 3 && !octet.isEmpty && octet.allSatisfy(\.isASCII) && UInt8(octet) != nil
        }
    }

    /// One direct connection's configuration, as the pool's (for ``PostgresConnectionDiagnosis``); `nil` when a TLS
    /// context cannot be made.
    func connectionConfiguration() -> PostgresConnection.Configuration? {
        let tls: PostgresConnection.Configuration.TLS
        switch self.sslMode {
        case "disable":
            tls = .disable
        default:
            guard let context = try? NIOSSLContext(configuration: self.tlsConfiguration) else { return nil }
            tls = self.requiresTLS ? .require(context) : .prefer(context)
        }
        var configuration = PostgresConnection.Configuration(
            host: self.host, port: self.port, username: self.user, password: self.password, database: self.database,
            tls: tls)
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.additionalStartupParameters = [("application_name", self.applicationName)]
        return configuration
    }

    func configuration() -> PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS =
            self.sslMode == "disable"
            ? .disable : self.requiresTLS ? .require(self.tlsConfiguration) : .prefer(self.tlsConfiguration)
        var configuration = PostgresClient.Configuration(
            host: self.host, port: self.port, username: self.user, password: self.password,
            database: self.database, tls: tls)
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.additionalStartupParameters = [("application_name", self.applicationName)]
        return configuration
    }
}
