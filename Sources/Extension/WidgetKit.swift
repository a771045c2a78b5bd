// The WidgetKit SDK.
