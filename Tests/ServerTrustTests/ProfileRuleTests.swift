import Crypto
import Foundation
import ServerTrust
import SwiftASN1
import TLSTestSupport
import Testing
import X509

/// One test per profile rule, with certificates built in the test (no dates that rot) and the exact reasons each
/// profile gives. Every chain starts Web PKI–conformant (`conformingChainIsTrustedUnderBothProfiles`) and breaks
/// one rule.
struct ProfileRuleTests {
    typealias Spec = ProfileTestPKI.Spec
    typealias Edit = @Sendable (inout Spec) throws -> Void

    static let host = ServerIdentity.host("api.example.test")

    /// Root → intermediate → leaf (or root → leaf when `intermediate` is nil), each spec edited, evaluated for
    /// `identity` under `profile`.
    func failures(
        _ profile: ServerTrustProfile = .webPKI,
        identity: ServerIdentity = Self.host,
        root: Edit = { _ in },
        intermediate: Edit? = { _ in },
        leaf: Edit = { _ in }
    ) async throws -> [ServerTrustFailure] {
        let rootKey = P256.Signing.PrivateKey()
        var rootSpec = try ProfileTestPKI.rootSpec(rootKey)
        try root(&rootSpec)
        let issuedRoot = try ProfileTestPKI.issue(rootSpec, key: rootKey, issuer: nil)
        var issuer = issuedRoot
        var chain: [Certificate] = []
        if let intermediate {
            let key = P256.Signing.PrivateKey()
            var spec = try ProfileTestPKI.intermediateSpec(key, issuer: issuedRoot)
            try intermediate(&spec)
            issuer = try ProfileTestPKI.issue(spec, key: key, issuer: issuedRoot)
            chain.append(issuer.certificate)
        }
        let leafKey = P256.Signing.PrivateKey()
        var leafSpec = try ProfileTestPKI.leafSpec(leafKey, issuer: issuer)
        try leaf(&leafSpec)
        chain.insert(try ProfileTestPKI.issue(leafSpec, key: leafKey, issuer: issuer).certificate, at: 0)
        return await Self.evaluate(chain, anchors: [issuedRoot.certificate], profile, identity)
    }

    static func evaluate(
        _ chain: [Certificate],
        anchors: [Certificate],
        _ profile: ServerTrustProfile,
        _ identity: ServerIdentity = Self.host
    ) async -> [ServerTrustFailure] {
        let evaluator = ServerTrustEvaluator(policies: ServerTrustPolicies(.default(profile: profile)), anchors: anchors)
        return await evaluator.evaluate(chain: chain, for: identity, at: TLSTestPKI.now).failures
    }

    static func ext<T>(_ value: T, critical: Bool = false) throws -> Certificate.Extension
    where T: CertificateExtensionConvertible {
        try value.makeCertificateExtension().withCriticality(critical)
    }

    static func raw(_ oid: ASN1ObjectIdentifier, _ value: [UInt8], critical: Bool = false) -> Certificate.Extension {
        Certificate.Extension(oid: oid, critical: critical, value: value[...])
    }

    static let profiles: [ServerTrustProfile] = [.webPKI, .rfc5280]

    // MARK: the baseline

    @Test(arguments: Self.profiles)
    func conformingChainIsTrustedUnderBothProfiles(profile: ServerTrustProfile) async throws {
        let withIntermediate = try await failures(profile)
        #expect(withIntermediate == [])
        let direct = try await failures(profile, intermediate: nil)
        #expect(direct == [])
    }

    @Test func profilesParseFromTheirNames() {
        #expect(ServerTrustProfile("webpki") == .webPKI)
        #expect(ServerTrustProfile("RFC5280") == .rfc5280)
        #expect(ServerTrustProfile("strict") == nil)
        #expect(ServerTrustPolicy.default.profile == .webPKI)
    }

    // MARK: serial numbers

