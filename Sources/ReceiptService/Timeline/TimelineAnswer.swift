import Hummingbird
import Logging

/// What a timeline request is answered with: a page (its outcome gives the status), a redirect to a customer's
/// page, or 401 asking for the admin token.
enum TimelineAnswer: Sendable {
    case page(EntitlementOutcome, String)
    case redirect(String)
    case unauthorized

    var httpResponseStatus: HTTPResponse.Status {
        switch self {
        case .page(let outcome, _): HTTPResponse.Status(code: outcome.httpStatus)
        case .redirect: .seeOther
        case .unauthorized: .unauthorized
        }
    }

    var logMetadata: Logger.Metadata {
        let outcome: String
        switch self {
        case .page(let answered, _): outcome = answered.rawValue
        case .redirect: outcome = "redirected"
        case .unauthorized: outcome = EntitlementOutcome.unauthorized.rawValue
        }
        return ["http_status": .stringConvertible(self.httpResponseStatus.code), "outcome": .string(outcome)]
    }

    /// The response: HTML under the page's Content-Security-Policy, never cached, never framed.
    var response: Response {
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
            .contentSecurityPolicy: TimelinePage.contentSecurityPolicy,
            .xContentTypeOptions: "nosniff",
        ]
        let body: String
        switch self {
        case .page(_, let html):
            body = html
        case .redirect(let location):
            headers[.location] = location
            body = ""
        case .unauthorized:
            headers[.wwwAuthenticate] = "Basic realm=\"ReceiptKit\", charset=\"UTF-8\""
            body = "<!DOCTYPE html><title>401</title><p>The admin token is the password.</p>\n"
        }
        return Response(status: self.httpResponseStatus, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
