/// The category types of the Desktop Notifications Specification (`email.arrived`, `im`, `x-vendor.kind`), which
/// notify-send's `-c/--category` sends as the `category` hint; the bridge's own categories are ids such as
/// `org.example.mail.message`.
enum FreedesktopCategory {
    /// The specification's classes: each may stand alone or take a `.subtype`.
    static let classes: Set<String> = ["call", "device", "email", "im", "network", "presence", "transfer"]

    /// Whether `text` (a comma-separated list, as notify-send takes) names only category types of the specification
    /// or vendor ones (`x-…`).
    static func isCategoryType(_ text: String) -> Bool {
        let types = text.split(separator: ",", omittingEmptySubsequences: false)
        return !types.isEmpty
            && types.allSatisfy { type in
                let parts = type.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
                guard let first = parts.first, !first.isEmpty, parts.allSatisfy({ !$0.isEmpty }) else { return false }
                return classes.contains(String(first)) || first.hasPrefix("x-")
            }
    }
}
