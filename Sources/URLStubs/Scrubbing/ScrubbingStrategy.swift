import Foundation

/// A request strategy that also scrubs its format wherever a secret of a ``Scrubbing`` policy
/// can travel in it: a body of its own media type, a query parameter's value, and a JSON body it
/// recognises (a document inside a member). It reports the values it scrubbed, so that their
/// copies elsewhere in an exchange are scrubbed too.
///
/// It plugs in as its strategy does, by ``RequestStrategies/register(_:)``: a policy asks every
/// registered strategy of this kind, by precedence. A wing that scrubs a format must register
/// its strategy before anything is scrubbed, so recording registers the ones the package ships.
///
/// Every requirement has a default that scrubs nothing: implement what the format needs.
package protocol ScrubbingStrategy: RequestStrategy {
    /// `body`, of type `mimeType`, with the secrets `scrubbing` lists scrubbed; byte for byte
    /// `body` when it holds none; `nil` when `mimeType` is not this format's.
    func scrub(body: Data, mimeType: String?, with scrubbing: Scrubbing) -> Data?

    /// The values `scrubbing` scrubs in `body`, of type `mimeType`; `nil` when `mimeType` is not
    /// this format's.
    func secrets(inBody body: Data, mimeType: String?, with scrubbing: Scrubbing) -> Set<String>?

    /// The query parameter `name`'s `value` scrubbed, or `nil` when nothing in it is.
    func scrub(queryValue value: String, named name: String, with scrubbing: Scrubbing) -> String?

    /// The values `scrubbing` scrubs in the query parameter `name`'s `value`.
    func secrets(inQueryValue value: String, named name: String, with scrubbing: Scrubbing) -> Set<String>

    /// `false` when `body`, a JSON body, cannot hold anything this format scrubs: it spares
    /// parsing every JSON body.
    func mayHoldSecrets(inJSONBody body: Data, with scrubbing: Scrubbing) -> Bool

    /// `json` with what this format scrubs in it scrubbed.
    func scrub(json: JSONValue, with scrubbing: Scrubbing) -> JSONValue

    /// The values `scrubbing` scrubs in `json` as this format reads it.
    func secrets(inJSON json: JSONValue, with scrubbing: Scrubbing) -> Set<String>
}

extension ScrubbingStrategy {
    /// Not this format's body.
    package func scrub(body: Data, mimeType: String?, with scrubbing: Scrubbing) -> Data? { nil }
    /// Not this format's body.
    package func secrets(inBody body: Data, mimeType: String?, with scrubbing: Scrubbing) -> Set<String>? { nil }
    /// Nothing scrubbed.
    package func scrub(queryValue value: String, named name: String, with scrubbing: Scrubbing) -> String? { nil }
    /// No secrets.
    package func secrets(inQueryValue value: String, named name: String, with scrubbing: Scrubbing) -> Set<String> { [] }
    /// Nothing to scrub.
    package func mayHoldSecrets(inJSONBody body: Data, with scrubbing: Scrubbing) -> Bool { false }
    /// `json` itself.
    package func scrub(json: JSONValue, with scrubbing: Scrubbing) -> JSONValue { json }
    /// No secrets.
    package func secrets(inJSON json: JSONValue, with scrubbing: Scrubbing) -> Set<String> { [] }
}

extension RequestStrategies {
    /// The registered strategies that scrub a format, by precedence.
    static var scrubbing: [any ScrubbingStrategy] {
        registered.compactMap { $0 as? any ScrubbingStrategy }
    }
}
