import Crypto
import Foundation
import ServerTrust
import SwiftASN1
import TLSTestSupport
import Testing
import X509

/// Name constraints and host names under each profile, with certificates built in the test and exact reasons.
struct ProfileNameTests {
    typealias Edit = ProfileRuleTests.Edit
    let rules = ProfileRuleTests()

    static func constraints(_ value: NameConstraints, critical: Bool = true) -> Edit {
        { spec in spec.set(try ProfileRuleTests.ext(value, critical: critical)) }
    }

    static func ip(_ bytes: [UInt8]) -> ASN1OctetString { ASN1OctetString(contentBytes: bytes[...]) }

    // MARK: name constraints

    @Test(arguments: ProfileRuleTests.profiles)
    func dnsAndIPConstraintsApply(profile: ServerTrustProfile) async throws {
        let permitted = try await rules.failures(profile, root: Self.constraints(NameConstraints(permittedDNSDomains: ["example.test"])))
        #expect(permitted == [])
        let elsewhere = try await rules.failures(profile, root: Self.constraints(NameConstraints(permittedDNSDomains: ["other.test"])))
        #expect(elsewhere == [.nameConstraints])
        let excluded = try await rules.failures(profile, intermediate: Self.constraints(NameConstraints(excludedDNSDomains: ["api.example.test"])))
        #expect(excluded == [.nameConstraints])
        let ipOutside = try await rules.failures(profile, root: Self.constraints(NameConstraints(permittedIPRanges: [Self.ip([10, 0, 0, 0, 255, 0, 0, 0])])))
        #expect(ipOutside == [.nameConstraints])
        let ipInside = try await rules.failures(profile, root: Self.constraints(NameConstraints(permittedIPRanges: [Self.ip([127, 0, 0, 0, 255, 0, 0, 0])])))
        #expect(ipInside == [])
        // Another form's constraint leaves DNS names alone.
        let otherForm = try await rules.failures(profile, intermediate: Self.constraints(NameConstraints(excludedIPRanges: [Self.ip([10, 0, 0, 0, 255, 0, 0, 0])])))
        #expect(otherForm == [])
    }

    @Test(arguments: ProfileRuleTests.profiles)
    func directoryNameConstraintsApplyToTheSubject(profile: ServerTrustProfile) async throws {
        let subject = try ProfileTestPKI.name("api.example.test")
        let inside = try await rules.failures(profile, root: Self.constraints(NameConstraints(permittedSubtrees: [.directoryName(subject)])), intermediate: nil)
        #expect(inside == [])
        let other = try ProfileTestPKI.name("somewhere.else")
        let outside = try await rules.failures(profile, root: Self.constraints(NameConstraints(permittedSubtrees: [.directoryName(other)])), intermediate: nil)
        #expect(outside == [.nameConstraints])
        let excluded = try await rules.failures(profile, root: Self.constraints(NameConstraints(excludedSubtrees: [.directoryName(subject)])), intermediate: nil)
        #expect(excluded == [.nameConstraints])
    }

