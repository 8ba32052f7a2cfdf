import Crypto
import Foundation
import ServerTrust
import SwiftASN1
import Testing
import X509

/// `receiptkit trust`: stdout, stderr and exit status, with certificates generated here.
@Suite(.serialized)
struct TrustCLITests {
    struct Files {
        var root: String
        var chain: String
        var looseChain: String
        var attack: String
        var leafPin: String
        var rootPin: String
    }

    static let files: Result<Files, any Error> = Result {
        let directory = CLITests.scratch.appendingPathComponent("trust")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let rootKey = P256.Signing.PrivateKey()
        let leafKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName { CommonName("CLI Test Root") }
        let root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey),
            notValidBefore: Date(timeIntervalSince1970: 1_577_836_800), notValidAfter: Date(timeIntervalSince1970: 1_893_456_000),
            issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
                SubjectKeyIdentifier(hash: Certificate.PublicKey(rootKey.publicKey))
            },
            issuerPrivateKey: .init(rootKey)
        )
        let rootIdentifier = try root.extensions.subjectKeyIdentifier?.keyIdentifier
        // Web PKI–conformant with serverAuth; without it, as a private PKI might issue the same leaf.
        func makeLeaf(serverAuth: Bool) throws -> Certificate {
            try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey),
                notValidBefore: Date(timeIntervalSince1970: 1_577_836_800), notValidAfter: Date(timeIntervalSince1970: 1_893_456_000),
                issuer: rootName, subject: try DistinguishedName { CommonName("cli.example.test") },
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    SubjectAlternativeNames([.dnsName("cli.example.test")])
                    AuthorityKeyIdentifier(keyIdentifier: rootIdentifier)
                    if serverAuth { try ExtendedKeyUsage([.serverAuth]) }
                },
                issuerPrivateKey: .init(rootKey)
            )
        }
        let leaf = try makeLeaf(serverAuth: true)
        let looseLeaf = try makeLeaf(serverAuth: false)
        let looseChainPath = directory.appendingPathComponent("loose-chain.pem")
        try Data(try looseLeaf.serializeAsPEM().pemString.utf8).write(to: looseChainPath)
        let rootPath = directory.appendingPathComponent("root.pem")
        let chainPath = directory.appendingPathComponent("chain.pem")
        try Data(try root.serializeAsPEM().pemString.utf8).write(to: rootPath)
        try Data(try leaf.serializeAsPEM().pemString.utf8).write(to: chainPath)
        // An attacker's self-signed leaf for the same host, followed by the genuine root (the pinned key).
        let forgedKey = P256.Signing.PrivateKey()
        let forgedName = try DistinguishedName { CommonName("cli.example.test") }
        let forged = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(forgedKey.publicKey),
            notValidBefore: Date(timeIntervalSince1970: 1_577_836_800), notValidAfter: Date(timeIntervalSince1970: 1_893_456_000),
            issuer: forgedName, subject: forgedName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions { SubjectAlternativeNames([.dnsName("cli.example.test")]) },
            issuerPrivateKey: .init(forgedKey)
        )
        let attackPath = directory.appendingPathComponent("attack.pem")
        try Data((try forged.serializeAsPEM().pemString + "\n" + root.serializeAsPEM().pemString).utf8).write(to: attackPath)
        return Files(
            root: rootPath.path,
            chain: chainPath.path,
            looseChain: looseChainPath.path,
            attack: attackPath.path,
            leafPin: PublicKeyPin(publicKeyOf: leaf)?.description ?? "",
            rootPin: PublicKeyPin(publicKeyOf: root)?.description ?? ""
        )
    }

    let at = "2025-06-15T00:00:00Z"

    @Test func trustedChainExitsZeroAndListsThePath() async throws {
        let f = try Self.files.get()
        let output = try await CLIRunner.run(["trust", "evaluate", "--chain", f.chain, "--anchor", f.root, "--host", "cli.example.test", "--at", at])
        #expect(output.status == 0)
        #expect(output.stdout == "TRUSTED\n  CN=cli.example.test\n  CN=CLI Test Root\n")
    }

    @Test func failuresExitOneWithReasons() async throws {
        let f = try Self.files.get()
        let wrongHost = try await CLIRunner.run(["trust", "evaluate", "--chain", f.chain, "--anchor", f.root, "--host", "evil.test", "--at", at])
        #expect(wrongHost.status == 1)
        #expect(wrongHost.stdout == "NOT TRUSTED: hostname_mismatch\n")
        let late = try await CLIRunner.run(["trust", "evaluate", "--chain", f.chain, "--anchor", f.root, "--host", "cli.example.test", "--at", "2031-01-01T00:00:00Z"])
        #expect(late.stdout == "NOT TRUSTED: expired\n")
        let noAnchor = try await CLIRunner.run(["trust", "evaluate", "--chain", f.chain, "--host", "cli.example.test", "--at", at])
        #expect(noAnchor.stdout == "NOT TRUSTED: chain_untrusted\n")
    }

    @Test func jsonHasTheDocumentedShape() async throws {
        let f = try Self.files.get()
        let output = try await CLIRunner.run([
            "trust", "evaluate", "--json", "--chain", f.chain, "--anchor", f.root, "--host", "cli.example.test",
            "--at", at, "--mode", "public-key", "--pin", f.rootPin,
        ])
        #expect(output.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(object["trusted"] as? Bool == true)
        #expect(object["reasons"] as? [String] == [])
        #expect(object["chain"] as? [String] == ["CN=cli.example.test", "CN=CLI Test Root"])
    }

    @Test func pinningFromTheCommandLine() async throws {
        let f = try Self.files.get()
        let wrongPin = try await CLIRunner.run([
            "trust", "evaluate", "--chain", f.chain, "--anchor", f.root, "--host", "cli.example.test", "--at", at,
            "--mode", "public-key", "--pin", "sha256/" + Data(repeating: 7, count: 32).base64EncodedString(),
        ])
        #expect(wrongPin.stdout == "NOT TRUSTED: pin_mismatch\n")
        let pinnedLeaf = try await CLIRunner.run([
            "trust", "evaluate", "--chain", f.chain, "--host", "cli.example.test", "--at", at,
            "--mode", "certificate", "--pin-cert", f.chain,
        ])
        #expect(pinnedLeaf.status == 0)
    }

    @Test func allowInvalidDoesNotLetAForgedLeafBorrowAPin() async throws {
        let f = try Self.files.get()
        for pinning in [["--mode", "public-key", "--pin", f.rootPin], ["--mode", "certificate", "--pin-cert", f.root]] {
            let attack = try await CLIRunner.run(
                ["trust", "evaluate", "--chain", f.attack, "--anchor", f.root, "--host", "cli.example.test", "--at", at, "--allow-invalid"]
                    + pinning
            )
            #expect(attack.status == 1)
            #expect(attack.stdout == "NOT TRUSTED: pin_mismatch\n")
            let genuine = try await CLIRunner.run(
                [
                    "trust", "evaluate", "--chain", f.chain, "--anchor", f.root, "--host", "cli.example.test",
                    "--at", "2031-01-01T00:00:00Z", "--allow-invalid",
                ] + pinning
            )
            #expect(genuine.status == 0, "\(genuine.stdout)")
        }
    }

    @Test func theProfileIsAnOptionDefaultingToTheWebPKI() async throws {
        let f = try Self.files.get()
        let arguments = ["trust", "evaluate", "--chain", f.looseChain, "--anchor", f.root, "--host", "cli.example.test", "--at", at]
        let strict = try await CLIRunner.run(arguments)
        #expect(strict.status == 1)
        #expect(strict.stdout == "NOT TRUSTED: extended_key_usage\n")
        let explicit = try await CLIRunner.run(arguments + ["--profile", "webpki"])
        #expect(explicit.stdout == strict.stdout)
        let loose = try await CLIRunner.run(arguments + ["--profile", "rfc5280"])
        #expect(loose.status == 0)
        #expect(loose.stdout == "TRUSTED\n  CN=cli.example.test\n  CN=CLI Test Root\n")
        let unknown = try await CLIRunner.run(arguments + ["--profile", "browser"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("--profile takes webpki or rfc5280"))
    }

    @Test func pinPrintsWhatTheLibraryComputes() async throws {
        let f = try Self.files.get()
        let output = try await CLIRunner.run(["trust", "pin", f.chain, f.root])
        #expect(output.status == 0)
        #expect(output.stdout == "\(f.leafPin)  CN=cli.example.test\n\(f.rootPin)  CN=CLI Test Root\n")
    }

    @Test func badInputsGetTheirExitCodes() async throws {
        let f = try Self.files.get()
        let garbage = CLITests.scratch.appendingPathComponent("garbage.pem")
        try Data("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8).write(to: garbage)
        #expect(try await CLIRunner.run(["trust", "evaluate", "--chain", garbage.path, "--host", "x"]).status == 65)
        #expect(try await CLIRunner.run(["trust", "evaluate", "--chain", f.chain, "--mode", "public-key", "--pin", "sha256/bad", "--host", "x"]).status == 65)
        #expect(try await CLIRunner.run(["trust", "evaluate", "--chain", "/nonexistent.pem", "--host", "x"]).status == 66)
        #expect(try await CLIRunner.run(["trust", "evaluate", "--chain", f.chain, "--mode", "bogus"]).status == 64)
        #expect(try await CLIRunner.run(["trust", "evaluate", "--chain", f.chain, "--pin", f.rootPin]).status == 64)
    }
}
