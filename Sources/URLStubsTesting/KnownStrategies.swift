import URLStubsGraphQL
import URLStubs

/// Every request strategy the package ships, registered when a test's registry is made, so a
/// test that never names GraphQL or multipart still gets such an unmatched request described,
/// with the stub to type (a strategy otherwise registers on first use of its own API).
enum KnownStrategies {
    static func register() {
        // GraphQL registers the multipart strategy it reads uploads through.
        GraphQLStrategy.register()
    }
}
