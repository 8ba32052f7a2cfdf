import ReceiptService

/// `receiptkit serve --list-settings`: every setting, as the settings file, the environment and `--set` name it.
enum ServeSettingsList {
    /// One paragraph a setting: its name and variable, its default and rule, what it does.
    static func text(_ settings: [ServiceSettingDescription]) -> String {
        var text = """
            Settings: in the --config file by name, in the environment as RECEIPTKIT_NAME, on the command line as \
            --set name=value; later sources win (file, environment, --set, then the named flags). Lists and objects \
            are JSON.

            """
        for setting in settings {
            text += "\n\(setting.name)  (\(setting.environmentVariable))\n"
            text += "    default: \(setting.defaultValue); \(setting.rule)\(setting.isSecret ? "; secret" : "")\n"
            text += "    \(setting.summary)\n"
        }
        return text
    }

    /// The same as a Markdown table, one row a setting: the configuration reference (the ReceiptService catalog's
    /// "Configuration reference" holds it verbatim, and a test keeps the two equal).
    static func markdown(_ settings: [ServiceSettingDescription]) -> String {
        func cell(_ text: String) -> String { text.split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") }
        var text = "| Setting | Environment variable | Flag | Default | Rule | What it does |\n"
        text += "|---|---|---|---|---|---|\n"
        for setting in settings {
            let flag = ServiceConfiguration.settingFlags[setting.name].map { "`\($0)`" } ?? "—"
            let rule = setting.rule + (setting.isSecret ? "; secret" : "")
            text += "| `\(setting.name)` | `\(setting.environmentVariable)` | \(flag) | `\(cell(setting.defaultValue))` | "
                + "\(cell(rule)) | \(cell(setting.summary)) |\n"
        }
        return text
    }
}
