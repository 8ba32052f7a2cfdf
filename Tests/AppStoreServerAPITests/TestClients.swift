@testable import AppStoreServerAPI
import APITestSupport
import AppStoreJWS
import AppStorePKI
import Crypto
import Foundation
import ReceiptKitTesting
import X509

/// Clients on a scripted transport, each with its own key id (the concurrency bound is per key, process-wide).
enum TestClients {
    static let bundleIdentifier = "com.example.app"

    static func key(_ keyID: String = "K\(UUID().uuidString.prefix(8))") throws -> AppStoreServerAPIKey {
        try AppStoreServerAPIKey(
            issuerID: "57246542-96fe-1a63-e053-0824d011072a",
            keyID: keyID,
            privateKey: P256.Signing.PrivateKey()
        )
    }

    static func client(
        _ transport: any HTTPTransport,
        runtime: PinnedRuntime = PinnedRuntime(),
        clock: APIClientRuntime? = nil,
        environment: AppStoreEnvironment = .production,
        anchors: [Certificate] = [],
        edit: (inout AppStoreServerAPIConfiguration) -> Void = { _ in }
    ) throws -> AppStoreServerAPIClient {
        var configuration = try AppStoreServerAPIConfiguration(
            key: try Self.key(),
            bundleIdentifier: Self.bundleIdentifier,
            environment: environment,
            baseURL: "http://127.0.0.1:8080"
        )
        configuration.verificationPolicy.anchors = AppStoreTrustAnchors(anchors)
        edit(&configuration)
        return try AppStoreServerAPIClient(configuration: configuration, transport: transport, runtime: clock ?? runtime.runtime)
    }
}
