// Generates src/gen/ from ../../proto with buf (buf.gen.yaml). `--check` generates into a
// temporary folder and fails when src/gen/ differs from it (the code is committed).
//
// The contract imports google/rpc and google/api protos, vendored in proto/third_party/; they are
// staged beside proto/flotilla in one folder, so buf resolves every import from a single module.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = dirname(dirname(fileURLToPath(import.meta.url)));
const protoRoot = join(pkg, "..", "..", "proto");
const check = process.argv.includes("--check");

function stage() {
  const dir = mkdtempSync(join(tmpdir(), "flotilla-proto-"));
  cpSync(join(protoRoot, "flotilla"), join(dir, "flotilla"), { recursive: true });
  cpSync(join(protoRoot, "third_party", "google"), join(dir, "google"), { recursive: true });
  return dir;
}

function files(root) {
  const out = new Map();
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(relative(root, path), readFileSync(path, "utf8"));
    }
  };
  if (existsSync(root)) walk(root);
  return out;
}

const staged = stage();
const out = check ? mkdtempSync(join(tmpdir(), "flotilla-gen-")) : pkg;
try {
  if (!check) rmSync(join(pkg, "src", "gen"), { recursive: true, force: true });
  const buf = join(pkg, "node_modules", ".bin", "buf");
  const env = { ...process.env, PATH: `${join(pkg, "node_modules", ".bin")}:${process.env.PATH}` };
  execFileSync(buf, ["generate", staged, "--template", join(pkg, "buf.gen.yaml"), "-o", out], {
    cwd: pkg,
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (check) {
    const want = files(join(out, "src", "gen"));
    const have = files(join(pkg, "src", "gen"));
    const stale = [...new Set([...want.keys(), ...have.keys()])].filter((f) => want.get(f) !== have.get(f));
    if (stale.length > 0) {
      console.error(`src/gen/ is out of date with proto/ (run npm run generate): ${stale.sort().join(", ")}`);
      process.exit(1);
    }
    console.log(`src/gen/ is in sync with proto/ (${want.size} files)`);
  }
} finally {
  rmSync(staged, { recursive: true, force: true });
  if (check) rmSync(out, { recursive: true, force: true });
}
