internal import CGIO

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Calls `body` with a NULL-terminated C array of the strings, as GLib's `strv` parameters take them.
func withStringArray<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<gchar>?>) -> T) -> T {
    var pointers = strings.map { UnsafePointer<gchar>(strdup($0)) }
    pointers.append(nil)
    defer { for pointer in pointers { free(UnsafeMutableRawPointer(mutating: pointer)) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

/// The strings of a NULL-terminated array GLib handed over (`transfer full`), which is freed here.
func takeStrings(_ list: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?) -> [String] {
    guard let list else { return [] }
    defer { g_strfreev(list) }
    var result: [String] = []
    var index = 0
    while let item = list[index] {
        result.append(String(cString: item))
        index += 1
    }
    return result
}
