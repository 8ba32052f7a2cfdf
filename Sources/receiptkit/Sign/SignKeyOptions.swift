import AppStoreJWS
import AppStoreServerAPI
import ArgumentParser

/// The options every `receiptkit sign` subcommand takes: the key, the app and the output format.
struct SignKeyOptions: ParsableArguments {
    @OptionGroup var file: KeyFileOptions

    @Option(name: .customLong("bundle-id"), help: "The app's bundle identifier.")
    var bundleIdentifier: String

    @Flag(help: "Print every input and the signature as one JSON object.")
    var json = false

    func validate() throws {
        if self.bundleIdentifier.isEmpty { throw ValidationError("--bundle-id must not be empty") }
    }

    /// The key id.
    var keyID: String { self.file.keyID }

    /// The `.p8` file's text (66 when it cannot be read).
    func keyText() throws -> String { try self.file.text(json: self.json) }

    /// Runs `sign`, reporting a refused key or input under `subject` with `receiptkit api`'s exit statuses.
    func signing<T>(_ subject: String, _ sign: () throws(AppStoreServerAPIError) -> T) throws -> T {
        do throws(AppStoreServerAPIError) {
            return try sign()
        } catch {
            let where_ = error.code == .invalidPrivateKey ? "--private-key \(self.file.privateKey)" : subject
            throw APIFailure(error).reported(subject: where_, json: self.json)
        }
    }

    /// Prints the signature: the line alone, or with `--json` the inputs and `signature`.
    func print(_ signature: String, inputs: [String: JSONValue]) {
        guard self.json else {
            Swift.print(signature)
            return
        }
        var members = inputs
        members["keyId"] = .string(self.keyID)
        members["bundleId"] = .string(self.bundleIdentifier)
        members["signature"] = .string(signature)
        Swift.print(JSONOutput.line(JSONValue.object(members)))
    }
}
