/// Fills a template: `«name»` becomes the entry point's identifier for `name`, `«#name»` the index of masked
/// constant `name`, `«T:name»` a ``ConstantTable`` of `HashTemplates.tables[name]`, `«U:name»` an unrolled body
/// written for this generation (``SHA1Rounds``), one statement a line at the placeholder's indentation.
struct TemplateRenderer {
    var names: [String: String]
    var constants: MaskedConstants
    /// The generation's spelling of the unrolled bodies.
    var dialect: Dialect

    func render(_ template: String, using random: inout SeededGenerator) throws(CodegenError) -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "«") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "»") else {
                throw CodegenError(.internalInconsistency, "unterminated placeholder in a template")
            }
            let key = String(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
            if key.hasPrefix("#") {
                guard let index = self.constants.index(of: String(key.dropFirst())) else {
                    throw CodegenError(.internalInconsistency, "no constant named \(key.dropFirst())")
                }
                out += String(index)
            } else if key.hasPrefix("T:") {
                guard let values = HashTemplates.tables[String(key.dropFirst(2))] else {
                    throw CodegenError(.internalInconsistency, "no table named \(key.dropFirst(2))")
                }
                out += ConstantTable.render(values, using: &random)
            } else if key.hasPrefix("U:") {
                guard let form = SHA1Rounds.Form(rawValue: String(key.dropFirst(2))) else {
                    throw CodegenError(.internalInconsistency, "no unrolled body named \(key.dropFirst(2))")
                }
                let indent = String(out.reversed().prefix(while: { $0 == " " }))
                out += SHA1Rounds.body(form, dialect: self.dialect, using: &random).joined(separator: "\n" + indent)
            } else {
                guard let name = self.names[key] else {
                    throw CodegenError(.internalInconsistency, "no identifier for \(key)")
                }
                out += name
            }
        }
        out += rest
        return out
    }
}
