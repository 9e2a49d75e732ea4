/// The documented exit statuses (README, `gh-users help`).
enum ExitCode {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let notFound: Int32 = 3
    static let authentication: Int32 = 4
    static let rateLimited: Int32 = 5
    static let usage: Int32 = 64
    static let interrupted: Int32 = 130
}
