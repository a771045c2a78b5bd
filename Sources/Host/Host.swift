enum SandglassHostPlaceholder {}
