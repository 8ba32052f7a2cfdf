import ReceiptKitTesting
import AppStoreJWS
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

extension AppStoreServerSimulator {
    /// The largest request body read (consumption information, extension, history and app account token
    /// requests are a few hundred bytes); a larger one is answered 400.
    static let maximumBodyBytes = 64 * 1024

    /// Apple's paths, each behind ``serve(_:_:_:answer:)``.
    func router() -> Router<SimulatorRequestContext> {
        let router = Router(context: SimulatorRequestContext.self)
        let simulator = self
        func route(
            _ method: HTTPRequest.Method, _ path: RouterPath, _ endpoint: SimulatedEndpoint,
            _ answer: @escaping @Sendable (Request, Parameters, SimulatedCaller, [UInt8]) -> SimulatorAnswer
        ) {
            router.on(path, method: method) { request, context in
                try await simulator.serve(endpoint, request, context) { caller, body in
                    answer(request, context.parameters, caller, body)
                }
            }
        }
        route(.get, "inApps/v2/history/:transactionId", .transactionHistory) { request, path, caller, _ in
            simulator.history(path.get("transactionId"), request.uri.queryParameters, caller)
        }
        route(.get, "inApps/v1/transactions/:transactionId", .transactionInfo) { _, path, caller, _ in
            simulator.transactionInfo(path.get("transactionId"), caller)
        }
        route(.get, "inApps/v1/transactions/appTransactions/:transactionId", .appTransactionInfo) { _, path, caller, _ in
            simulator.appTransactionInfo(path.get("transactionId"), caller)
        }
        route(.get, "inApps/v1/subscriptions/:transactionId", .subscriptionStatuses) { request, path, caller, _ in
            simulator.statuses(path.get("transactionId"), request.uri.queryParameters, caller)
        }
        route(.get, "inApps/v1/lookup/:orderId", .orderLookup) { _, path, caller, _ in
            simulator.lookUpOrder(path.get("orderId"), caller)
        }
        route(.get, "inApps/v2/refund/lookup/:transactionId", .refundHistory) { request, path, caller, _ in
            simulator.refunds(path.get("transactionId"), request.uri.queryParameters, caller)
        }
        route(.post, "inApps/v1/notifications/history", .notificationHistory) { request, _, caller, body in
            simulator.notificationHistory(body, request.uri.queryParameters.get("paginationToken"), caller)
        }
        route(.post, "inApps/v1/notifications/test", .requestTestNotification) { _, _, caller, _ in
            simulator.requestTestNotification(caller)
        }
        route(.get, "inApps/v1/notifications/test/:token", .testNotificationStatus) { _, path, caller, _ in
            simulator.testNotificationStatus(path.get("token"), caller)
        }
        route(.put, "inApps/v2/transactions/consumption/:transactionId", .consumption) { _, path, caller, body in
            simulator.consumption(path.get("transactionId"), body, caller)
        }
        route(.put, "inApps/v1/transactions/consumption/:transactionId", .consumptionV1) { _, path, caller, body in
            simulator.consumptionV1(path.get("transactionId"), body, caller)
        }
        route(.put, "inApps/v1/subscriptions/extend/:originalTransactionId", .extendRenewalDate) {
            _, path, caller, body in
            simulator.extendRenewalDate(path.get("originalTransactionId"), body, caller)
        }
        // One parameter name per place in the path: Hummingbird's trie refuses `:originalTransactionId` beside the
        // `:transactionId` of Get Transaction Info.
        route(.put, "inApps/v1/transactions/:transactionId/appAccountToken", .appAccountToken) {
            _, path, caller, body in
            simulator.setAppAccountToken(path.get("transactionId"), body, caller)
        }
        return router
    }

