import Foundation
import GitHubStandIn
import Testing

/// Key order of GitHub's `simple-user` example, plus the `user_view_type` discriminator current responses carry.
private let simpleUserKeys = [
    "login", "id", "node_id", "avatar_url", "gravatar_id", "url", "html_url", "followers_url", "following_url",
    "gists_url", "starred_url", "subscriptions_url", "organizations_url", "repos_url", "events_url",
    "received_events_url", "type", "user_view_type", "site_admin",
]

private let publicUserExtraKeys = [
    "name", "company", "blog", "location", "email", "hireable", "bio", "twitter_username", "public_repos",
    "public_gists", "followers", "following", "created_at", "updated_at",
]

/// GitHub's `public-user-default-response` example (github/rest-api-description, MIT License, Copyright (c) 2020
/// GitHub), which octocat must reproduce.
private let octocatFixture = """
    {
      "login": "octocat", "id": 1, "node_id": "MDQ6VXNlcjE=",
      "avatar_url": "https://github.com/images/error/octocat_happy.gif", "gravatar_id": "",
      "url": "https://api.github.com/users/octocat", "html_url": "https://github.com/octocat",
      "followers_url": "https://api.github.com/users/octocat/followers",
      "following_url": "https://api.github.com/users/octocat/following{/other_user}",
      "gists_url": "https://api.github.com/users/octocat/gists{/gist_id}",
      "starred_url": "https://api.github.com/users/octocat/starred{/owner}{/repo}",
      "subscriptions_url": "https://api.github.com/users/octocat/subscriptions",
      "organizations_url": "https://api.github.com/users/octocat/orgs",
      "repos_url": "https://api.github.com/users/octocat/repos",
      "events_url": "https://api.github.com/users/octocat/events{/privacy}",
      "received_events_url": "https://api.github.com/users/octocat/received_events",
      "type": "User", "site_admin": false, "name": "monalisa octocat", "company": "GitHub",
      "blog": "https://github.com/blog", "location": "San Francisco", "email": "octocat@github.com",
      "hireable": false, "bio": "There once was...", "twitter_username": "monatheoctocat", "public_repos": 2,
      "public_gists": 1, "followers": 20, "following": 0, "created_at": "2008-01-14T04:33:35Z",
      "updated_at": "2008-01-14T04:33:35Z"
    }
    """

/// Strings the special accounts must deliver byte-for-byte after a JSON round trip.
let nastyProfiles: [(login: String, name: String?, bio: String?)] = [
    ("Yamada-Taro", "山田太郎", "東京在住のソフトウェアエンジニアです。"),
    ("kitsune-fox", "🦊 Fox", "Nine tails: 🦊🦊🦊🦊🦊🦊🦊🦊🦊"),
    (
        "zwj-dev", "👩\u{200D}💻 Dev",
        "Family: 👨\u{200D}👩\u{200D}👧\u{200D}👦, flag: 🏳\u{FE0F}\u{200D}🌈, thumbs: 👍🏽, keycap: 1\u{FE0F}\u{20E3}"
    ),
    ("jose-nunez", "Jose\u{0301} Nun\u{0303}ez", nil),
    ("Fullwidth-Fan", "Ｆｕｌｌｗｉｄｔｈ\u{3000}Ｆａｎ", nil),
    ("ansi-red", "Ansi Red", "I am \u{1B}[31mred\u{1B}[0m and \u{1B}[1;5mblinking\u{1B}[0m"),
    ("bell-ringer", "Bell\u{07} Ringer", "Ding\u{07}dong\u{07}"),
    ("c1-csi", "C1 Control", "C1 \u{9B}31mred\u{9B}0m via U+009B"),
    ("bidi-override", "\u{202E}gnirts desrever", "abc\u{202E}fed\u{202C}ghi \u{2067}isolate\u{2069}"),
    (
        "osc8-link", "Hyperlink",
        "\u{1B}]8;;https://evil.example\u{07}click\u{1B}]8;;\u{07} and \u{1B}]0;pwned title\u{07}"
    ),
    ("tabby-newline", "Tab\tName", "line one\nline two\r\n\tindented\u{0B}vtab\u{0C}formfeed\u{08}backspace"),
    ("nul-byte", "Nul\u{0}Name", "before\u{0}after"),
    ("del-char", "Del Char", "rub\u{7F}out"),
    ("Quote-Backslash", "\"Quoted\" \\ Name", "C:\\Users\\me said \"hi\" / </script> \\u0041 is not an escape"),
    ("u2028-sep", "Line\u{2028}Separator", "para\u{2028}line\u{2029}end"),
]

/// Positions of `"key":` occurrences must increase, which JSONSerialization (unordered) cannot check.
private func keysAppearInOrder(_ keys: [String], in json: String) -> Bool {
    var searchStart = json.startIndex
    for key in keys {
        guard let range = json.range(of: "\"\(key)\":", range: searchStart..<json.endIndex) else {
            return false
        }
        searchStart = range.upperBound
    }
    return true
}

