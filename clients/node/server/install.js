"use strict";
// @malachite/server's postinstall: checks that npm installed this platform's binary package and,
// when it did not (another OS or CPU, --omit=optional, a lock file made elsewhere), says so in one
// line. It never fails the install and fetches nothing (esbuild's install.js downloads the package
// instead; a test runner can do without, e.g. with MALACHITE_BINARY or the container image):
// startMalachite() throws the same line when it is called.
//
// npm 7+ keeps the output of a dependency's install script to itself unless the script fails (or
// --foreground-scripts is given), so the line also goes to the terminal npm runs in, when there is
// one. With MALACHITE_BINARY set at install time there is nothing to say: that binary is the one
// startMalachite() runs.
const fs = require("node:fs");
const { packagedBinary } = require("./binary.js");

function report(line) {
  process.stderr.write(`${line}\n`);
  if (process.stderr.isTTY) return;
  try {
    // From the start of a cleared line: npm may have drawn its progress spinner there.
    fs.writeFileSync("/dev/tty", `\r\x1b[2K${line}\n`);
  } catch {
    // no controlling terminal (CI): the output above is all there is
  }
}

if (!process.env.MALACHITE_BINARY) {
  try {
    packagedBinary();
  } catch (e) {
    report(e.message);
  }
}
