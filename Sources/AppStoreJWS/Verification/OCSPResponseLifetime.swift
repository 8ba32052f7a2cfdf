import Foundation
import SwiftASN1
import _ReceiptKitShared

/// When an OCSP response's answers hold (RFC 6960 §4.2.1, §2.4): from the latest `thisUpdate` to the earliest
/// `nextUpdate` of its single responses. Read from a response swift-certificates' policy has verified, only to
/// know how long its verdict may be kept; a response that names no `nextUpdate` ("newer information is always
/// available") has no lifetime, and its verdict is not kept.
struct OCSPResponseLifetime: Sendable, Hashable {
    var thisUpdate: Date
    var nextUpdate: Date

    init(thisUpdate: Date, nextUpdate: Date) {
        self.thisUpdate = thisUpdate
        self.nextUpdate = nextUpdate
    }

    /// The lifetime of a DER `OCSPResponse`, or `nil` when it is not a successful basic response, when a single
    /// response lacks `nextUpdate`, or when it cannot be read.
    init?(derEncoded bytes: [UInt8]) {
        guard let lifetime = try? Self.read(bytes) else { return nil }
        self = lifetime
    }

    /// How far before `thisUpdate` swift-certificates' OCSP policy still takes an answer (its trust-time leeway,
    /// 75 minutes: clocks differ, and a responder may sign an answer a moment after the verification's `now`).
    static let leadingLeeway: TimeInterval = 4500

    /// Whether the answers hold at `now`: from ``leadingLeeway`` before `thisUpdate` (the policy would take the same
    /// answer then), and strictly before `nextUpdate`.
    func covers(_ now: Date) -> Bool {
        self.thisUpdate.addingTimeInterval(-Self.leadingLeeway) <= now && now < self.nextUpdate
    }

    /// The span both hold: the later start, the earlier end.
    func intersection(_ other: Self) -> Self {
        Self(thisUpdate: max(self.thisUpdate, other.thisUpdate), nextUpdate: min(self.nextUpdate, other.nextUpdate))
    }

    private struct Unreadable: Error {}

    private static func children(_ node: ASN1Node) throws -> ASN1NodeCollection {
        guard case .constructed(let children) = node.content else { throw Unreadable() }
        return children
    }

    private static func read(_ bytes: [UInt8]) throws -> Self {
        // OCSPResponse ::= SEQUENCE { responseStatus ENUMERATED, responseBytes [0] EXPLICIT ResponseBytes }
        var response = try Self.children(try DER.parse(bytes)).makeIterator()
        guard let status = response.next(), status.identifier == .enumerated,
            case .primitive(let value) = status.content, value.elementsEqual([0])  // successful
        else { throw Unreadable() }
        guard let wrapped = response.next(), wrapped.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific),
            let responseBytes = try Self.children(wrapped).first(where: { _ in true })
        else { throw Unreadable() }
        // ResponseBytes ::= SEQUENCE { responseType OID, response OCTET STRING } — a BasicOCSPResponse.
        guard let octets = try Self.children(responseBytes).first(where: { $0.identifier == .octetString }) else {
            throw Unreadable()
        }
        let basic = try DER.parse(Array(try ASN1OctetString(derEncoded: octets).bytes))
        // BasicOCSPResponse ::= SEQUENCE { tbsResponseData ResponseData, … }; in ResponseData the only universal
        // SEQUENCE is `responses` (version, responderID and extensions are tagged; producedAt is a time).
        guard let data = try Self.children(basic).first(where: { $0.identifier == .sequence }),
            let responses = try Self.children(data).first(where: { $0.identifier == .sequence })
        else { throw Unreadable() }
        var lifetime: Self?
        for single in try Self.children(responses) {
            let next = try Self.lifetime(ofSingleResponse: single)
            lifetime = lifetime.map { $0.intersection(next) } ?? next
        }
        guard let lifetime else { throw Unreadable() }
        return lifetime
    }

    /// SingleResponse ::= SEQUENCE { certID, certStatus, thisUpdate GeneralizedTime,
    /// nextUpdate [0] EXPLICIT GeneralizedTime OPTIONAL, singleExtensions [1] EXPLICIT OPTIONAL }
    private static func lifetime(ofSingleResponse single: ASN1Node) throws -> Self {
        var thisUpdate: Date?
        for node in try Self.children(single) {
            if thisUpdate == nil, node.identifier == .generalizedTime {
                thisUpdate = try Self.date(try GeneralizedTime(derEncoded: node))
            } else if let start = thisUpdate,
                node.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific),
                let inner = try Self.children(node).first(where: { _ in true })
            {
                return Self(thisUpdate: start, nextUpdate: try Self.date(try GeneralizedTime(derEncoded: inner)))
            }
        }
        throw Unreadable()  // no nextUpdate
    }

    private static func date(_ time: GeneralizedTime) throws -> Date {
        let days = CivilTime.daysFromCivil(year: time.year, month: time.month, day: time.day)
        let seconds = Double(days) * 86_400 + Double(time.hours * 3600 + time.minutes * 60 + time.seconds)
        return Date(timeIntervalSince1970: seconds + time.fractionalSeconds)
    }
}
