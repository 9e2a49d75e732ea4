import AtomicCore
import AtomicLogger
import Domain
import Foundation
import Networking

/// How a run may use the response cache.
package enum CacheMode: Sendable, Equatable {
    /// Revalidate every GET with the cached validators, store 200s.
    case readWrite
    /// `--no-cache`: neither read nor write.
    case disabled
    /// `--offline`: answer from the cache only, never the network.
    case offline
}

/// The cache a repository uses, and how.
package struct CacheSettings: Sendable {
    package let store: DiskResponseCache?
    package let mode: CacheMode
    /// Whether a copy may answer where the network cannot be reached (and be advised, for `--offline`, where
    /// there is none to answer): not for `--changes`, whose snapshot records GitHub's list as it is now. A
    /// copy joined to pages GitHub gave now reports phantom changes.
    package let copiesAnswer: Bool

    package init(store: DiskResponseCache?, mode: CacheMode, copiesAnswer: Bool = true) {
        self.store = store
        self.mode = mode
        self.copiesAnswer = copiesAnswer
    }

    package static let disabled = CacheSettings(store: nil, mode: .disabled)
}

/// GETs through the cache. Every request with a cached entry is revalidated (`If-None-Match`, or
/// `If-Modified-Since` where there is only a `Last-Modified`), so answers are never stale, and a 304, which costs
/// no rate limit, is answered with the cached body, the stored headers that describe it, and the 304's own
/// headers over them (a new `Link`, scopes, rate limit, request id), which also update the entry. When the
/// network cannot be reached after the client's retries, the cached copy answers, with a warning that dates it
/// by when GitHub last confirmed it.
struct ConditionalFetcher: Sendable {
    /// An entity tag without its weakness mark and surrounding blanks, for the weak comparison.
    static func opaqueTag(_ etag: String) -> Substring {
        let trimmed = etag.trimmingCharacters(in: .whitespaces)
        return trimmed.hasPrefix("W/") ? trimmed.dropFirst(2) : Substring(trimmed)
    }

    let client: HTTPClient
    let settings: CacheSettings
    let logger: Logger
    let now: @Sendable () -> Date
    /// The answers this fetcher (and every copy of it) took from the cache without the network confirming them.
    let unconfirmed = UnconfirmedCopies()
    /// Whether this run said yet that GitHub left out organizations' results (`sayWithheld`).
    let withheldSaid = OnceFlag()
    /// Hashed once, not per request.
    private let tokenIdentity: String

    init(client: HTTPClient, settings: CacheSettings, logger: Logger, now: @escaping @Sendable () -> Date) {
        self.client = client
        self.settings = settings
        self.logger = logger
        self.now = now
        tokenIdentity = DiskResponseCache.tokenIdentity(client.configuration.token)
    }