    @Test func aPermittedDirectoryNameSubtreeContainingTheSubjectIsAMatchUnderRFC5280() async throws {
        let organization = try DistinguishedName { OrganizationName("Example Corp") }
        let inOrganization: @Sendable (String) -> Edit = { common in
            { spec in spec.subject = try DistinguishedName { OrganizationName("Example Corp"); CommonName(common) } }
        }
        let permitted = Self.constraints(NameConstraints(permittedSubtrees: [.directoryName(organization)]))
        let withSAN = try await rules.failures(.rfc5280, root: permitted, intermediate: inOrganization("Issuing CA"), leaf: inOrganization("api.example.test"))
        #expect(withSAN == [])
        let commonNameOnly = try await rules.failures(.rfc5280, root: permitted, intermediate: inOrganization("Issuing CA"), leaf: { spec in
            try inOrganization("api.example.test")(&spec)
            spec.remove(.X509ExtensionID.subjectAlternativeName)
        })
        #expect(commonNameOnly == [])
        // RFC 5280 §7.1: the same name as a PrintableString, in another case and with other spaces, still contains it.
        let respelled = DistinguishedName([
            RelativeDistinguishedName(try .init(type: .RDNAttributeType.organizationName, printableString: " example   CORP"))
        ])
        let respelledPermitted = try await rules.failures(
            .rfc5280,
            root: Self.constraints(NameConstraints(permittedSubtrees: [.directoryName(respelled)])),
            intermediate: nil,
            leaf: inOrganization("api.example.test")
        )
        #expect(respelledPermitted == [])
        // And a respelling cannot slip a name past an excluded subtree.
        let respelledExcluded = try await rules.failures(
            .rfc5280,
            root: Self.constraints(NameConstraints(excludedSubtrees: [.directoryName(respelled)])),
            intermediate: nil,
            leaf: inOrganization("api.example.test")
        )
        #expect(respelledExcluded == [.nameConstraints])
        let elsewhere = try await rules.failures(.rfc5280, root: permitted, intermediate: nil, leaf: { spec in
            spec.subject = try DistinguishedName { OrganizationName("Other Corp"); CommonName("api.example.test") }
        })
        #expect(elsewhere == [.nameConstraints])
        // A SAN holding only the directoryName: no DNS-ID is presented, so the Common Name names the host
        // (RFC 6125 §6.4.4) — a match under RFC 5280, not hostname_mismatch; the Web PKI reads SAN DNS names only.
        let directoryOnly: @Sendable (String) -> Edit = { common in
            { spec in
                try inOrganization(common)(&spec)
                spec.set(try ProfileRuleTests.ext(SubjectAlternativeNames([.directoryName(spec.subject)])))
            }
        }
        let sanDirectoryOnly = try await rules.failures(.rfc5280, root: permitted, intermediate: nil, leaf: directoryOnly("api.example.test"))
        #expect(sanDirectoryOnly == [])
        let otherHost = try await rules.failures(.rfc5280, root: permitted, intermediate: nil, leaf: directoryOnly("www.example.test"))
        #expect(otherHost == [.hostnameMismatch])
        let webPKI = try await rules.failures(.webPKI, root: Self.constraints(NameConstraints(permittedSubtrees: [.directoryName(organization)])), intermediate: nil, leaf: directoryOnly("api.example.test"))
        #expect(webPKI.contains(.hostnameMismatch))
    }

    @Test(arguments: ProfileRuleTests.profiles)
    func aSelfIssuedIntermediateIsExemptButTheLeafNeverIs(profile: ServerTrustProfile) async throws {
        // Key rollover: the root and its new key share a name, so the intermediate is self-issued.
        let name = try ProfileTestPKI.name("Rollover CA")
        let rootKey = P256.Signing.PrivateKey()
        var rootSpec = try ProfileTestPKI.rootSpec(rootKey)
        rootSpec.subject = name
        rootSpec.set(try ProfileRuleTests.ext(NameConstraints(permittedDNSDomains: ["example.test"]), critical: true))
        let root = try ProfileTestPKI.issue(rootSpec, key: rootKey, issuer: nil)
        func intermediate(selfIssued: Bool) throws -> ProfileTestPKI.Issued {
            let key = P256.Signing.PrivateKey()
            var spec = try ProfileTestPKI.intermediateSpec(key, issuer: root)
            if selfIssued { spec.subject = name }
            spec.set(try ProfileRuleTests.ext(SubjectAlternativeNames([.dnsName("not-example.org")])))
            return try ProfileTestPKI.issue(spec, key: key, issuer: root)
        }
        for selfIssued in [true, false] {
            let issuer = try intermediate(selfIssued: selfIssued)
            let leafKey = P256.Signing.PrivateKey()
            let leaf = try ProfileTestPKI.issue(try ProfileTestPKI.leafSpec(leafKey, issuer: issuer), key: leafKey, issuer: issuer)
            let verdict = await ProfileRuleTests.evaluate([leaf.certificate, issuer.certificate], anchors: [root.certificate], profile)
            #expect(verdict == (selfIssued ? [] : [.nameConstraints]))
        }
    }

    @Test(arguments: ProfileRuleTests.profiles)
    func constraintsInALeafAreRejected(profile: ServerTrustProfile) async throws {
        let verdict = try await rules.failures(profile, leaf: Self.constraints(NameConstraints(permittedDNSDomains: ["example.test"])))
        #expect(verdict == [.nameConstraints])
    }

    @Test func nonCriticalNameConstraintsAreHonouredByTheWebPKI() async throws {
        let inside = try await rules.failures(.webPKI, root: Self.constraints(NameConstraints(permittedDNSDomains: ["example.test"]), critical: false))
        #expect(inside == [])
        let outside = try await rules.failures(.webPKI, root: Self.constraints(NameConstraints(permittedDNSDomains: ["other.test"]), critical: false))
        #expect(outside == [.nameConstraints])
        let excluded = try await rules.failures(
            .webPKI,
            intermediate: Self.constraints(NameConstraints(excludedDNSDomains: ["api.example.test"]), critical: false)
        )
        #expect(excluded == [.nameConstraints])
    }

