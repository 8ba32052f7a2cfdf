import struct Foundation.Data

/// Base64 helpers shared by the model and the CLI-facing parsers.
enum Base64 {
    static func decode(_ text: String) -> [UInt8]? {
        Data(base64Encoded: text).map { [UInt8]($0) }
    }
}
