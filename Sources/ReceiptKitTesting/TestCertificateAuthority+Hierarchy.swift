extension TestCertificateAuthority: TestAuthorityHierarchy {
    public static let folderDescription = "an RSA receipt authority"
}