    @Test func nonCriticalNameConstraintsAreRejectedByRFC5280() async throws {
        let inside = Self.constraints(NameConstraints(permittedDNSDomains: ["example.test"]), critical: false)
        let root = try await rules.failures(.rfc5280, root: inside)
        #expect(root == [.extensionCriticality])
        let intermediate = try await rules.failures(.rfc5280, intermediate: inside)
        #expect(intermediate == [.extensionCriticality])
        let critical = try await rules.failures(.rfc5280, intermediate: Self.constraints(NameConstraints(permittedDNSDomains: ["example.test"])))
        #expect(critical == [])
    }

    @Test(arguments: ProfileRuleTests.profiles)
    func malformedConstraintsAreRejected(profile: ServerTrustProfile) async throws {
        let bothEmpty: Edit = { $0.set(ProfileRuleTests.raw(.X509ExtensionID.nameConstraints, [0x30, 0x00], critical: true)) }
        let bothEmptySequences: Edit = {
            $0.set(ProfileRuleTests.raw(.X509ExtensionID.nameConstraints, [0x30, 0x04, 0xA0, 0x00, 0xA1, 0x00], critical: true))
        }
        let wildcard = Self.constraints(NameConstraints(permittedDNSDomains: ["*.example.test"]))
        let leadingPeriod = Self.constraints(NameConstraints(permittedDNSDomains: [".example.test"]))
        let addressWithoutMask = Self.constraints(NameConstraints(permittedIPRanges: [Self.ip([127, 0, 0, 1])]))
        let holeyMask = Self.constraints(NameConstraints(permittedIPRanges: [Self.ip([127, 0, 0, 0, 255, 0, 255, 0])]))
        for edit in [bothEmpty, bothEmptySequences, wildcard, leadingPeriod, addressWithoutMask, holeyMask] {
            let verdict = try await rules.failures(profile, intermediate: edit)
            #expect(verdict == [.malformedExtension])
        }
    }

    @Test(arguments: ProfileRuleTests.profiles)
    func malformedNamesNeverFitAConstraint(profile: ServerTrustProfile) async throws {
        let constrained = Self.constraints(NameConstraints(permittedDNSDomains: ["example.test"], permittedIPRanges: [Self.ip([127, 0, 0, 0, 255, 0, 0, 0])]))
        let leadingDot = try await rules.failures(profile, intermediate: constrained, leaf: {
            $0.set(try ProfileRuleTests.ext(SubjectAlternativeNames([.dnsName(".example.test"), .dnsName("api.example.test")])))
        })
        #expect(leadingDot == [.nameConstraints])
        let rangeAsAddress = try await rules.failures(profile, identity: .ip("127.0.0.1"), intermediate: constrained, leaf: {
            $0.set(try ProfileRuleTests.ext(SubjectAlternativeNames([.ipAddress(Self.ip([127, 0, 0, 0, 255, 0, 0, 0])), .ipAddress(Self.ip([127, 0, 0, 1]))])))
        })
        #expect(rangeAsAddress == [.nameConstraints])
    }

    @Test func theRFC5280ProfileConstrainsTheCommonNameItFallsBackTo() async throws {
        let noSAN: Edit = { $0.remove(.X509ExtensionID.subjectAlternativeName) }
        let elsewhere = Self.constraints(NameConstraints(permittedDNSDomains: ["other.test"]))
        let loose = try await rules.failures(.rfc5280, root: elsewhere, leaf: noSAN)
        #expect(loose == [.nameConstraints])
        let looseInside = try await rules.failures(.rfc5280, root: Self.constraints(NameConstraints(permittedDNSDomains: ["example.test"])), leaf: noSAN)
        #expect(looseInside == [])
    }

    // MARK: host names

    @Test func theWebPKIHasNoCommonNameFallback() async throws {
        let noSAN: Edit = { $0.remove(.X509ExtensionID.subjectAlternativeName) }
        let web = try await rules.failures(.webPKI, leaf: noSAN)
        #expect(web == [.hostnameMismatch])
        let loose = try await rules.failures(.rfc5280, leaf: noSAN)
        #expect(loose == [])
    }

