import Foundation
import ServerTrust
import TLSTestSupport
import Testing
import X509

/// Hosts are put in one canonical form before policy lookup and the identity check, so that another spelling of a
/// pinned host never falls through to an unpinned default.
struct CanonicalHostTests {
    var pki: TLSTestPKI { get throws { try TLSTestPKI.shared.get() } }

    @Test func caseAndOneTrailingDotDoNotMatter() throws {
        let pattern = try HostPattern("api.example.test")
        #expect(pattern.matches("API.Example.TEST."))
        #expect(!pattern.matches("api.example.test.."))
        #expect(try HostPattern("API.EXAMPLE.TEST.").description == "api.example.test")
    }

    @Test(arguments: [
        ("bücher.example", "xn--bcher-kva.example"),
        ("München.de", "xn--mnchen-3ya.de"),
        ("例え.テスト", "xn--r8jz45g.xn--zckzah"),
        ("BÜCHER。example", "xn--bcher-kva.example"),
        ("ｂücher．example", "xn--bcher-kva.example"),
    ])
    func internationalNamesBecomePunycode(unicode: String, ascii: String) throws {
        #expect(try HostPattern(unicode).description == ascii)
        #expect(try HostPattern(ascii).matches(unicode))
        #expect(try HostPattern(unicode).matches(ascii))
    }

    @Test(arguments: ["127.1", "0x7f.0.0.1", "0177.0.0.1", "2130706433", "127.0.0.1.", "127.000.000.001", "0x7F000001"])
    func ipv4SpellingsAreOneAddress(spelling: String) throws {
        #expect(try HostPattern("127.0.0.1").matches(spelling))
        #expect(try HostPattern(spelling).description == "127.0.0.1")
    }

    @Test(arguments: ["[::1]", "0:0:0:0:0:0:0:1", "[0000::0001]", "::0:1"])
    func ipv6SpellingsAreOneAddress(spelling: String) throws {
        #expect(try HostPattern("::1").matches(spelling))
        #expect(try HostPattern("2001:DB8:0:0::1").description == "2001:db8::1")
    }

    @Test(arguments: ["", "exa mple.test", "a..b", "256.0.0.1", "1.2.3.4.5", "example.123", "[::1", "fe80::1%eth0", "x.0x", String(repeating: "a", count: 64) + ".test"])
    func notAHostMatchesNothingAndIsRefused(text: String) async throws {
        #expect(!(try HostPattern("**.test").matches(text)))
        #expect(performing: { try HostPattern(text) }, throws: { ($0 as? ServerTrustError)?.code == .malformedHostPattern })
        let evaluator = ServerTrustEvaluator(anchors: [try pki.root.certificate])
        #expect(await evaluator.evaluate(chain: try pki.chain, for: .host(text), at: TLSTestPKI.now).failures == [.invalidHost])
    }

    @Test func anotherSpellingOfAPinnedHostGetsThePinnedPolicy() async throws {
        let strict = try ServerTrustPolicy(mode: .publicKey, pins: [try #require(PublicKeyPin(publicKeyOf: pki.unrelated.certificate))], requiresBackupPin: false)
        let policies = ServerTrustPolicies([
            (try HostPattern("api.example.test"), strict),
            (try HostPattern("127.0.0.1"), strict),
            (try HostPattern("::1"), strict),
            (try HostPattern("*.bücher.example"), strict),
        ])
        let evaluator = ServerTrustEvaluator(policies: policies, anchors: [try pki.root.certificate])
        for identity: ServerIdentity in [
            .host("API.EXAMPLE.TEST."), .host("127.1"), .ip("127.000.000.001"), .ip("0:0:0:0:0:0:0:1"), .host("[::1]"),
            .host("www.xn--bcher-kva.example"),
        ] {
            let result = await evaluator.evaluate(chain: try pki.chain, for: identity, at: TLSTestPKI.now)
            #expect(result.failures.contains(.pinMismatch), "\(identity) fell through to the default policy")
        }
        // An unpinned host still gets the default.
        #expect(await evaluator.evaluate(chain: try pki.chain, for: .host("www.example.test"), at: TLSTestPKI.now).failures == [])
    }

    @Test func theIdentityIsCheckedInItsCanonicalForm() async throws {
        let evaluator = ServerTrustEvaluator(anchors: [try pki.root.certificate])
        // The leaf names 127.0.0.1 as an IP address and api.example.test as a DNS name.
        for identity: ServerIdentity in [.host("127.1"), .host("0x7f000001"), .host("API.example.test.")] {
            #expect(await evaluator.evaluate(chain: try pki.chain, for: identity, at: TLSTestPKI.now).failures == [], "\(identity)")
        }
    }
}