private func isValidLogin(_ login: String) -> Bool {
    let bytes = Array(login.utf8)
    guard !bytes.isEmpty, bytes.count <= 39, bytes.first != UInt8(ascii: "-"), bytes.last != UInt8(ascii: "-")
    else {
        return false
    }
    var previousWasHyphen = false
    for byte in bytes {
        let isHyphen = byte == UInt8(ascii: "-")
        let isAlphanumeric =
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        guard isHyphen || isAlphanumeric, !(isHyphen && previousWasHyphen) else {
            return false
        }
        previousWasHyphen = isHyphen
    }
    return true
}

@Suite struct StandInPopulationTests {
    @Test func populationsOfTheSameSizeAreIdentical() {
        let first = StandInPopulation(userCount: 3_000)
        let second = StandInPopulation(userCount: 3_000)
        #expect(first == second)
        #expect(first.listPageJSON(since: 0, perPage: 100) == second.listPageJSON(since: 0, perPage: 100))
        for ordinal in [1, 2, 3, 9, 1_234, 3_000] {
            #expect(first.users[ordinal - 1].publicUserJSON() == second.users[ordinal - 1].publicUserJSON())
        }
        // A smaller population is a prefix of a larger one, so fixtures do not shift when userCount changes.
        #expect(Array(StandInPopulation(userCount: 100).users) == Array(first.users.prefix(100)))
    }

    @Test func documentedAccountsSitAtTheirDocumentedIds() throws {
        let population = StandInPopulation(userCount: 1_000)
        #expect(population.users.count == 1_000)
        let octocat = try #require(population.user(id: 1))
        #expect(octocat.login == "octocat" && octocat.type == "User" && !octocat.siteAdmin)
        let bot = try #require(population.user(login: "dependabot[bot]"))
        #expect(bot.id == 3 && bot.ordinal == 3 && bot.type == "Bot")
        #expect(population.users.filter { $0.type == "Bot" }.map(\.login) == ["dependabot[bot]"])
        #expect(population.users.filter(\.siteAdmin).map(\.login) == ["Yamada-Taro"])
        #expect(population.user(login: "jose-nunez")?.id == 8)
        #expect(population.users[6].type == "Organization" && population.users[6].id == 9)
        #expect(population.users[99].login == "nimble-heron-100" && population.users[99].id == 138)
        #expect(population.users[100].login == "Proud-Heron-101")
        #expect(population.users[101].login == "quietheron102")
        #expect(population.users[102].login == "RapidHeron103")
        #expect(population.users[106].login == "Heron-Labs-107")
        #expect(population.user(id: 6) == nil && population.user(id: 7) == nil)
    }

    @Test func idsIncreaseStrictlyWithGapsAndTypesFollowTheOrdinalRule() {
        let population = StandInPopulation(userCount: 20_000)
        var gaps = 0
        for (position, user) in population.users.enumerated() {
            #expect(user.ordinal == position + 1)
            #expect(user.id == StandInPopulation.id(forOrdinal: user.ordinal))
            if position > 0 {
                let previous = population.users[position - 1].id
                #expect(user.id > previous)
                gaps += user.id - previous > 1 ? 1 : 0
            }
            let expectedType = user.ordinal % 10 == 7 ? "Organization" : (user.ordinal == 3 ? "Bot" : "User")
            #expect(user.type == expectedType)
        }
        #expect(gaps == (20_000 - 1) / 5)
    }

    @Test func loginsAreValidAndUniqueIgnoringCase() {
        let population = StandInPopulation(userCount: 100_000)
        var seen = Set<String>()
        var invalid: [String] = []
        for user in population.users {
            #expect(seen.insert(user.login.lowercased()).inserted, "duplicate login \(user.login)")
            if user.login != "dependabot[bot]", !isValidLogin(user.login) {
                invalid.append(user.login)
            }
        }
        #expect(invalid.isEmpty)
        #expect(population.users.contains { $0.login.count == 39 })
        #expect(population.users.contains { $0.login != $0.login.lowercased() })
    }

    @Test func lookupsIgnoreCaseAndMissesAreNil() {
        let population = StandInPopulation(userCount: 500)
        #expect(population.user(login: "OCTOCAT")?.id == 1)
        #expect(population.user(login: "yamada-taro")?.login == "Yamada-Taro")
        #expect(population.user(login: "DEPENDABOT[BOT]")?.id == 3)
        #expect(population.user(login: "nobody-here") == nil)
        #expect(population.user(login: "") == nil)
    }