    /// The one path of every request: the scripted fault's delay, hold or dropped connection, the bearer token (401
    /// with an empty body when refused, as Apple answers), the scripted error, then the endpoint's answer; logged.
    func serve(
        _ endpoint: SimulatedEndpoint,
        _ request: Request,
        _ context: SimulatorRequestContext,
        answer: @Sendable (SimulatedCaller, [UInt8]) async -> SimulatorAnswer
    ) async throws -> Response {
        guard !self.store.isDown else {
            try await context.channel.close()
            throw CancellationError()
        }
        let fault = self.store.takeFault(for: endpoint)
        switch fault?.kind {
        case .delay(let duration)?:
            try await Task.sleep(for: duration)
        case .hold(let gate)?:
            await gate.pass()
        case .closeConnection?:
            self.log(endpoint, request, status: 0, refusal: nil)
            try await context.channel.close()
            throw CancellationError()
        case .error?, nil:
            break
        }
        let (keys, apps) = self.store.state.withLockedValue { ($0.keys, $0.apps) }
        let outcome = BearerTokenCheck.check(
            request.headers[.authorization], keys: keys, apps: apps, now: self.now())
        let result: SimulatorAnswer
        var refusal: String?
        switch (outcome, fault?.kind) {
        case (.refused(let reason), _):
            refusal = reason
            result = .empty(401)
        case (.accepted, .error(let error, let retryAfter)?):
            result = .error(error, retryAfterSeconds: retryAfter)
        case (.accepted(let caller), _):
            do {
                let body = try await request.body.collect(upTo: Self.maximumBodyBytes)
                result = await answer(caller, Array(body.readableBytesView))
            } catch {
                result = .error(.generalBadRequest)
            }
        }
        self.log(endpoint, request, status: result.status, refusal: refusal)
        var headers: HTTPFields = [:]
        if !result.body.isEmpty { headers[.contentType] = "application/json" }
        if let seconds = result.retryAfterSeconds { headers[.retryAfter] = String(seconds) }
        return Response(
            status: HTTPResponse.Status(code: result.status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: result.body)))
    }

    private func log(_ endpoint: SimulatedEndpoint, _ request: Request, status: Int, refusal: String?) {
        self.store.log(
            SimulatedRequest(
                endpoint: endpoint, method: request.method.rawValue, uri: request.uri.description, status: status,
                tokenRefusal: refusal))
    }

    /// `fields` signed by the authority's leaf with its chain; `signedDate` set to the simulator's clock unless
    /// `keepsSignedDate`. `nil` only if signing fails, which the caller answers as Apple's 500.
    func sign(_ fields: [String: JSONValue], keepsSignedDate: Bool = false) -> String? {
        var fields = fields
        if !keepsSignedDate { fields["signedDate"] = .number(AppStoreTimestamp(self.now()).number) }
        return try? JWSMinter.sign(fields, signer: self.authority.leaf, chain: self.authority.chain)
    }

    /// Each of `payloads` signed, or `nil` when one could not be.
    func signAll(_ payloads: [[String: JSONValue]]) -> [JSONValue]? {
        var signed: [JSONValue] = []
        for payload in payloads {
            guard let jws = self.sign(payload) else { return nil }
            signed.append(.string(jws))
        }
        return signed
    }

    /// Apple's transaction and original transaction identifiers are decimal digits.
    static func isValidIdentifier(_ id: String?) -> Bool {
        guard let id, (1...64).contains(id.utf8.count) else { return false }
        return id.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The stored transaction `id` as the caller may see it: its app and this host's environment.
    func visible(_ stored: SimulatedAppStore.StoredTransaction?, to caller: SimulatedCaller) -> Bool {
        guard let stored else { return false }
        return stored.fields.string("bundleId") == caller.bundleIdentifier
            && stored.fields.string("environment") == self.environment.rawValue
    }

    /// The members every customer-level response starts with.
    func appMembers(_ caller: SimulatedCaller) -> [String: JSONValue] {
        [
            "bundleId": .string(caller.bundleIdentifier),
            "appAppleId": .number(JSONNumber(caller.appAppleID)),
            "environment": .string(self.environment.rawValue),
        ]
    }
}
