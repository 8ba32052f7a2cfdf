/// A generated validator: Swift source to add to the app's own module.
public struct GeneratedValidator: Sendable {
    /// The file's text.
    public let source: String
    /// How many independent entry points it carries.
    public let entryPoints: Int
    /// For each entry point, the variant of each primitive family it carries (``PrimitiveCatalog``): what the tests
    /// read to know which implementations a list of seeds exercises.
    let primitiveVariants: [[String: Int]]
}
