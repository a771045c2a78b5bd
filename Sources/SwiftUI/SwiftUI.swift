// The SwiftUI of Sandglass: the subset of Apple's SwiftUI that WidgetKit permits — views,
// view builders, modifiers, the environment — with Apple's names and generic shapes, so that a
// widget's views compile unchanged. A widget is not an interactive app: nothing here scrolls,
// navigates, animates or keeps state, and whatever this subset lacks fails to compile with
// Apple's name in the error rather than rendering wrong.
//
// The SDK evaluates each entry's view in the extension's process and lays it out at the
// widget family's size (the `Rendering` and `Layout` folders); the host draws the result.
//
// Apple code receives Foundation through SwiftUI, so this module re-exports it, and
// DeveloperToolsSupport (`Preview`, `PreviewTrait`), as Apple's SwiftUI does.

@_exported import DeveloperToolsSupport
@_exported import Foundation
