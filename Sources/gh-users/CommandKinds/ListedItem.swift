import Domain

/// A record GitHub lists, as `ListStream` and the admission rules read it: the JSON written, and the id that
/// tells a record already written (nil when it has none).
protocol ListedItem: JSONRecord {
    var listedID: Int64? { get }
}

extension User: ListedItem {
    var listedID: Int64? { id }
}

extension Record: ListedItem {
    var listedID: Int64? { id }
}

extension Repo: ListedItem {
    var listedID: Int64? { id }
}
