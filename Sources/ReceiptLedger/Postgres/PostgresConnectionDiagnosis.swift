import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import _ReceiptKitShared

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a PostgreSQL server gives no connection, found by opening one connection directly: the pool only says that it
/// has none (its connection errors go to its log), so a wrong password, an unknown database, a TLS mismatch or a
/// closed port would all read "no connection within 3 s". Run once when the server becomes unreachable, never per
/// request.
struct PostgresConnectionDiagnosis: Sendable {
    let configuration: PostgresConnection.Configuration
    let endpoint: String
    let logger: Logger

    /// What stops a connection, in words; `nil` when one opens now (the server came back, or the pool is only busy).
    func cause(within limit: Duration) async -> String? {
        let (configuration, logger) = (self.configuration, self.logger)
        let outcome = await TimeLimited.run(limit) { () async -> String? in
            do {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
                try? await connection.close()
                return nil
            } catch {
                return Self.describe(error)
            }
        }
        switch outcome {
        case .finished(let cause): return cause
        case .timedOut: return "\(self.endpoint) does not answer within \(limit)"
        case .cancelled: return nil
        }
    }

    /// A connection error in words: the server's own message for what it refused (authentication, database, role),
    /// else the transport's.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if error.code == .server, let info = error.serverInfo {
            let state = info[.sqlState] ?? ""
            let message = info[.message] ?? "no message"
            let kind: String =
                switch state {
                case "28P01", "28000": "authentication failed"
                case "3D000": "no such database"
                case "53300": "too many connections"
                case "57P03": "the server is starting up or shutting down"
                default: "the server refused the connection"
                }
            return "\(kind): \(message) (SQLSTATE \(state))"
        }
        if error.code == .sslUnsupported { return "the server does not offer TLS, which sslmode=require needs" }
        if error.code == .authMechanismRequiresPassword { return "the server asks for a password and the URL has none" }
        if let underlying = error.underlying {
            if let io = underlying as? IOError, io.errnoCode == ECONNREFUSED { return "connection refused (nothing listens there)" }
            if let connection = underlying as? NIOConnectionError {
                if connection.connectionErrors.contains(where: { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }) {
                    return "connection refused (nothing listens at \(connection.host):\(connection.port))"
                }
                if connection.connectionErrors.isEmpty, connection.dnsAError != nil || connection.dnsAAAAError != nil {
                    return "the host name \(connection.host) does not resolve"
                }
            }
            if underlying is NIOSSLError { return "TLS failed: \(underlying)" }
            return "\(underlying)"
        }
        return "\(error.code)"
    }
}
