import Foundation
import Testing
import URLStubs
import URLStubsWireMock

/// The JSONPath evaluator behind matchesJsonPath and the jsonPath helper, against the Jayway
/// JsonPath syntax WireMock documents (Goessner's JSONPath).
@Suite("WireMock JSONPath")
struct JSONPathTests {
    static let store = try! JSONValue(
        data: Data(
            #"""
            {"store": {"book": [
              {"category": "reference", "author": "Nigel Rees", "title": "Sayings", "price": 8.95},
              {"category": "fiction", "author": "Evelyn Waugh", "title": "Sword", "price": 12.99, "isbn": "0-553"},
              {"category": "fiction", "author": "Herman Melville", "title": "Moby Dick", "price": 8.99, "isbn": "0-679"}],
              "bicycle": {"color": "red", "price": 19.95}}, "limit": 10}
            """#.utf8))

    func values(_ expression: String) throws -> JSONValue? {
        try WireMockJSONPath(expression).evaluate(Self.store).value
    }

    @Test func membersIndicesAndWildcards() throws {
        #expect(try values("$.store.bicycle.color") == .string("red"))
        #expect(try values("$['store']['bicycle']['color']") == .string("red"))
        #expect(try values("$.store.book[0].author") == .string("Nigel Rees"))
        #expect(try values("$.store.book[-1].title") == .string("Moby Dick"))
        #expect(try values("$.store.book[*].price") == .array([.number(8.95), .number(12.99), .number(8.99)]))
        #expect(try values("$.store.book[0,2].title") == .array([.string("Sayings"), .string("Moby Dick")]))
        #expect(try values("$.store.book[:2].title") == .array([.string("Sayings"), .string("Sword")]))
        #expect(try values("$.store.book[1:].title") == .array([.string("Sword"), .string("Moby Dick")]))
        #expect(try values("$.store.book[0]['title','price']") == .array([.string("Sayings"), .number(8.95)]))
        #expect(try values("$.nothing") == nil)
    }

    @Test func recursiveDescent() throws {
        #expect(try values("$..author") == .array([.string("Nigel Rees"), .string("Evelyn Waugh"), .string("Herman Melville")]))
        guard case .array(let prices)? = try values("$..price") else {
            Issue.record("expected a list")
            return
        }
        #expect(prices.count == 4)
        #expect(try values("$..book[0].title") == .array([.string("Sayings")]))
    }

    @Test func filters() throws {
        #expect(try values("$.store.book[?(@.isbn)].title") == .array([.string("Sword"), .string("Moby Dick")]))
        #expect(try values("$.store.book[?(@.price < 10)].title") == .array([.string("Sayings"), .string("Moby Dick")]))
        #expect(try values("$.store.book[?(@.category == 'fiction' && @.price > 10)].title") == .array([.string("Sword")]))
        #expect(try values("$.store.book[?(@.price < $.limit)].title") == .array([.string("Sayings"), .string("Moby Dick")]))
        #expect(try values("$.store.book[?(@.author =~ /.*melville/i)].title") == .array([.string("Moby Dick")]))
        #expect(try values("$.store.book[?(@.category in ['reference'])].title") == .array([.string("Sayings")]))
        #expect(try values("$.store.book[?(!(@.category == 'fiction'))].title") == .array([.string("Sayings")]))
        #expect(try values("$.store.book[?(@.title size 5)].title") == .array([.string("Sword")]))
    }

    @Test func functions() throws {
        #expect(try values("$.store.book.length()") == .integer(3))
        #expect(try values("$.store.book[*].price.max()") == .number(12.99), "after a wildcard, to everything selected")
        #expect(try values("$.store.bicycle.keys()") == .array([.string("color"), .string("price")]))
    }

    @Test func definiteness() throws {
        #expect(try WireMockJSONPath("$.store.book[0].title").isDefinite)
        #expect(try !WireMockJSONPath("$.store.book[*].title").isDefinite)
        #expect(try !WireMockJSONPath("$..title").isDefinite)
    }

    @Test func syntaxErrorsNameThePosition() {
        #expect(throws: JSONPathSyntaxError.self) { try WireMockJSONPath("store") }
        do {
            _ = try WireMockJSONPath("$.store[?(@.a == )]")
            Issue.record("an incomplete filter parsed")
        } catch let error as JSONPathSyntaxError {
            #expect(error.position > 10)
        } catch {
            Issue.record("\(error) is not a JSONPathSyntaxError")
        }
        #expect(throws: JSONPathSyntaxError.self) { try WireMockJSONPath("$.a.nope()") }
    }
}
