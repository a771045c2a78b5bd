// The WidgetKit SDK of Sandglass: Apple's WidgetKit API shapes, served over the Sandglass IPC
// channel to the host that plays the system side.
//
// Apple code receives Foundation through SwiftUI and WidgetKit, so this module re-exports it.
// It never imports FoundationNetworking: the SDK's own networking types take those names.

@_exported import Foundation