    /// `cacheable: false` bypasses the cache for answers that must always be live, such as `/rate_limit`;
    /// `--offline` still cannot reach the network for them. `revalidates: false` sends no validators, so the
    /// answer is a 200 (stored as any other), for what a 304 leaves out (the token's scopes); `--offline` and a
    /// network failure still answer from the copy, the latter unless `fallsBack` is false. `accept` asks for
    /// another media type, whose body differs, so it is part of the cache key.
    func get(
        _ url: URL, endpoint: String, cacheable: Bool = true, revalidates: Bool = true, fallsBack: Bool = true,
        accept: String? = nil, onHead: HeadObserver? = nil
    ) async throws(DomainError) -> Fetched {
        let fallsBack = fallsBack && settings.copiesAnswer
        let store = settings.mode == .disabled || !cacheable ? nil : settings.store
        // With no store (--no-cache, /rate_limit) there is nothing to key, so no hashing either.
        let variant = url.absoluteString + (accept.map { "\nAccept: " + $0 } ?? "")
        let key = store == nil ? "" : DiskResponseCache.key(url: variant, tokenIdentity: tokenIdentity)
        let entry = store?.read(key: key)
        if settings.mode == .offline {
            guard let entry else {
                // Looked at again only now: a damaged copy is said as such, not as one never cached.
                let damaged = store.map { $0.lookUp(key: key) == .damaged } ?? false
                throw DomainError.notCached(resource: endpoint, everCached: cacheable, damaged: damaged)
            }
            logger.info("\(HTTPClient.traceText(endpoint)): from the cache, offline")
            let copy = UnconfirmedCopy(endpoint: endpoint, confirmedAt: entry.confirmedAt, offline: true)
            unconfirmed.add(copy)
            return Fetched(response: response(from: entry, requested: url), copy: copy)
        }
        var request = client.makeRequest(.get, url)
        request.onHead = onHead
        // The network was down at the last request that needed it: one with a copy to answer from is asked once,
        // not through every retry (helper-356: 1 s and a warning a profile, 440 lines a minute, under --full).
        let wasDown = entry != nil && fallsBack && unconfirmed.networkDown
        if wasDown { request.transportRetries = 0 }
        if let accept { request.headers.set("Accept", accept) }
        if let entry, revalidates {
            // With an ETag, If-None-Match alone: GitHub has answered a date's If-Modified-Since with a 304 for an
            // answer that had changed (hub4j/github-api#669; its support advised If-None-Match, milo/github-api#24).
            if let etag = entry.etag {
                request.headers.set("If-None-Match", etag)
            } else if let lastModified = entry.lastModified {
                request.headers.set("If-Modified-Since", lastModified)
            }
        }
        let answer: HTTPResponse
        do {
            answer = try await client.sendReportingAttempts(request)
            unconfirmed.answered()
        } catch {
            // Only when no answer came at all: a certificate that failed its check or a body over the cap is an
            // answer, and the cache must not stand in for it.
            if let entry, fallsBack, error.error.isTransient {
                let copyOf =
                    "the copy of \(HTTPClient.traceText(endpoint)) that GitHub last confirmed "
                    + LocalTime.text(entry.confirmedAt, date: true)
                let copy = UnconfirmedCopy(endpoint: endpoint, confirmedAt: entry.confirmedAt, offline: false)
                switch unconfirmed.fallBack(copy) {
                case .first:
                    logger.warning(
                        "cannot reach the API (\(ErrorMapping.describe(error.error))); using \(copyOf). Until an "
                            + "answer comes, each request with a copy is asked once and answered from it, said again "
                            + "only for a copy a minute or more older than those before it (--debug names each)")
                case .older: logger.warning("still no answer; using \(copyOf), older than those before it")
                case .quiet: logger.info("still no answer; using \(copyOf)")
                }
                return Fetched(response: response(from: entry, requested: url), copy: copy)
            }
            throw ErrorMapping.domainError(
                for: error, endpoint: endpoint, apiRoot: client.configuration.baseURL,
                cachedCopy: fallsBack && (entry != nil || hasCopyDespiteNoCache(key: variant, cacheable: cacheable)))
        }
        if answer.status == 304, revalidates, let entry, let store {
            // A validator that is not the stored one, compared weakly (RFC 9110 §8.8.3.2: `W/` aside), names
            // another representation (RFC 9111 §4.3.4), and GitHub's ETags are weak: the stored body is not the
            // one the 304 confirms, so the request is asked again without validators, once.
            if let etag = answer.headers["ETag"], Self.opaqueTag(etag) != entry.etag.map(Self.opaqueTag) {
                logger.info("\(HTTPClient.traceText(endpoint)): a 304 for another ETag; asked again without one")
                return try await get(
                    url, endpoint: endpoint, cacheable: cacheable, revalidates: false, fallsBack: fallsBack,
                    accept: accept, onHead: onHead)
            }
            let current = store.revalidate(key: key, entry: entry, by: answer.headers, now: now())
            return Fetched(response: revalidated(current, by: answer, requested: url))
        }
        guard answer.status == 200, let store,
            answer.headers["ETag"] != nil || answer.headers["Last-Modified"] != nil
        else { return Fetched(response: answer) }
        let stored = now()
        return Fetched(response: answer, keeper: Keeper { store.write(key: key, response: $0, now: stored) })
    }

    /// An answer, and for a 200 worth keeping, how to keep it (`Keeper`).
    struct Fetched {
        var response: HTTPResponse
        var keeper: Keeper?
        /// The cache answered without GitHub confirming the copy (`--offline`, or the network down).
        var copy: UnconfirmedCopy?

        /// `value`, decoded from this answer; a page of a list paged by page number that the cache answered says
        /// so (`Page.cachedCopy`). A list paged by `since=` goes on after the last id whatever the page's age, so
        /// it misses no one.
        func marked<Value>(_ value: Value, paging: Endpoint.Paging) -> Value {
            guard let copy, paging != .since, paging != .single, var page = value as? any CopyMarked else {
                return value
            }
            page.cachedCopy = copy
            return page as? Value ?? value
        }
    }

    /// How to store a 200, once its reader has decoded it: a cut-off, broken or misshapen 200 fails the run, and
    /// stored it would replace the good copy that `--offline` and a network failure answer from, failing them
    /// too. The reader's own check and decoding are the one validating pass: a second, here, would cost about
    /// 0.5 ms a 90 KB page and 400 ms a 64 MiB one.
    struct Keeper {
        let keep: @Sendable (HTTPResponse) -> Void

