import Foundation
import URLStubs

/// Multipart bodies, as far as an add-on reads them (the OpenAPI checker compares a request's
/// part names with the schema's properties).
package enum MultipartPartNames {
    /// The form field name of each part of `body` (`nil` for a part without one), in order;
    /// throws, saying where and why, when `body` is not the multipart document `contentType`
    /// announces.
    package static func of(_ body: Data, contentType: String) throws -> [String?] {
        try MultipartBody(body, contentType: contentType).parts.map(\.name)
    }
}
