// The WidgetKit SDK of Sandglass: Apple's WidgetKit API shapes, served over the Sandglass IPC
// channel to the host that plays the system side.
//
// Apple code receives Foundation through SwiftUI and WidgetKit, so this module re-exports it, and
// DeveloperToolsSupport, whose `Preview` the `#Preview` macros of a file that imports WidgetKit
// alone expand to.
// It never imports FoundationNetworking: the SDK's own networking types take those names.

@_exported import DeveloperToolsSupport
@_exported import Foundation
