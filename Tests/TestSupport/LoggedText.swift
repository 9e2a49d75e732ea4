import Testing

/// A `String` argument of a parameterized test that Swift Testing's log shows with what would act on a terminal
/// escaped (`\0`, `\n`, `\u{1B}`, `\u{009B}`, `\u{202E}` …), where it writes a `String` as it is.
///
/// The suites pass strings made to break naive output. Written raw, their escape sequences reached the terminal
/// of whoever ran `swift test`, and a NUL cut Swift Testing's write short: what followed it in that write was
/// lost, so one CI log missed the "passed" lines of 66 of its 1,977 tests and `Scripts/test-summary` counted
/// 1,909. A literal is one: `@Test(arguments: ["nul\u{0}"]) func f(text: LoggedText)`, then `text.text`.
package struct LoggedText: Sendable, ExpressibleByStringLiteral, CustomTestStringConvertible,
    CustomDebugStringConvertible
{
    package let text: String

    package init(stringLiteral text: String) { self.text = text }

    package init(_ text: String) { self.text = text }

    package var testDescription: String {
        let escaped = text.unicodeScalars.map { scalar in
            let hidden: [Unicode.GeneralCategory] = [
                .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned,
            ]
            return scalar.escaped(asASCII: hidden.contains(scalar.properties.generalCategory))
        }
        return "\"" + escaped.joined() + "\""
    }

    /// An array of them is written with each one's `testDescription`.
    package var debugDescription: String { testDescription }
}
