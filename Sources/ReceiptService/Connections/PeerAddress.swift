import NIOCore

/// The key under which a peer's shares are counted (``OpenConnections``, ``BodyBudget``): its IPv4 address, or
/// its IPv6 /64 — one host is usually given a whole /64, so counting single IPv6 addresses would let it open a
/// share per address. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, an IPv4 client of a dual-stack listener)
/// counts as its IPv4 address.
enum PeerAddress {
    static func shareKey(_ address: SocketAddress?) -> String {
        guard let address else { return "unknown" }
        guard case .v6 = address else { return address.ipAddress ?? "unknown" }
        // `sockaddr_in6`: the address is its 16 bytes at offset 8, on Linux and on Darwin alike.
        let bytes = address.withSockAddr { pointer, size in
            size >= 24 ? Array(UnsafeRawBufferPointer(start: pointer, count: size)[8..<24]) : []
        }
        guard bytes.count == 16 else { return address.ipAddress ?? "unknown" }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}
