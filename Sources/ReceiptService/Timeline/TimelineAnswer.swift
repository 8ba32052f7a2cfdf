import Hummingbird
import Logging

/// What a timeline request is answered with: a page (its outcome gives the status), a redirect to a customer's
/// page, 401 asking for the admin token, or 403 for a request another site's page made the browser send.
enum TimelineAnswer: Sendable {
    case page(EntitlementOutcome, String)
    case redirect(String)
    case unauthorized
    case crossSite

    /// `Sec-Fetch-Site`: a browser names the site whose page made the request. A browser that keeps the admin
    /// token (HTTP Basic) would send it with a request another site's page makes — an image, a form — so such a
    /// request is refused before the token is even looked at (no refresh from Apple, no status telling whether the
    /// customer exists). Clients that send no such header (curl, scripts) are unaffected.
    static let fetchSite = HTTPFields.Element.Name("Sec-Fetch-Site")
    /// `Cross-Origin-Resource-Policy`, so that no other site's page may embed the answer.
    static let resourcePolicy = HTTPFields.Element.Name("Cross-Origin-Resource-Policy")

    /// Whether `headers` say another site's page made the request.
    static func isCrossSite(_ headers: HTTPFields) -> Bool {
        guard let name = Self.fetchSite, let site = headers[name] else { return false }
        return site.lowercased() == "cross-site"
    }

    var httpResponseStatus: HTTPResponse.Status {
        switch self {
        case .page(let outcome, _): HTTPResponse.Status(code: outcome.httpStatus)
        case .redirect: .seeOther
        case .unauthorized: .unauthorized
        case .crossSite: .forbidden
        }
    }

    var logMetadata: Logger.Metadata {
        let outcome: String
        switch self {
        case .page(let answered, _): outcome = answered.rawValue
        case .redirect: outcome = "redirected"
        case .unauthorized: outcome = EntitlementOutcome.unauthorized.rawValue
        case .crossSite: outcome = "cross_site"
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
        if let name = Self.resourcePolicy { headers[name] = "same-origin" }
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
        case .crossSite:
            body = "<!DOCTYPE html><title>403</title><p>Open this page from its own address, not from another site.</p>\n"
        }
        return Response(status: self.httpResponseStatus, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