    @Test(arguments: Self.profiles)
    func serialNumbersArePositiveNonZeroAndAtMostTwentyOctets(profile: ServerTrustProfile) async throws {
        let zero = try await failures(profile, leaf: { $0.serial = [0x00] })
        #expect(zero == [.invalidSerialNumber])
        // A negative serial number never gets this far: swift-certificates refuses to parse the certificate (the
        // CLI's exit 65), and a certificate built by other means is caught by the same rule.
        let negative = await #expect(throws: ASN1Error.self) {
            _ = try await failures(profile, leaf: { $0.serial = [0x80, 0x01, 0x02] })
        }
        #expect(negative?.code == .invalidASN1IntegerEncoding)
        let long = try await failures(profile, intermediate: { $0.serial = Array(repeating: 0x5A, count: 21) })
        #expect(long == [.invalidSerialNumber])
        let twenty = try await failures(profile, leaf: { $0.serial = Array(repeating: 0x7F, count: 20) })
        #expect(twenty == [])
        let twentyWithSignOctet = try await failures(profile, leaf: { $0.serial = [0x00] + Array(repeating: 0xFF, count: 20) })
        #expect(twentyWithSignOctet == [])
    }

    // MARK: malformed and unknown extensions

    @Test(arguments: Self.profiles)
    func malformedExtensionsAreRejectedNotSkipped(profile: ServerTrustProfile) async throws {
        let aia = try await failures(profile, leaf: { $0.set(Self.raw(.X509ExtensionID.authorityInformationAccess, Array("malformed".utf8))) })
        #expect(aia == [.malformedExtension])
        let emptyAIA = try await failures(profile, leaf: { $0.set(Self.raw(.X509ExtensionID.authorityInformationAccess, [0x30, 0x00])) })
        #expect(emptyAIA == [.malformedExtension])
        let keyUsage = try await failures(profile, intermediate: { $0.set(Self.raw(.X509ExtensionID.keyUsage, [0x05, 0x00], critical: true)) })
        #expect(keyUsage == [.malformedExtension])
        // A SAN that does not decode names nothing either.
        let san = try await failures(profile, leaf: { $0.set(Self.raw(.X509ExtensionID.subjectAlternativeName, Array("api.example.test".utf8))) })
        #expect(san == [.malformedExtension, .hostnameMismatch])
        let wellFormedAIA = try await failures(profile, leaf: {
            $0.set(try Self.ext(AuthorityInformationAccess([.init(method: .issuingCA, location: .uniformResourceIdentifier("http://ca.example.test/i.der"))])))
        })
        #expect(wellFormedAIA == [])
    }

    @Test(arguments: Self.profiles)
    func unknownCriticalExtensionsAreNamed(profile: ServerTrustProfile) async throws {
        let unknown = Self.raw(try ASN1ObjectIdentifier(elements: [1, 3, 6, 1, 4, 1, 55738, 666, 1]), [0x05, 0x00], critical: true)
        let inLeaf = try await failures(profile, leaf: { $0.set(unknown) })
        #expect(inLeaf == [.unknownCriticalExtension])
        let inIntermediate = try await failures(profile, intermediate: { $0.set(unknown) })
        #expect(inIntermediate == [.unknownCriticalExtension])
        let nonCritical = try await failures(profile, leaf: { $0.set(Self.raw(unknown.oid, [0x05, 0x00])) })
        #expect(nonCritical == [])
    }

    // MARK: criticality

    @Test(arguments: Self.profiles)
    func identifierAndAccessExtensionsAreNeverCritical(profile: ServerTrustProfile) async throws {
        let aki = try await failures(profile, leaf: { spec in
            let value = try #require(spec.extensions.first { $0.oid == .X509ExtensionID.authorityKeyIdentifier })
            spec.set(value.withCriticality(true))
        })
        #expect(aki == [.extensionCriticality])
        let ski = try await failures(profile, root: { spec in
            let value = try #require(spec.extensions.first { $0.oid == .X509ExtensionID.subjectKeyIdentifier })
            spec.set(value.withCriticality(true))
        })
        #expect(ski == [.extensionCriticality])
    }

    @Test func aCriticalSubjectAltNameUnderANonEmptySubjectIsRejectedByTheWebPKIOnly() async throws {
        let critical: Edit = { spec in
            spec.set(try Self.ext(SubjectAlternativeNames([.dnsName("api.example.test")]), critical: true))
        }
        let web = try await failures(.webPKI, leaf: critical)
        #expect(web == [.extensionCriticality])
        let loose = try await failures(.rfc5280, leaf: critical)
        #expect(loose == [])
    }

    @Test(arguments: Self.profiles)
    func anEmptySubjectNeedsACriticalSubjectAltName(profile: ServerTrustProfile) async throws {
        let nonCritical = try await failures(profile, leaf: { $0.subject = DistinguishedName() })
        #expect(nonCritical == [.extensionCriticality])
        let critical = try await failures(profile, leaf: { spec in
            spec.subject = DistinguishedName()
            spec.set(try Self.ext(SubjectAlternativeNames([.dnsName("api.example.test")]), critical: true))
        })
        #expect(critical == [])
        let none = try await failures(profile, identity: .host("api.example.test"), leaf: { spec in
            spec.subject = DistinguishedName()
            spec.remove(.X509ExtensionID.subjectAlternativeName)
        })
        #expect(none == [.invalidName, .hostnameMismatch])
    }

    // MARK: names

    @Test(arguments: Self.profiles)
    func anEndEntityWithAnEmptyIssuerNameIsRejected(profile: ServerTrustProfile) async throws {
        let emptyIssuer: Edit = { $0.issuerName = DistinguishedName() }
        // Signed by the root or by the intermediate, but naming no issuer: none can be found by that name.
        let direct = try await failures(profile, intermediate: nil, leaf: emptyIssuer)
        #expect(direct == [.invalidName])
        let belowIntermediate = try await failures(profile, leaf: emptyIssuer)
        #expect(belowIntermediate == [.invalidName])
        // Pinned, and so trusted as itself without any issuer: still refused.
        let key = P256.Signing.PrivateKey()
        let root = try ProfileTestPKI.issue({ try ProfileTestPKI.rootSpec($0) }, issuer: nil)
        var spec = try ProfileTestPKI.leafSpec(key, issuer: root)
        try emptyIssuer(&spec)
        let leaf = try ProfileTestPKI.issue(spec, key: key, issuer: root).certificate
        let policy = try ServerTrustPolicy(mode: .certificate, pinnedCertificates: [leaf], requiresBackupPin: false, profile: profile)
        let pinned = await ServerTrustEvaluator(policies: ServerTrustPolicies(policy)).evaluate(chain: [leaf], for: Self.host, at: TLSTestPKI.now)
        #expect(pinned.failures == [.invalidName])
    }

    @Test(arguments: Self.profiles)
    func emptyCASubjectsAreRejected(profile: ServerTrustProfile) async throws {
        // A root with an empty subject (and so an empty issuer in what it signs).
        let emptyCA = try await failures(profile, root: { $0.subject = DistinguishedName() }, intermediate: nil)
        #expect(emptyCA == [.invalidName])
    }

    // MARK: key identifiers

    @Test(arguments: Self.profiles)
    func leavesAndIntermediatesNameTheirIssuersKey(profile: ServerTrustProfile) async throws {
        let leaf = try await failures(profile, leaf: { $0.remove(.X509ExtensionID.authorityKeyIdentifier) })
        #expect(leaf == [.keyIdentifier])
        let intermediate = try await failures(profile, intermediate: { $0.remove(.X509ExtensionID.authorityKeyIdentifier) })
        #expect(intermediate == [.keyIdentifier])
        let noKeyIdentifier = try await failures(profile, leaf: {
            $0.set(try Self.ext(AuthorityKeyIdentifier(authorityCertSerialNumber: Certificate.SerialNumber(bytes: [0x01]))))
        })
        #expect(noKeyIdentifier == [.keyIdentifier])
        // A self-signed root may omit it.
        let root = try await failures(profile, root: { $0.remove(.X509ExtensionID.authorityKeyIdentifier) })
        #expect(root == [])
    }

    @Test(arguments: Self.profiles)
    func everyCertificateThatIsNotSelfSignedCarriesAnAuthorityKeyIdentifier(profile: ServerTrustProfile) async throws {
        // Root B, cross-signed by Root A: the same name and key as Root B, issued by A (no AKI, as a root has none).
        let rootAKey = P256.Signing.PrivateKey()
        let rootA = try ProfileTestPKI.issue(try ProfileTestPKI.rootSpec(rootAKey, name: "Root A"), key: rootAKey, issuer: nil)
        let rootBKey = P256.Signing.PrivateKey()
        let rootBSpec = try ProfileTestPKI.rootSpec(rootBKey, name: "Root B")
        let rootB = try ProfileTestPKI.issue(rootBSpec, key: rootBKey, issuer: nil)
        let cross = try ProfileTestPKI.issue(rootBSpec, key: rootBKey, issuer: rootA)
        var identifiedSpec = rootBSpec
        identifiedSpec.set(try Self.ext(AuthorityKeyIdentifier(keyIdentifier: ProfileTestPKI.identifier(rootAKey))))
        let identifiedCross = try ProfileTestPKI.issue(identifiedSpec, key: rootBKey, issuer: rootA)
        let intermediate = try ProfileTestPKI.issue({ try ProfileTestPKI.intermediateSpec($0, issuer: rootB) }, issuer: rootB)
        let leaf = try ProfileTestPKI.issue({ try ProfileTestPKI.leafSpec($0, issuer: intermediate) }, issuer: intermediate)

        // The cross-signed root used as an intermediate, up to Root A.
        let asIntermediate = await Self.evaluate([leaf.certificate, intermediate.certificate, cross.certificate], anchors: [rootA.certificate], profile)
        #expect(asIntermediate == [.keyIdentifier])
        // The cross-signed root trusted as the anchor is still not self-signed.
        let asAnchor = await Self.evaluate([leaf.certificate, intermediate.certificate], anchors: [cross.certificate], profile)
        #expect(asAnchor == [.keyIdentifier])
        let identifiedUpToRootA = await Self.evaluate(
            [leaf.certificate, intermediate.certificate, identifiedCross.certificate],
            anchors: [rootA.certificate],
            profile
        )
        #expect(identifiedUpToRootA == [])
        let identifiedAsAnchor = await Self.evaluate([leaf.certificate, intermediate.certificate], anchors: [identifiedCross.certificate], profile)
        #expect(identifiedAsAnchor == [])
        // Root B itself is self-signed: it may omit the AKI.
        let selfSigned = await Self.evaluate([leaf.certificate, intermediate.certificate], anchors: [rootB.certificate], profile)
        #expect(selfSigned == [])
    }

    @Test(arguments: Self.profiles)
    func everyCACarriesASubjectKeyIdentifier(profile: ServerTrustProfile) async throws {
        let intermediate = try await failures(profile, intermediate: { $0.remove(.X509ExtensionID.subjectKeyIdentifier) })
        #expect(intermediate == [.keyIdentifier])
        let root = try await failures(profile, root: { $0.remove(.X509ExtensionID.subjectKeyIdentifier) })
        #expect(root == [.keyIdentifier])
    }

    @Test func anAnchorsAuthorityKeyIdentifierIsItsOwnKeyIdentifierUnderTheWebPKI() async throws {
        let withIssuer: Edit = { spec in
            let own = try #require(spec.extensions.first { $0.oid == .X509ExtensionID.subjectKeyIdentifier })
            let identifier = try SubjectKeyIdentifier(own).keyIdentifier
            spec.set(try Self.ext(AuthorityKeyIdentifier(
                keyIdentifier: identifier,
                authorityCertIssuer: [.directoryName(try ProfileTestPKI.name("myCN"))],
                authorityCertSerialNumber: Certificate.SerialNumber(bytes: [0x04, 0xD2])
            )))
        }
        let mismatched: Edit = { spec in
            spec.set(try Self.ext(AuthorityKeyIdentifier(keyIdentifier: ProfileTestPKI.identifier(P256.Signing.PrivateKey()))))
        }
        let missing: Edit = { spec in
            spec.set(try Self.ext(AuthorityKeyIdentifier()))
        }
        let matching: Edit = { spec in
            let own = try #require(spec.extensions.first { $0.oid == .X509ExtensionID.subjectKeyIdentifier })
            spec.set(try Self.ext(AuthorityKeyIdentifier(keyIdentifier: try SubjectKeyIdentifier(own).keyIdentifier)))
        }
        for edit in [withIssuer, mismatched, missing] {
            let web = try await failures(.webPKI, root: edit, intermediate: nil)
            #expect(web == [.keyIdentifier])
            let loose = try await failures(.rfc5280, root: edit, intermediate: nil)
            #expect(loose == [])
        }
        let same = try await failures(.webPKI, root: matching, intermediate: nil)
        #expect(same == [])
    }

    // MARK: basic constraints and key usage

    @Test(arguments: Self.profiles)
    func issuersAreVersion3CAsThatMaySignCertificates(profile: ServerTrustProfile) async throws {
        let notCA = try await failures(profile, intermediate: { $0.set(try Self.ext(BasicConstraints.notCertificateAuthority, critical: true)) })
        #expect(notCA == [.caConstraints])
        let noBasicConstraints = try await failures(profile, intermediate: { $0.remove(.X509ExtensionID.basicConstraints) })
        #expect(noBasicConstraints == [.caConstraints])
        let noKeyCertSign = try await failures(profile, intermediate: { $0.set(try Self.ext(KeyUsage(cRLSign: true), critical: true)) })
        #expect(noKeyCertSign == [.caConstraints])
        let rootNonCritical = try await failures(profile, root: {
            $0.set(try Self.ext(BasicConstraints.isCertificateAuthority(maxPathLength: nil), critical: false))
        })
        #expect(rootNonCritical == [.caConstraints])
        let rootWithoutKeyCertSign = try await failures(profile, root: { $0.set(try Self.ext(KeyUsage(digitalSignature: true), critical: true)) })
        #expect(rootWithoutKeyCertSign == [.caConstraints])
        let version1Intermediate = try await failures(profile, intermediate: { spec in
            spec.version = .v1
            spec.extensions = []
        })
        // A version-1 certificate has no extensions, so no authorityKeyIdentifier either.
        #expect(version1Intermediate == [.keyIdentifier, .caConstraints])
    }

    @Test func aVersion1AnchorIssuesOnlyUnderRFC5280() async throws {
        let v1: Edit = { spec in
            spec.version = .v1
            spec.extensions = []
        }
        let web = try await failures(.webPKI, root: v1, intermediate: nil)
        #expect(web == [.caConstraints])
        let loose = try await failures(.rfc5280, root: v1, intermediate: nil)
        #expect(loose == [])
    }

    @Test(arguments: Self.profiles)
    func keyCertSignRequiresCA(profile: ServerTrustProfile) async throws {
        let leaf = try await failures(profile, leaf: { spec in
            spec.set(try Self.ext(BasicConstraints.notCertificateAuthority, critical: true))
            spec.set(try Self.ext(KeyUsage(digitalSignature: true, keyCertSign: true), critical: true))
        })
        #expect(leaf == [.caConstraints])
    }

    @Test func aCALeafIsRejectedByTheWebPKIOnly() async throws {
        let caLeaf: Edit = { spec in
            spec.set(try Self.ext(BasicConstraints.isCertificateAuthority(maxPathLength: nil), critical: true))
        }
        let web = try await failures(.webPKI, leaf: caLeaf)
        #expect(web == [.caConstraints])
        let loose = try await failures(.rfc5280, leaf: caLeaf)
        #expect(loose == [])
    }

    @Test(arguments: Self.profiles)
    func aPathLengthConstraintInACertificateThatIsNotACAIsIgnored(profile: ServerTrustProfile) async throws {
        // BasicConstraints ::= SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLenConstraint INTEGER (0..MAX) OPTIONAL }:
        // cA absent (false), pathLenConstraint 0. swift-certificates refuses to decode it.
        let notCAWithLength = Self.raw(.X509ExtensionID.basicConstraints, [0x30, 0x03, 0x02, 0x01, 0x00], critical: true)
        let leaf = try await failures(profile, leaf: { $0.set(notCAWithLength) })
        #expect(leaf == [])
        // Read as not a CA: an intermediate that says so still may not issue.
        let intermediate = try await failures(profile, intermediate: { $0.set(notCAWithLength) })
        #expect(intermediate == [.caConstraints])
        // A negative length is no INTEGER (0..MAX): the extension is still malformed.
        let negative = try await failures(profile, leaf: {
            $0.set(Self.raw(.X509ExtensionID.basicConstraints, [0x30, 0x03, 0x02, 0x01, 0xFF], critical: true))
        })
        #expect(negative == [.malformedExtension])
    }

    @Test(arguments: Self.profiles)
    func pathLengthConstraintsCountNonSelfIssuedIntermediates(profile: ServerTrustProfile) async throws {
        let rootKey = P256.Signing.PrivateKey()
        let root = try ProfileTestPKI.issue(try ProfileTestPKI.rootSpec(rootKey), key: rootKey, issuer: nil)
        let firstKey = P256.Signing.PrivateKey()
        let first = try ProfileTestPKI.issue(
            try ProfileTestPKI.intermediateSpec(firstKey, issuer: root, name: "First", pathLength: 0),
            key: firstKey,
            issuer: root
        )
        let secondKey = P256.Signing.PrivateKey()
        let second = try ProfileTestPKI.issue(
            try ProfileTestPKI.intermediateSpec(secondKey, issuer: first, name: "Second"),
            key: secondKey,
            issuer: first
        )
        let leafKey = P256.Signing.PrivateKey()
        let leaf = try ProfileTestPKI.issue(try ProfileTestPKI.leafSpec(leafKey, issuer: second), key: leafKey, issuer: second)
        let tooDeep = await Self.evaluate([leaf.certificate, second.certificate, first.certificate], anchors: [root.certificate], profile)
        #expect(tooDeep == [.pathLength])
        let directLeaf = try ProfileTestPKI.issue(try ProfileTestPKI.leafSpec(leafKey, issuer: first), key: leafKey, issuer: first)
        let fits = await Self.evaluate([directLeaf.certificate, first.certificate], anchors: [root.certificate], profile)
        #expect(fits == [])
    }

    // MARK: extended key usage

    @Test func theWebPKIRequiresServerAuthInTheLeaf() async throws {
        let missing = try await failures(.webPKI, leaf: { $0.remove(.X509ExtensionID.extendedKeyUsage) })
        #expect(missing == [.extendedKeyUsage])
        for profile in Self.profiles {
            let client = try await failures(profile, leaf: { $0.set(try Self.ext(ExtendedKeyUsage([.clientAuth]))) })
            #expect(client == [.extendedKeyUsage])
            let more = try await failures(profile, leaf: { $0.set(try Self.ext(ExtendedKeyUsage([.serverAuth, .clientAuth]))) })
            #expect(more == [])
        }
    }

    @Test func anEndEntityWhoseOnlyUsageIsAnyExtendedKeyUsageIsRejectedByTheWebPKI() async throws {
        let anyOnly: Edit = { $0.set(try Self.ext(ExtendedKeyUsage([.any]))) }
        let web = try await failures(.webPKI, leaf: anyOnly)
        #expect(web == [.extendedKeyUsage])
        let direct = try await failures(.webPKI, intermediate: nil, leaf: anyOnly)
        #expect(direct == [.extendedKeyUsage])
        let loose = try await failures(.rfc5280, leaf: anyOnly)
        #expect(loose == [])
    }

    /// CA/Browser Forum BRs §7.1.2.7.10 forbid anyExtendedKeyUsage in a subscriber certificate, beside serverAuth
    /// too; RFC 5280 §4.2.1.12 allows it. Both orders of the two usages, as they are written in the extension.
    @Test(arguments: [[ExtendedKeyUsage.Usage.serverAuth, .any], [.any, .serverAuth]])
    func anEndEntityWithAnyExtendedKeyUsageBesideServerAuthIsRejectedByTheWebPKI(
        usages: [ExtendedKeyUsage.Usage]
    ) async throws {
        let both: Edit = { $0.set(try Self.ext(ExtendedKeyUsage(usages))) }
        let web = try await failures(.webPKI, leaf: both)
        #expect(web == [.extendedKeyUsage])
        let direct = try await failures(.webPKI, intermediate: nil, leaf: both)
        #expect(direct == [.extendedKeyUsage])
        let loose = try await failures(.rfc5280, leaf: both)
        #expect(loose == [])
        let looseDirect = try await failures(.rfc5280, intermediate: nil, leaf: both)
        #expect(looseDirect == [])
        // The rule is the end-entity's: an intermediate asserting both is no subscriber certificate.
        let intermediate = try await failures(.webPKI, intermediate: both)
        #expect(intermediate == [])
    }

    @Test func anEndEntityWithoutExtendedKeyUsageIsAcceptedByRFC5280() async throws {
        let missing: Edit = { $0.remove(.X509ExtensionID.extendedKeyUsage) }
        let loose = try await failures(.rfc5280, leaf: missing)
        #expect(loose == [])
        let direct = try await failures(.rfc5280, intermediate: nil, leaf: missing)
        #expect(direct == [])
        let web = try await failures(.webPKI, leaf: missing)
        #expect(web == [.extendedKeyUsage])
    }

    @Test func aCriticalExtendedKeyUsageInAnEndEntityIsRejectedByTheWebPKI() async throws {
        let critical: Edit = { $0.set(try Self.ext(ExtendedKeyUsage([.serverAuth]), critical: true)) }
        let web = try await failures(.webPKI, leaf: critical)
        #expect(web == [.extensionCriticality])
        let loose = try await failures(.rfc5280, leaf: critical)
        #expect(loose == [])
        // The rule is the end-entity's: an intermediate's critical EKU is not refused by it.
        let intermediate = try await failures(.webPKI, intermediate: critical)
        #expect(intermediate == [])
    }

    @Test func aCAThatAssertsUsagesMustIncludeServerAuthUnderTheWebPKI() async throws {
        let clientOnly: Edit = { $0.set(try Self.ext(ExtendedKeyUsage([.clientAuth]))) }
        let intermediate = try await failures(.webPKI, intermediate: clientOnly)
        #expect(intermediate == [.extendedKeyUsage])
        let loose = try await failures(.rfc5280, intermediate: clientOnly)
        #expect(loose == [])
        let serverAuth = try await failures(.webPKI, intermediate: { $0.set(try Self.ext(ExtendedKeyUsage([.serverAuth]))) })
        #expect(serverAuth == [])
    }

    @Test func aTrustAnchorThatCarriesExtendedKeyUsageIsRejectedByTheWebPKI() async throws {
        for usage in [try ExtendedKeyUsage([.serverAuth]), try ExtendedKeyUsage([.clientAuth])] {
            let withUsage: Edit = { $0.set(try Self.ext(usage)) }
            let web = try await failures(.webPKI, root: withUsage)
            #expect(web == [.extendedKeyUsage])
            let direct = try await failures(.webPKI, root: withUsage, intermediate: nil)
            #expect(direct == [.extendedKeyUsage])
        }
        let loose = try await failures(.rfc5280, root: { $0.set(try Self.ext(ExtendedKeyUsage([.serverAuth]))) })
        #expect(loose == [])
        // An intermediate trusted as the anchor (configured, or a pinned certificate) is no root: the Baseline
        // Requirements want serverAuth in a TLS subordinate CA, so its EKU is not refused.
        let root = try ProfileTestPKI.issue({ try ProfileTestPKI.rootSpec($0) }, issuer: nil)
        let intermediate = try ProfileTestPKI.issue(
            { key in
                var spec = try ProfileTestPKI.intermediateSpec(key, issuer: root)
                spec.set(try Self.ext(ExtendedKeyUsage([.serverAuth])))
                return spec
            },
            issuer: root
        )
        let leaf = try ProfileTestPKI.issue({ try ProfileTestPKI.leafSpec($0, issuer: intermediate) }, issuer: intermediate)
        let anchoredAtIntermediate = await Self.evaluate([leaf.certificate], anchors: [intermediate.certificate], .webPKI)
        #expect(anchoredAtIntermediate == [])
    }

    // MARK: version

    @Test func theWebPKIRequiresAVersion3Leaf() async throws {
        let v1: Edit = { spec in
            spec.version = .v1
            spec.extensions = []
        }
        let web = try await failures(.webPKI, leaf: v1)
        #expect(web == [.keyIdentifier, .certificateVersion, .extendedKeyUsage, .hostnameMismatch])
    }
}
