/// What the environment says about colour, before the command line has its say.
package enum ColorPolicy: Sendable, Equatable {
    /// Colour on a terminal only.
    case auto
    /// `NO_COLOR` is set, or `CLICOLOR` is `0` without `CLICOLOR_FORCE`: never colour.
    case disabled
    /// `CLICOLOR_FORCE` is set and not `0`: colour even when piped.
    case forced

    /// `NO_COLOR` first (no-color.org), then the CLICOLOR convention gh follows (bixense.com/clicolors):
    /// `CLICOLOR_FORCE` set and not `0` colours even off a terminal, `CLICOLOR=0` never colours.
    package init(environment: [String: String]) {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty {
            self = .disabled
        } else if let force = environment["CLICOLOR_FORCE"], !force.isEmpty, force != "0" {
            self = .forced
        } else if environment["CLICOLOR"] == "0" {
            self = .disabled
        } else {
            self = .auto
        }
    }
}

/// How many colours the terminal draws, as gh judges it from the environment: `TERM` or `COLORTERM` naming 256
/// colours or true colour (`xterm-256color`, `truecolor`, `24bit`) is `.extended`; anything else (`linux`, `xterm`,
/// `vt100`, none) gets the 8 basic colours only, since a 256-colour code there draws another colour or none.
package enum ColorDepth: Sendable, Equatable {
    case basic
    case extended

    package init(environment: [String: String]) {
        let named = [environment["TERM"], environment["COLORTERM"]].compactMap { $0?.lowercased() }
        let extended = named.contains { name in ["256", "24bit", "truecolor"].contains { name.contains($0) } }
        self = extended ? .extended : .basic
    }
}

/// The `--color` flag.
package enum ColorChoice: String, Sendable, CaseIterable {
    case auto
    case always
    case never

    /// `--color always|never` wins; otherwise the environment's policy decides, then whether it is a terminal.
    package func isEnabled(policy: ColorPolicy, isTTY: Bool) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            switch policy {
            case .disabled: return false
            case .forced: return true
            case .auto: return isTTY
            }
        }
    }
}

/// ANSI styling that becomes a no-op when colour is off, so renderers never branch on it.
package struct ColorScheme: Sendable {
    package let enabled: Bool

    package init(enabled: Bool) {
        self.enabled = enabled
    }

    package func bold(_ text: String) -> String { wrap(text, "1") }
    package func dim(_ text: String) -> String { wrap(text, "2") }

    private func wrap(_ text: String, _ code: String) -> String {
        guard enabled, !text.isEmpty else { return text }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
