/// Generates receipt validators unique to one app and one seed.
///
/// ```swift
/// let options = CodegenOptions(bundleIdentifier: "com.example.app", appVersion: "1.2", seed: seed)
/// try ReceiptCodegenerator.generate(options).source.write(toFile: "ReceiptCheck.swift", atomically: true, encoding: .utf8)
/// ```
public enum ReceiptCodegenerator {
    /// The Swift source of a validator for `options`.
    /// - Throws: ``CodegenError`` with ``CodegenError/Code/invalidOption`` when an option is out of range.
    public static func generate(_ options: CodegenOptions) throws(CodegenError) -> GeneratedValidator {
        try self.check(options)
        return try ValidatorWriter(options: options).write(harness: false)
    }

    /// The source of a validator for `options` with the Linux glue of the test harness
    /// (`receiptHarnessVerdicts(_:_:_:)`), as ``HarnessPackage`` writes it.
    public static func generateForHarness(_ options: CodegenOptions) throws(CodegenError) -> GeneratedValidator {
        try self.check(options)
        return try ValidatorWriter(options: options).write(harness: true)
    }

    static func check(_ options: CodegenOptions) throws(CodegenError) {
        guard !options.bundleIdentifier.isEmpty else { throw CodegenError(.invalidOption, "the bundle identifier is empty") }
        guard !options.appVersion.isEmpty else { throw CodegenError(.invalidOption, "the app version is empty") }
        guard (1...8).contains(options.entryPoints) else {
            throw CodegenError(.invalidOption, "entry points must be 1 to 8, not \(options.entryPoints)")
        }
        guard options.seed.count >= 8 else { throw CodegenError(.invalidOption, "the seed must have at least 8 bytes") }
        guard options.rootFingerprint.count == 32, options.xcodeFingerprint.count == 32 else {
            throw CodegenError(.invalidOption, "certificate fingerprints must be SHA-256 digests (32 bytes)")
        }
        let name = options.functionName
        guard let first = name.unicodeScalars.first, first.properties.isXIDStart || first == "_",
            name.unicodeScalars.allSatisfy({ $0.properties.isXIDContinue })
        else { throw CodegenError(.invalidOption, "'\(name)' is not a Swift identifier") }
    }
}