    @Test(arguments: [
        ("*.example.test", "api.example.test", true),
        ("*.example.test", "a.b.example.test", false),
        ("*.example.test", "example.test", false),
        ("*.test", "example.test", false),
        ("a*.example.test", "api.example.test", false),
        ("api.*.test", "api.example.test", false),
        ("xn--*-1b3c148a.example.test", "xn--bliss-1b3c148a.example.test", false),
        ("API.Example.TEST.", "api.example.test", true),
        ("api.example.test", "API.example.test.", true),
        ("api..example.test", "api.example.test", false),
        ("127.0.0.1", "127.0.0.1", false),
    ])
    func webPKIHostNames(presented: String, host: String, matches: Bool) async throws {
        let identity: ServerIdentity = host.first?.isNumber == true ? .ip(host) : .host(host)
        let verdict = try await rules.failures(.webPKI, identity: identity, leaf: {
            $0.set(try ProfileRuleTests.ext(SubjectAlternativeNames([.dnsName(presented)])))
        })
        #expect(verdict == (matches ? [] : [.hostnameMismatch]))
    }

    @Test func addressesMatchOnlyAddressEntries() async throws {
        let v6 = try await rules.failures(.webPKI, identity: .ip("[::1]"), leaf: {
            $0.set(try ProfileRuleTests.ext(SubjectAlternativeNames([.ipAddress(Self.ip(Array(repeating: 0, count: 15) + [1]))])))
        })
        #expect(v6 == [])
        let v4 = try await rules.failures(.webPKI, identity: .ip("127.0.0.1"))
        #expect(v4 == [])
        let other = try await rules.failures(.webPKI, identity: .ip("127.0.0.2"))
        #expect(other == [.hostnameMismatch])
        // An address never matches a DNS entry spelling it, nor a DNS host an address entry.
        let asName = try await rules.failures(.webPKI, identity: .host("localhost"), leaf: {
            $0.set(try ProfileRuleTests.ext(SubjectAlternativeNames([.ipAddress(Self.ip([127, 0, 0, 1]))])))
        })
        #expect(asName == [.hostnameMismatch])
    }

    // MARK: certificates trusted as themselves

    /// A self-signed server as `openssl req -x509` makes them (CA:TRUE, keyCertSign, no AKI), named
    /// `api.example.test`, with `usage` as its EKU (none by default); and an evaluator pinning it under `profile`.
    static func pinnedSelfSigned(
        usage: ExtendedKeyUsage? = nil, _ profile: ServerTrustProfile
    ) throws -> (server: Certificate, evaluator: ServerTrustEvaluator) {
        let key = P256.Signing.PrivateKey()
        var spec = try ProfileTestPKI.rootSpec(key, name: "api.example.test")
        spec.set(try ProfileRuleTests.ext(SubjectAlternativeNames([.dnsName("api.example.test")])))
        if let usage { spec.set(try ProfileRuleTests.ext(usage)) }
        let server = try ProfileTestPKI.issue(spec, key: key, issuer: nil).certificate
        let policy = try ServerTrustPolicy(mode: .certificate, pinnedCertificates: [server], requiresBackupPin: false, profile: profile)
        return (server, ServerTrustEvaluator(policies: ServerTrustPolicies(policy)))
    }

    @Test func aPinnedSelfSignedServerIsHeldToTheLeafRulesOnly() async throws {
        for profile in ProfileRuleTests.profiles {
            let (server, evaluator) = try Self.pinnedSelfSigned(profile)
            let trusted = await evaluator.evaluate(chain: [server], for: ProfileRuleTests.host, at: TLSTestPKI.now)
            #expect(trusted.failures == [])
            let otherHost = await evaluator.evaluate(chain: [server], for: .host("evil.example.test"), at: TLSTestPKI.now)
            #expect(otherHost.failures == [.hostnameMismatch])
        }
    }

    @Test func aPinnedSelfSignedServerKeepsTheRFC5280UsageRuleUnderEitherProfile() async throws {
        // Never issued under a CA's profile, so anyExtendedKeyUsage beside serverAuth is RFC 5280's to judge; a
        // client-only usage is refused under both.
        for profile in ProfileRuleTests.profiles {
            let (server, evaluator) = try Self.pinnedSelfSigned(usage: try ExtendedKeyUsage([.serverAuth, .any]), profile)
            let trusted = await evaluator.evaluate(chain: [server], for: ProfileRuleTests.host, at: TLSTestPKI.now)
            #expect(trusted.failures == [])
            let (client, refusing) = try Self.pinnedSelfSigned(usage: try ExtendedKeyUsage([.clientAuth]), profile)
            let refused = await refusing.evaluate(chain: [client], for: ProfileRuleTests.host, at: TLSTestPKI.now)
            #expect(refused.failures == [.extendedKeyUsage])
        }
    }
}
