/// Everything the command line can ask for, decided before anything runs.
enum Route: Sendable, Equatable {
    case run(Invocation)
    /// Help text for stdout, exit 0; rendered for the width of wherever it goes.
    case help(HelpRequest)
    case version
    /// A manual page in roff for stdout (`help --man [COMMAND]`, for `Scripts/make-manpage`): gh-users(1) for
    /// nil, else the command's own page.
    case manual(command: String?)
    case usageError(UsageError)
}

/// Which help was asked for.
enum HelpRequest: Sendable, Equatable {
    case topLevel
    case command(String)
    case topic(String)
}
