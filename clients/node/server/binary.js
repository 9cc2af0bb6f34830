"use strict";
// Which malachite binary @malachite/server runs, and why there is none: used by startMalachite()
// (index.js) and by the install-time check (install.js). Node's own modules only, so the check runs
// whatever else npm has placed.
const fs = require("node:fs");
const path = require("node:path");

// The platforms with a binary package, by `${process.platform}-${process.arch}`. Each holds one
// static executable, bin/malachite (Linux: it needs nothing of the system's C library, glibc and
// musl alike) or bin/malachite.exe (Windows: no DLL beyond Windows' own).
const kPlatformPackages = {
  "linux-x64": "@malachite/server-linux-x64",
  "linux-arm64": "@malachite/server-linux-arm64",
  "win32-x64": "@malachite/server-win32-x64",
};
// ELF e_machine values (the System V ABI's registry) and PE machine values (Microsoft's PE
// format) by the names Linux gives the machines; the machine of each process.arch, and the name of
// each process.platform, that has a binary package.
const kElfMachines = { 62: "x86_64", 183: "aarch64" };
const kPeMachines = { 0x8664: "x86_64", 0xaa64: "aarch64" };
const kMachineOfArch = { x64: "x86_64", arm64: "aarch64" };
const kSystemOfPlatform = { linux: "linux", win32: "windows" };
// How to get a binary when the package's will not do.
const kHowToGet =
  "set MALACHITE_BINARY to a malachite binary (bin/malachite of the release bundle " +
  "malachite-<version>-linux-<x86_64|aarch64>.tar.gz, malachite.exe of " +
  "malachite-<version>-windows-x86_64.zip) or pass { binary }, or run the container image " +
  "(@malachite/testcontainers)";

// The malachite binary to run, in this order: options.binary, MALACHITE_BINARY, the binary package
// of this platform. Throws a one-line Error naming the platform, the package and MALACHITE_BINARY
// when there is none, or when the one named is not an executable file of this machine.
function resolveBinary(binary) {
  if (binary !== undefined) return checkExecutable(binary, "options.binary");
  if (process.env.MALACHITE_BINARY) return checkExecutable(process.env.MALACHITE_BINARY, "MALACHITE_BINARY");
  return packagedBinary();
}

// bin/malachite (bin/malachite.exe on Windows) of this platform's binary package. Throws the
// one-line Error of resolveBinary when Malachite ships no package for this platform, when npm did
// not install it, or when its file is not an executable of this machine.
function packagedBinary() {
  const platform = `${process.platform}-${process.arch}`;
  const pkg = kPlatformPackages[platform];
  if (!pkg) {
    throw new Error(
      `@malachite/server: no Malachite binary for ${platform}: the binary packages are for ` +
        "linux-x64 and linux-arm64 (any libc: glibc or musl) and win32-x64; run the " +
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
  return checkExecutable(path.join(dir, "bin", process.platform === "win32" ? "malachite.exe" : "malachite"), pkg);
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
  // Linux refuses an ELF file of another machine, and the C library then hands it to /bin/sh,
  // whose syntax error would be all the user saw (or qemu runs it slowly, where binfmt is set
  // up); Windows refuses an ELF file or a PE file of another machine with a vague "spawn
  // UNKNOWN": say it here instead.
  const builtFor = builtForOf(resolved);
  const here = `${kSystemOfPlatform[process.platform]}-${kMachineOfArch[process.arch]}`;
  if (builtFor !== undefined && builtFor !== here) {
    throw new Error(
      `@malachite/server: ${from} names ${resolved}, a ${builtFor} binary, and this is ` +
        `${process.platform}-${process.arch}; ${kHowToGet}`,
    );
  }
  return resolved;
}

// What an executable is built for: "linux-x86_64" or "linux-e_machine 40" for an ELF file,
// "windows-x86_64" or "windows-machine 0x14c" for a PE file; undefined for anything else (a
// script, say).
function builtForOf(file) {
  const header = Buffer.alloc(64);
  let fd;
  let length;
  try {
    fd = fs.openSync(file, "r");
    length = fs.readSync(fd, header, 0, 64, 0);
    if (length >= 20 && header.readUInt32BE(0) === 0x7f454c46) {
      // "\x7fELF"; e_ident[EI_DATA] 1: little-endian, 2: big-endian
      const number = header[5] === 2 ? header.readUInt16BE(18) : header.readUInt16LE(18);
      return `linux-${kElfMachines[number] ?? `e_machine ${number}`}`;
    }
    if (length < 64 || header.toString("latin1", 0, 2) !== "MZ") return undefined;
    // The PE signature "PE\0\0" at the offset in 0x3c, the COFF header's machine after it.
    const pe = Buffer.alloc(6);
    if (fs.readSync(fd, pe, 0, 6, header.readUInt32LE(0x3c)) < 6 || pe.readUInt32BE(0) !== 0x50450000) return undefined;
    const machine = pe.readUInt16LE(4);
    return `windows-${kPeMachines[machine] ?? `machine 0x${machine.toString(16)}`}`;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

exports.resolveBinary = resolveBinary;
exports.packagedBinary = packagedBinary;
