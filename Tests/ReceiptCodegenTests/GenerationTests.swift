import Foundation
import ReceiptCodegen
import Testing

/// What a generation promises without compiling it: determinism, uniqueness, and no sensitive value in the text.
struct GenerationTests {
    static func options(seed: UInt8 = 1) -> CodegenOptions {
        var options = CodegenOptions(
            bundleIdentifier: "com.example.secretapp", appVersion: "4.2.1-build77",
            seed: [seed, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        options.requiredProducts = ["com.example.secretapp.lifetime"]
        return options
    }

    @Test func theSameSeedGivesTheSameFileAndAnotherSeedAnotherOne() throws {
        let first = try ReceiptCodegenerator.generate(Self.options()).source
        #expect(try ReceiptCodegenerator.generate(Self.options()).source == first)
        let other = try ReceiptCodegenerator.generate(Self.options(seed: 9)).source
        #expect(other != first)
        // Not only names: the files differ once every identifier is replaced by one placeholder.
        #expect(Self.shape(other) != Self.shape(first))
    }

    @Test func noSensitiveValueIsInTheText() throws {
        let source = try ReceiptCodegenerator.generate(Self.options()).source
        for secret in ["com.example.secretapp", "secretapp", "4.2.1-build77", "lifetime", "IOEthernetInterface", "IOMACAddress", "_MASReceipt"] {
            #expect(!source.contains(secret), "\(secret) is in the generated source")
        }
        // Apple's marker OID bytes and the root fingerprint never appear as a run of decimal literals either.
        for run in ["42, 134, 72, 134, 247, 99", "176, 177, 115, 14, 203, 199"] {
            #expect(!source.contains(run), "\(run) is in the generated source")
        }
        #expect(!source.contains("fatalError") && !source.contains("try!") && !source.contains("print("))
    }

    @Test func everyEntryPointIsInTheFile() throws {
        var options = Self.options()
        options.entryPoints = 5
        let generated = try ReceiptCodegenerator.generate(options)
        #expect(generated.entryPoints == 5)
        #expect(generated.source.components(separatedBy: "// MARK: - ").count == 6)
    }

    @Test(arguments: [
        "no entry point", "short seed", "not an identifier", "short root fingerprint", "short Xcode fingerprint",
        "empty bundle id", "empty version",
    ])
    func optionsOutOfRangeAreRefused(mistake: String) {
        var options = Self.options()
        switch mistake {
        case "no entry point": options.entryPoints = 0
        case "short seed": options.seed = [1, 2]
        case "not an identifier": options.functionName = "not a name"
        case "short root fingerprint": options.rootFingerprint = [0]
        case "short Xcode fingerprint": options.xcodeFingerprint = [0]
        case "empty bundle id": options.bundleIdentifier = ""
        default: options.appVersion = ""
        }
        let error = #expect(throws: CodegenError.self) { try ReceiptCodegenerator.generate(options) }
        #expect(error?.code == .invalidOption)
    }

    @Test func onlyTheChosenPlatformsGlueIsWritten() throws {
        var options = Self.options()
        let mac = try ReceiptCodegenerator.generate(options).source
        #expect(mac.contains("#if os(macOS)") && mac.contains("NSApplicationMain") && !mac.contains("UIDevice"))
        options.platform = .iOS
        let ios = try ReceiptCodegenerator.generate(options).source
        #expect(ios.contains("UIDevice") && ios.contains("SKReceiptRefreshRequest") && !ios.contains("IOServiceMatching"))
        options.onSuccess = .none
        options.platform = .macOS
        #expect(!(try ReceiptCodegenerator.generate(options).source.contains("NSApplicationMain")))
    }

    /// The text with every word-like token that is not a Swift keyword or standard name replaced by `_`.
    static func shape(_ source: String) -> String {
        var out = ""
        var word = ""
        func flush() {
            if !word.isEmpty { out += word.first?.isNumber == true ? "0" : (keywords.contains(word) ? word : "_") }
            word = ""
        }
        for character in source {
            if character.isLetter || character.isNumber || character == "_" { word.append(character) } else {
                flush()
                out.append(character)
            }
        }
        flush()
        return out
    }

    static let keywords: Set<String> = [
        "private", "func", "let", "var", "if", "else", "guard", "return", "for", "in", "while", "repeat", "switch", "case",
        "default", "where", "nil", "true", "false", "UInt8", "UInt32", "UInt64", "Int", "Int64", "Bool", "Array",
    ]
}
