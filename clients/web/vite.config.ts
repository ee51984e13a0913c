// Builds the page into the Python package (server/flotilla/web/static), where the gateway's
// browser listener serves it. FLOTILLA_WEB_OUT builds elsewhere (tests/web/test_bundle.py).
import { fileURLToPath } from "node:url";

import { defineConfig } from "vite";

const out = process.env.FLOTILLA_WEB_OUT ?? fileURLToPath(new URL("../../server/flotilla/web/static", import.meta.url));

export default defineConfig({
  base: "./",
  resolve: {
    conditions: ["source"], // @flotilla/client/browser from its TypeScript sources (no dist/ build)
    preserveSymlinks: true, // ...whose imports resolve from this package's node_modules
  },
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: out,
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    reportCompressedSize: false,
  },
});
