// CoreLocation for Sandglass: Apple's location API shapes for widget extensions, served by the
// host over the extension's IPC channel. `import CoreLocation` resolves to this module; it
// comes with the `WidgetKit` library product.
//
// The host decides what a widget gets: the containing app's authorization, whether the user
// extended it to widgets, whether the extension sets NSWidgetWantsLocation, and whether the
// widget is "in use" (visible, or visible within the last 15 minutes).

@_exported import Foundation