        /// Stores `response` once its reader has decoded it, if its body is a JSON object or array (an empty
        /// 204's, or any other its reader took, is not kept).
        func keepIfWellFormed(_ response: HTTPResponse) {
            let first = ResponseDecoder.firstByte(response.body)
            guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return }
            keep(response)
        }
    }

    /// Under --no-cache nothing was read, but a copy may be there all the same, for `--offline` to answer
    /// from; only looked for once the request has failed, and only read, never written.
    private func hasCopyDespiteNoCache(key variant: String, cacheable: Bool) -> Bool {
        guard settings.mode == .disabled, cacheable, let store = settings.store else { return false }
        return store.read(key: DiskResponseCache.key(url: variant, tokenIdentity: tokenIdentity)) != nil
    }

    /// The stored body with its `Content-Type`, and every other header from the live 304, which describes this
    /// request: the token's scopes, the rate limit, the request id, and its `Link` (RFC 9111 §4.3.4: page 1 may be
    /// unchanged while a page 2 has appeared, and only the 304's `Link` names it). A header the 304 has wins; one
    /// it lacks (GitHub's 304s carry no `X-OAuth-Scopes`) keeps the stored value.
    private func revalidated(_ entry: CachedResponse, by answer: HTTPResponse, requested url: URL) -> HTTPResponse {
        var merged = response(from: entry, requested: url)
        for field in answer.headers where !ConditionalFetcher.bodyHeaders.contains(field.name.lowercased()) {
            merged.headers.set(field.name, field.value)
        }
        return merged
    }

    /// Headers about the stored body, which a bodiless 304 cannot speak for.
    private static let bodyHeaders: Set<String> = [
        "content-type", "content-length", "content-encoding", "transfer-encoding",
    ]

    private func response(from entry: CachedResponse, requested url: URL) -> HTTPResponse {
        HTTPResponse(status: entry.status, headers: entry.headers, body: entry.body, url: URL(string: entry.url) ?? url)
    }
}

/// `summary()` and `clear()` fail (`cacheUnavailable`) when the store is not gh-users' own or not safe to use.
extension DiskResponseCache: CacheRepository {}

extension ConditionalFetcher {
    /// GitHub answers a request for what may come from several organizations without the results of those whose
    /// SAML single sign-on the token is not authorized for, and says so in a success's `X-GitHub-SSO` alone
    /// (`partial-results; organizations=21955855,20582480`, GitHub's REST docs, "Authenticating to the REST API"):
    /// the list is whole but for them. Said once a run, on stderr, with the organizations' ids (digits only, each
    /// once, the first five), for a REST answer decoded, from GitHub or from the cache, which keeps the header.
    func sayWithheld(_ answer: HTTPResponse) {
        guard (200..<300).contains(answer.status), let header = answer.headers["X-GitHub-SSO"]?.lowercased() else {
            return
        }
        let fields = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.first == "partial-results", withheldSaid.setOnce() else { return }
        var seen = Set<String>()
        let ids =
            (fields.first { $0.hasPrefix("organizations=") }?.dropFirst("organizations=".count)
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && $0.count <= 20 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) } ?? [])
            .filter { seen.insert($0).inserted }
        let named =
            ids.isEmpty
            ? "some organizations"
            : "\(ids.count == 1 ? "an organization" : "\(ids.count) organizations") (id "
                + ids.prefix(5).joined(separator: ", ") + (ids.count > 5 ? " and \(ids.count - 5) more" : "") + ")"
        logger.warning(
            "GitHub left out what \(named) hold\(ids.count == 1 ? "s" : ""): they use SAML single sign-on, which "
                + "this token is not authorized for; authorize it for them (GitHub settings, Personal access tokens, "
                + "Configure SSO) to see it all")
    }
}

/// The unconfirmed copies a run took, the first kept: one is enough to say the run's answers are not all live.
/// It also knows whether the network is down: a copy answered for it, and no answer has come since.
final class UnconfirmedCopies: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: UnconfirmedCopy?
    private var down = false

    /// The oldest copy said while the network is down: a later one is said only when older still.
    private var oldestSaid: Date?

    /// How a copy that answered for the network is said: the first of a run or of an outage in full, one older
    /// by a minute or more than every copy said before it again (its date matters), any other at info level only.
    enum Notice: Equatable { case first, older, quiet }

    /// `--offline`'s copy.
    func add(_ copy: UnconfirmedCopy) {
        lock.withLock { kept = kept ?? copy }
    }

    /// A copy that answered for a network that gave no answer; requests in flight at once each call it, and one
    /// alone is `first`.
    func fallBack(_ copy: UnconfirmedCopy) -> Notice {
        lock.withLock {
            kept = kept ?? copy
            down = true
            guard let oldest = oldestSaid else {
                oldestSaid = copy.confirmedAt
                return .first
            }
            // Older by a minute or more: copies stored by one run, seconds apart, are the same age to a reader.
            guard copy.confirmedAt <= oldest.addingTimeInterval(-60) else { return .quiet }
            oldestSaid = copy.confirmedAt
            return .older
        }
    }

    /// Whether the last request that needed the network got no answer, and a copy answered for it.
    var networkDown: Bool { lock.withLock { down } }

    /// An answer came: the network is there again, and a later outage is said anew.
    func answered() {
        lock.withLock {
            down = false
            oldestSaid = nil
        }
    }

    var first: UnconfirmedCopy? { lock.withLock { kept } }
}
