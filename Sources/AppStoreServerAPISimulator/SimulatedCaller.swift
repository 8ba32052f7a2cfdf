/// Who a bearer token accepted by ``AppStoreServerSimulator`` speaks for: its key and the app it names.
struct SimulatedCaller: Sendable {
    let key: SimulatedAPIKey
    let bundleIdentifier: String
    let appAppleID: Int64
}
