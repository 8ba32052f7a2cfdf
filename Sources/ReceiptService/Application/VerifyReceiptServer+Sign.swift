import Foundation
import Hummingbird
import Logging
import NIOCore

extension VerifyReceiptServer {
    /// The signing endpoints' paths, served when an admin token is configured.
    static let signRoutes: [String: HTTPRequest.Method] = Dictionary(
        uniqueKeysWithValues: SignatureKind.allCases.map { ("/v1/sign/\($0.rawValue)", .post) })

    /// The 503 body when the in-flight body budget cannot cover a signing request (as the refusals').
    static let signBusyBody = EntitlementAnswer.refused(
        EntitlementRefusal(.unavailable, .bodyBudgetExhausted, "the service is busy; try again")).body

    /// `POST /v1/sign/{kind}` (``SignEndpoint``): the admin token checked before the body is read, then the body
    /// within the service's limits, as every answering route.
    static func addSign(to router: Router<VerifyReceiptRequestContext>, _ server: VerifyReceiptServer, _ endpoint: SignEndpoint) {
        for kind in SignatureKind.allCases {
            router.post("v1/sign/\(kind.rawValue)") { request, context in
                guard endpoint.admits(request.headers[.authorization]) else {
                    context.log.record(.info, "v1/sign", SignEndpoint.unauthorized.logMetadata.merging(["kind": .string(kind.rawValue)]) { $1 })
                    var response = Self.response(SignEndpoint.unauthorized)
                    response.headers[.wwwAuthenticate] = "Bearer"
                    response.headers[.cacheControl] = "no-store"
                    return response
                }
                let route = AnsweringRoute(
                    name: "v1/sign", metadata: ["kind": kind.rawValue],
                    timedOut: EntitlementAnswer.refused(
                        EntitlementRefusal(.unavailable, .timeout, "the signature was not made in time; try again")),
                    busyBody: Self.signBusyBody,
                    answer: { body in endpoint.answer(kind, body: body, nonce: UUID()) })
                var response = try await server.respond(request, context: context, route: route)
                response.headers[.cacheControl] = "no-store"
                return response
            }
        }
    }
}
