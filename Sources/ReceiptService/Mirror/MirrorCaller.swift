/// Who asks the mirror: a client with Apple's bearer token, checked as Apple checks it, or the process itself for
/// an app it names (`receiptkit subscription`, reading a ledger directly).
enum MirrorCaller: Sendable {
    case token(String?)
    case trusted(bundleIdentifier: String)
}
