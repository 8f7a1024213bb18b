import DBusTestSupport
import Foundation
import Testing

/// Every public declaration of the library and of the model has a `///` summary: DocC publishes both, and a page
/// without one tells an app developer nothing. The check is `make docs-check`, which `make docs` runs first too.
@Suite("the library's public API is documented")
struct PublicDocumentationTests {
    @Test("make docs-check finds no public declaration of NotificationBridge or NotificationModel without ///")
    func everyDeclarationIsDocumented() async throws {
        let result = try await ProcessRunner.run(
            ["make", "--no-print-directory", "-s", "-C", repositoryFile("."), "docs-check"], timeout: .seconds(60))
        let message =
            "public declarations without a /// summary (say what it is and what a caller must know):\n"
            + result.standardOutput + result.standardError
        #expect(result.status == 0, Comment(rawValue: message))
        #expect(result.standardOutput.isEmpty, Comment(rawValue: message))
    }
}
