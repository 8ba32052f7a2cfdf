import AppStoreJWS
import AppStorePKI
import AppStoreServerAPI
import ArgumentParser
import ReceiptKit

/// The options every `receiptkit api` subcommand takes: the In-App Purchase key, the app, where to send requests,
/// what signed data must chain to, and the output format.
struct APIOptions: ParsableArguments {
    @Option(
        name: .customLong("issuer-id"),
        help: "The issuer id of the In-App Purchase key (App Store Connect, Users and Access, Integrations)."
    )
    var issuerID: String

    @OptionGroup var key: KeyFileOptions

    @Option(name: .customLong("bundle-id"), help: "The app's bundle identifier; signed data must name it.")
    var bundleIdentifier: String

    @Option(help: "production or sandbox: Apple's host, and the environment signed data must come from.")
    var environment: String = "production"

    @Option(
        name: .customLong("app-apple-id"),
        help: ArgumentHelp(
            "The app's Apple ID: Production signed data that names the app (notifications) must carry it.",
            valueName: "id"
        )
    )
    var appAppleID: Int64?

    @Option(
        name: .customLong("base-url"),
        help: ArgumentHelp(
            "Another host than Apple's (a local simulator): https, or plain http to 127.0.0.1 or [::1] only.",
            valueName: "url"
        )
    )
    var baseURL: String?

    @Option(
        name: .customLong("anchor"),
        help: "A trusted anchor certificate (DER or PEM; repeatable), besides Apple Root CA - G3."
    )
    var anchors: [String] = []

    @Flag(help: "Print the answer as JSON, each signed value replaced by its verified payload.")
    var json = false

    func validate() throws {
        guard self.appStoreEnvironment != nil else {
            throw ValidationError("--environment takes production or sandbox, not '\(self.environment)'")
        }
        if self.issuerID.isEmpty { throw ValidationError("--issuer-id must not be empty") }
        if self.bundleIdentifier.isEmpty { throw ValidationError("--bundle-id must not be empty") }
        if let id = self.appAppleID, id <= 0 { throw ValidationError("--app-apple-id must be a positive integer") }
    }

    /// `--environment` as an App Store environment: Production or Sandbox, nothing else.
    var appStoreEnvironment: AppStoreEnvironment? {
        switch AppStoreEnvironment(self.environment) {
        case .production?: return .production
        case .sandbox?: return .sandbox
        default: return nil
        }
    }

    /// A client as the options say. A key or anchor file that cannot be read ends the command with 66, one that
    /// holds no usable key or certificate with 65, a base URL the client refuses with 64 — each also a JSON error
    /// object with `--json`; the key's text is never part of a message.
    func client() throws -> AppStoreServerAPIClient {
        let anchorCertificates = try AnchorFiles.certificates(self.anchors, json: self.json)
        let text = try self.key.text(json: self.json)
        let environment = self.appStoreEnvironment ?? .production
        do throws(AppStoreServerAPIError) {
            let key = try AppStoreServerAPIKey(
                issuerID: self.issuerID,
                keyID: self.key.keyID,
                pemRepresentation: text
            )
            var configuration = try AppStoreServerAPIConfiguration(
                key: key,
                bundleIdentifier: self.bundleIdentifier,
                environment: environment,
                appAppleID: self.appAppleID,
                baseURL: self.baseURL
            )
            configuration.verificationPolicy.anchors = AppStoreTrustAnchors(anchorCertificates)
            return try AppStoreServerAPIClient(configuration: configuration)
        } catch {
            let subject = error.code == .invalidPrivateKey ? "--private-key \(self.key.privateKey)" : "api"
            throw APIFailure(error).reported(subject: subject, json: self.json)
        }
    }

    /// Runs `call` with a client as the options say; an error from the API ends the command with its exit status,
    /// reported on standard error (and as JSON on standard output with `--json`) under `subject`.
    func call<T>(
        _ subject: String,
        _ call: (AppStoreServerAPIClient) async throws(AppStoreServerAPIError) -> T
    ) async throws -> T {
        let client = try self.client()
        do throws(AppStoreServerAPIError) {
            return try await call(client)
        } catch {
            throw APIFailure(error).reported(subject: subject, json: self.json)
        }
    }
}
