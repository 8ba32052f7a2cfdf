import SwiftASN1
import X509

/// Whether a leaf names a host under the Web PKI's rules (RFC 6125 as browsers and rustls-webpki apply it), which
/// are stricter than swift-certificates' `ServerIdentityPolicy`:
///
/// - only the subjectAltName counts: a leaf without one names nothing (no Common Name fallback);
/// - a DNS host matches dNSName entries only, an IP address iPAddress entries only (byte for byte);
/// - names compare case-insensitively, one trailing dot ignored on either side;
/// - a wildcard is the whole left-most label (`*.example.com`), stands for exactly one non-empty label, and needs
///   two labels after it (`*.com` matches nothing); `f*o.example.com`, `foo.*.example.com` and
///   `xn--*-….example.com` match nothing;
/// - entries that are no DNS name (non-ASCII bytes, empty labels) match nothing.
enum WebPKIHostMatch {
    static func matches(_ names: SubjectAlternativeNames?, _ host: CanonicalHost) -> Bool {
        guard let names else { return false }
        if let address = host.addressBytes {
            for case .ipAddress(let octets) in names where octets.bytes.elementsEqual(address) {
                return true
            }
            return false
        }
        guard let target = DNSName.labels(of: host.text, allowingWildcard: false) else { return false }
        for case .dnsName(let presented) in names {
            guard let labels = DNSName.labels(of: presented, allowingWildcard: true) else { continue }
            if labels.first == "*" {
                if labels.count >= 3, target.count == labels.count, target.dropFirst().elementsEqual(labels.dropFirst()) {
                    return true
                }
            } else if labels == target {
                return true
            }
        }
        return false
    }
}
