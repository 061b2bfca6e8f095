import Foundation

extension JSONValue {
    /// Why `data` is not JSON, as a report says it after "the file" (`is not valid JSON:
    /// expected … at line 3, column 7 (byte 20)`, or that it is nested too deep); `nil` when it
    /// is JSON.
    @_spi(AddOns) public static func verdict(on data: Data) -> String? {
        problem(in: data)?.verdict
    }

    /// How ``verdict(on:)`` says `error`, when it is the error of a JSON text that
    /// `parsing(_:)` rejected; `nil` for any other error.
    @_spi(AddOns) public static func verdict(of error: any Error) -> String? {
        (error as? JSONSyntaxError)?.verdict
    }
}
