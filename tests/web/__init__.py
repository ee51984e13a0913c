"""The browser tests (a package, so that their stack and Chromium are package-scoped)."""
