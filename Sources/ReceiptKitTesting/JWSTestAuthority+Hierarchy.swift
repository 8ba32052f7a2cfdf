extension JWSTestAuthority: TestAuthorityHierarchy {
    public static let folderDescription = "a P-256 JWS authority"
}
