import AppStoreServerAPI
import ArgumentParser
import ReceiptKit

/// The In-App Purchase key's id and `.p8` file, as `receiptkit api` and `receiptkit sign` take them.
struct KeyFileOptions: ParsableArguments {
    @Option(name: .customLong("key-id"), help: "The key id of the In-App Purchase key.")
    var keyID: String

    @Option(
        name: .customLong("private-key"),
        help: ArgumentHelp("The In-App Purchase key's .p8 file (PEM PKCS#8, P-256).", valueName: "file.p8")
    )
    var privateKey: String

    func validate() throws {
        if self.keyID.isEmpty { throw ValidationError("--key-id must not be empty") }
    }

    /// The `.p8` file's text: a regular file only, opened without blocking (a FIFO named by mistake cannot hang the
    /// command), at most `AppStoreServerAPIKey.maximumFileSize` bytes; otherwise the command ends with 66, reported
    /// (also as JSON with `json`). Its contents are never part of a message.
    func text(json: Bool) throws -> String {
        let read: [UInt8]?
        do {
            read = try ReceiptFile.regularFileContents(atPath: self.privateKey, maximumSize: AppStoreServerAPIKey.maximumFileSize)
        } catch {
            throw InputFailure(error).reported(subject: "--private-key \(self.privateKey)", json: json)
        }
        guard let bytes = read else {
            throw InputFailure(ReceiptFileError(.unreadableFile, "not a regular file"))
                .reported(subject: "--private-key \(self.privateKey)", json: json)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
