// Usage: node prune-node-modules.js <node_modules>
// Removes what `require` never loads from the image's node_modules (npm ci --omit=dev of the
// repository's package-lock.json, scripts/azurite-image-root): the ES-module and browser builds beside a package's CommonJS "main" (OpenTelemetry and
// the Azure SDKs ship two or three builds of everything), source maps and TypeScript
// declarations. Azurite is CommonJS and loads its dependencies with require(), so this cuts
// node_modules from about 360 MB to 120 MB without changing what runs; the image's tests
// (tests/docker/test_azurite_image.py) exercise Blob and Queue from the pruned tree. Prints what it removed.
"use strict";
const fs = require("fs");
const path = require("path");

const kOtherBuilds = ["build/esm", "build/esnext", "dist/esm", "dist/browser", "dist/react-native",
  "dist-esm", "dist/commonjs-browser"];
const kUnused = /\.(map|d\.ts|d\.mts|d\.cts)$/;

let dirs = 0;
let files = 0;
function Walk(dir) {
  const entries = fs.readdirSync(dir, { withFileTypes: true });
  if (entries.some((e) => e.isFile() && e.name === "package.json")) PrunePackage(dir);
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && fs.existsSync(full)) {
      Walk(full);
    } else if (entry.isFile() && kUnused.test(entry.name)) {
      fs.rmSync(full);
      files++;
    }
  }
}

// Keeps the build a package's "main" (what require() loads) lives in.
function PrunePackage(dir) {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  } catch {
    return;
  }
  if (manifest.type === "module") return;  // an ES-module package: its builds are what it loads
  const main = path.normalize(String(manifest.main || "index.js"));
  for (const build of kOtherBuilds) {
    const full = path.join(dir, build);
    if (fs.existsSync(full) && !main.startsWith(path.normalize(build) + path.sep)) {
      fs.rmSync(full, { recursive: true });
      dirs++;
    }
  }
}

Walk(process.argv[2]);
console.log(`prune-node-modules: removed ${dirs} ES-module/browser builds and ${files} .map/.d.ts files`);
