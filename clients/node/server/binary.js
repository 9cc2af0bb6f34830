"use strict";
// Which malachite binary @malachite/server runs, and why there is none: used by startMalachite()
// (index.js) and by the install-time check (install.js). Node's own modules only, so the check runs
// whatever else npm has placed.
const fs = require("node:fs");
const path = require("node:path");

// The platforms with a binary package, by `${process.platform}-${process.arch}`. Each holds one
// static executable that needs nothing of the system's C library: glibc and musl alike.
const kPlatformPackages = {
  "linux-x64": "@malachite/server-linux-x64",
  "linux-arm64": "@malachite/server-linux-arm64",
};
// ELF e_machine values (the System V ABI's registry) by the names Linux gives the machines, and
// the machine of each process.arch that has a binary package.
const kElfMachines = { 62: "x86_64", 183: "aarch64" };
const kMachineOfArch = { x64: "x86_64", arm64: "aarch64" };
// How to get a binary when the package's will not do.
const kHowToGet =
  "set MALACHITE_BINARY to a malachite binary (bin/malachite of the release bundle " +
  "malachite-<version>-linux-<x86_64|aarch64>.tar.gz) or pass { binary }, or run the container " +
  "image (@malachite/testcontainers)";

// The malachite binary to run, in this order: options.binary, MALACHITE_BINARY, the binary package
// of this platform. Throws a one-line Error naming the platform, the package and MALACHITE_BINARY
// when there is none, or when the one named is not an executable file of this machine.
function resolveBinary(binary) {
  if (binary !== undefined) return checkExecutable(binary, "options.binary");
  if (process.env.MALACHITE_BINARY) return checkExecutable(process.env.MALACHITE_BINARY, "MALACHITE_BINARY");
  return packagedBinary();
}

// bin/malachite of this platform's binary package. Throws the one-line Error of resolveBinary when
// Malachite ships no package for this platform, when npm did not install it, or when its file is
// not an executable of this machine.
function packagedBinary() {
  const platform = `${process.platform}-${process.arch}`;
  const pkg = kPlatformPackages[platform];
  if (!pkg) {
    throw new Error(
      `@malachite/server: no Malachite binary for ${platform}: the binary packages are for ` +
        `${Object.keys(kPlatformPackages).join(" and ")} (any libc: glibc or musl); run the ` +
        `container image (@malachite/testcontainers), or set MALACHITE_BINARY (or pass { binary }) ` +
        `to a malachite binary that runs here`,
    );
  }
  let dir;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    throw new Error(
      `@malachite/server: the binary package ${pkg} for ${platform} is not installed (an optional ` +
        `dependency of @malachite/server: installed with --omit=optional, or the lock file was ` +
        `made on another platform?); reinstall @malachite/server on this platform, or ${kHowToGet}`,
    );
  }
  return checkExecutable(path.join(dir, "bin", "malachite"), pkg);
}

function checkExecutable(file, from) {
  const resolved = path.resolve(file);
  let stat;
  try {
    stat = fs.statSync(resolved);
  } catch (e) {
    throw new Error(`@malachite/server: ${from} names ${resolved}, which does not exist (${e.code})`);
  }
  if (!stat.isFile()) throw new Error(`@malachite/server: ${from} names ${resolved}, which is not a file`);
  try {
    fs.accessSync(resolved, fs.constants.X_OK);
  } catch {
    throw new Error(`@malachite/server: ${from} names ${resolved}, which is not executable (chmod +x it)`);
  }
  // The kernel refuses an ELF file of another machine, and the C library then hands it to
  // /bin/sh, whose syntax error would be all the user saw (or qemu runs it slowly, where binfmt
  // is set up): say it here instead.
  const builtFor = elfMachine(resolved);
  if (builtFor !== undefined && (process.platform !== "linux" || builtFor !== kMachineOfArch[process.arch])) {
    throw new Error(
      `@malachite/server: ${from} names ${resolved}, a linux-${builtFor} binary, and this is ` +
        `${process.platform}-${process.arch}; ${kHowToGet}`,
    );
  }
  return resolved;
}

// The machine an ELF file is built for ("x86_64", "aarch64", "e_machine 40"), or undefined when
// the file is not ELF (a script, say).
function elfMachine(file) {
  const header = Buffer.alloc(20);
  let fd;
  try {
    fd = fs.openSync(file, "r");
    if (fs.readSync(fd, header, 0, 20, 0) < 20) return undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
  if (header.readUInt32BE(0) !== 0x7f454c46) return undefined; // "\x7fELF"
  // e_ident[EI_DATA] 1: little-endian, 2: big-endian
  const number = header[5] === 2 ? header.readUInt16BE(18) : header.readUInt16LE(18);
  return kElfMachines[number] ?? `e_machine ${number}`;
}

exports.resolveBinary = resolveBinary;
exports.packagedBinary = packagedBinary;
