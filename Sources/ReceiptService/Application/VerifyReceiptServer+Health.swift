import Hummingbird
import NIOCore
import ReceiptLedger

extension VerifyReceiptServer {
    /// `GET /health`: whether the ledger answers within the health timeout.
    static func health(_ verifier: ReceiptVerifier) async -> Response {
        let ledger = verifier.ledger
        let database: String
        do {
            let answered: Void? = try await withDeadline(verifier.configuration.healthTimeout) { try await ledger.ping() }
            database = answered != nil ? "reachable" : "timeout"
        } catch {
            database = "unreachable"
        }
        let healthy = database == "reachable"
        let body = #"{"database":"\#(database)","status":"\#(healthy ? "ok" : "unavailable")"}"#
        return Response(
            status: healthy ? .ok : .serviceUnavailable,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: body))
        )
    }
}
