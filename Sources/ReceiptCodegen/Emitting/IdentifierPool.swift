/// Random, unique identifiers for a generation: letters and digits, starting with a letter, 6 to 11 characters, never
/// a Swift keyword. Nothing in a generated file is named after what it does.
struct IdentifierPool {
    private var used: Set<String> = []
    private static let first = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    private static let rest = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

    /// A name never handed out before.
    mutating func fresh(using random: inout SeededGenerator) -> String {
        while true {
            let length = random.pick(6...11)
            var name = String(random.element(Self.first))
            for _ in 1..<length { name.append(random.element(Self.rest)) }
            if self.used.insert(name).inserted { return name }
        }
    }
}
