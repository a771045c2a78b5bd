//
//  RelayWidgets.swift
//  RelayWidget
//
//  The extension's entry point: both widgets of Relay.app.
//

import WidgetKit

@main
struct RelayWidgets: WidgetBundle {
    var body: some Widget {
        RelayStatusWidget()
        LegWidget()
    }
}
