import AtomicCore
import Domain

extension CommandSpec {
    /// The spec of a paging command: the paging group in the command's words, and for a listing of accounts
    /// (`profiles`) the profile group, whose fields help lists apart: a profile's, and the list's own keys it
    /// keeps (`kept`).
    func paging(_ noun: String, profiles: Bool, keeping kept: [String] = []) -> CommandSpec {
        var spec = adding([PagingGroup.group(noun: noun)])
        guard profiles else { return spec }
        spec = spec.adding([ProfileGroup.group])
        spec.optionFields.append(
            (ProfileGroup.keptLabel, FieldCatalog.profile.filter { !spec.fields.contains($0) } + kept))
        for field in spec.fields where !FieldCatalog.profile.contains(field) && !kept.contains(field) {
            spec.fieldNotes[field] = "not with --\(ProfileGroup.full.name)"
        }
        return spec
    }
}
