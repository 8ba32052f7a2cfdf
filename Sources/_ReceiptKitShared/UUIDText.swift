/// UUIDs as text (8-4-4-4-12 hexadecimal digits), checked without Foundation.
public enum UUIDText {
    /// Whether `text` is a UUID's text form; `lowercase` refuses the digits A–F (Apple's `appAccountToken` is
    /// lowercase in what Apple signs).
    public static func isUUID(_ text: some StringProtocol, lowercase: Bool = false) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                let digit = (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
                guard digit || (!lowercase && (0x41...0x46).contains(byte)) else { return false }
            }
        }
        return true
    }
}
