/// A count with its noun, as a person reads it: "1 entry", "2 entries", "0 files".
enum Counted {
    static func text(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
    }
}
