/// Random damage to DER input, for the tests that check two readers read alike.
enum Mutation {
    /// `base` after one to `most` changes: a byte replaced by any value or by one of `telling` (length and tag bytes
    /// that change how the rest reads), or the input cut short.
    static func of(_ base: [UInt8], most: Int, telling: [UInt8], using random: inout some RandomNumberGenerator) -> [UInt8] {
        var mutated = base
        for _ in 0..<Int.random(in: 1...most, using: &random) {
            if mutated.isEmpty { break }
            let at = Int.random(in: 0..<mutated.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: mutated[at] = UInt8.random(in: 0...255, using: &random)
            case 1: mutated[at] = telling.randomElement(using: &random) ?? 0
            default: mutated = Array(mutated.prefix(at))
            }
        }
        return mutated
    }
}
