@_exported import URLStubs