    @Test func simpleAndPublicFormsKeepGitHubsKeyOrder() throws {
        let population = StandInPopulation(userCount: 50)
        for user in population.users {
            let simple = user.simpleUserJSON()
            #expect(keysAppearInOrder(simpleUserKeys, in: simple), "\(user.login)")
            let parsedSimple = try #require(
                try JSONSerialization.jsonObject(with: Data(simple.utf8)) as? [String: Any])
            #expect(Set(parsedSimple.keys) == Set(simpleUserKeys))
            let profile = user.publicUserJSON()
            #expect(keysAppearInOrder(simpleUserKeys + publicUserExtraKeys, in: profile), "\(user.login)")
            let parsedProfile = try #require(
                try JSONSerialization.jsonObject(with: Data(profile.utf8)) as? [String: Any])
            #expect(Set(parsedProfile.keys) == Set(simpleUserKeys + publicUserExtraKeys))
            #expect(parsedProfile["id"] as? Int == user.id)
            #expect(parsedProfile["node_id"] as? String == user.nodeID)
        }
    }

    @Test func octocatReproducesGitHubsExample() throws {
        let octocat = try #require(StandInPopulation(userCount: 10).user(login: "octocat"))
        let produced = try #require(
            try JSONSerialization.jsonObject(with: Data(octocat.publicUserJSON().utf8)) as? NSDictionary)
        let expected = try #require(
            try JSONSerialization.jsonObject(with: Data(octocatFixture.utf8)) as? [String: Any])
        var withDiscriminator = expected
        withDiscriminator["user_view_type"] = "public"
        #expect(produced == NSDictionary(dictionary: withDiscriminator))
    }

    @Test func botAndOrganizationsLookLikeGitHubs() throws {
        let population = StandInPopulation(userCount: 20)
        let bot = try #require(population.user(login: "dependabot[bot]"))
        let botJSON = try #require(
            try JSONSerialization.jsonObject(with: Data(bot.simpleUserJSON().utf8)) as? [String: Any])
        #expect(botJSON["url"] as? String == "https://api.github.com/users/dependabot%5Bbot%5D")
        #expect(botJSON["html_url"] as? String == "https://github.com/apps/dependabot")
        #expect(botJSON["node_id"] as? String == "MDM6Qm90Mw==")  // base64("03:Bot3")
        let organization = population.users[16]
        #expect(organization.type == "Organization")
        #expect(organization.nodeID == Data("012:Organization\(organization.id)".utf8).base64EncodedString())
    }

    @Test func nastyStringsSurviveEscapingIntact() throws {
        let population = StandInPopulation(userCount: 100)
        for nasty in nastyProfiles {
            let user = try #require(population.user(login: nasty.login))
            #expect(user.ordinal <= 40)
            let bytes = Array(user.publicUserJSON().utf8)
            // Raw control bytes inside JSON strings are invalid JSON; all must be escaped.
            #expect(!bytes.contains { $0 < 0x20 }, "\(nasty.login) has an unescaped control byte")
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            #expect(parsed["name"] as? String == nasty.name, "\(nasty.login)")
            if let bio = nasty.bio {
                #expect(parsed["bio"] as? String == bio, "\(nasty.login)")
            }
            #expect(user.profile.name == nasty.name)
        }
        let escaped = try #require(population.user(login: "nul-byte")).publicUserJSON()
        #expect(escaped.contains(#""bio":"before\u0000after""#))
        let separators = try #require(population.user(login: "u2028-sep")).publicUserJSON()
        #expect(separators.contains(#"para\u2028line\u2029end"#))
        let quotes = try #require(population.user(login: "Quote-Backslash")).publicUserJSON()
        #expect(quotes.contains(#""name":"\"Quoted\" \\ Name""#))
        let tabs = try #require(population.user(login: "tabby-newline")).publicUserJSON()
        #expect(tabs.contains(#"line one\nline two\r\n\tindented\u000bvtab\fformfeed\bbackspace"#))
    }

    @Test func profilesHaveNullsAndTimestampsInGitHubsFormat() throws {
        let population = StandInPopulation(userCount: 300)
        var nullCompanies = 0
        for user in population.users {
            let profile = try #require(
                try JSONSerialization.jsonObject(with: Data(user.publicUserJSON().utf8)) as? [String: Any])
            if profile["company"] is NSNull {
                nullCompanies += 1
            }
            for key in ["created_at", "updated_at"] {
                let stamp = try #require(profile[key] as? String)
                #expect(stamp.count == 20 && stamp.hasSuffix("Z") && stamp.dropFirst(10).hasPrefix("T"))
                let formatter = ISO8601DateFormatter()
                let date = try #require(formatter.date(from: stamp))
                let epoch = Int(date.timeIntervalSince1970)
                #expect(epoch == (key == "created_at" ? user.profile.createdAt : user.profile.updatedAt))
            }
        }
        #expect(nullCompanies > 150)
    }
}
