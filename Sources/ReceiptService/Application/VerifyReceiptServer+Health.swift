import Hummingbird
import NIOCore
import ReceiptLedger
import _ReceiptKitShared

extension VerifyReceiptServer {
    /// `GET /health`: whether the ledger answers within the health timeout, and the apps whose App Store Server API
    /// calls last failed (a refused key, a rate limit, Apple unavailable).
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
        // The apps Apple does not answer as it should are named (the service still answers, from the ledger, so
        // the status stays ok); absent when there are none.
        let troubles = verifier.refresher?.troubledApps ?? []
        var body = #"{"#
        if !troubles.isEmpty {
            let list = troubles.map { trouble in
                JSONValue.object([
                    "bundle_id": .string(trouble.bundleIdentifier),
                    "environment": .string(trouble.environment.rawValue),
                    "condition": .string(trouble.condition.rawValue),
                ])
            }
            body += #""app_store_server_api":"# + String(decoding: JSONValue.array(list).serialized, as: UTF8.self) + ","
        }
        body += #""database":"\#(database)","status":"\#(healthy ? "ok" : "unavailable")"}"#
        return Response(
            status: healthy ? .ok : .serviceUnavailable,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: body))
        )
    }
}
