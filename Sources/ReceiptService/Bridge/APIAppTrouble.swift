import AppStorePKI

/// An app whose last App Store Server API call did not succeed, and why: what `GET /health` lists under
/// `app_store_server_api`.
struct APIAppTrouble: Sendable, Hashable {
    let bundleIdentifier: String
    let environment: AppStoreEnvironment
    let condition: APIAppCondition
}
