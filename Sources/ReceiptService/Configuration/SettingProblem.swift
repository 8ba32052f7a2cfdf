/// What is wrong with one setting's value, without where it came from (the reader adds that): `must be a number`,
/// `must be in [0.001, 3600], not 0`.
struct SettingProblem: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
