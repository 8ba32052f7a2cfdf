/// Text and attribute values written into the timeline page: every character HTML gives a meaning escaped, so that
/// nothing a ledger holds (product ids, offer names, notification types — signed by Apple or not) can become markup.
enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` as character references, and control characters (which HTML forbids
    /// in text) as U+FFFD.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
