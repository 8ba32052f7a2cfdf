import AppStoreJWS
import AppStoreServerAPI
import Hummingbird
import Logging

/// An answer of the App Store Server API mirror, shaped as Apple's: a JSON body with the status, an error as
/// Apple's `{"errorCode": …, "errorMessage": …}`, and 401 with an empty body for any token it refuses.
struct MirrorAnswer: Sendable {
    let status: Int
    let body: [UInt8]
    /// Why the token was refused (`BearerTokenVerifier.Verdict`), for the log line; never the token.
    let refusal: String?

    /// 200 with `fields` as the body.
    static func ok(_ fields: [String: JSONValue]) -> Self {
        Self(status: 200, body: JSONValue.object(fields).serialized, refusal: nil)
    }

    /// Apple's error answer.
    static func error(_ error: APIErrorAnswer) -> Self {
        Self(status: error.status, body: error.body, refusal: nil)
    }

    /// 401, empty, as Apple answers any token it does not accept.
    static func unauthorized(_ reason: String) -> Self {
        Self(status: 401, body: [], refusal: reason)
    }
}

extension MirrorAnswer: HTTPAnswer {
    var httpResponseStatus: HTTPResponse.Status { HTTPResponse.Status(code: self.status) }

    var logMetadata: Logger.Metadata {
        var metadata: Logger.Metadata = ["http_status": .stringConvertible(self.status)]
        if let refusal = self.refusal { metadata["token_refusal"] = .string(refusal) }
        return metadata
    }
}
