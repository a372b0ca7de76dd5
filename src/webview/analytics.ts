// The analytics webview's own code (browser bundle). Filled in by the analytics panel.
export {};
