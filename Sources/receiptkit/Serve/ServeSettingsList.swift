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
}
