// What a node:test test does when something it needs is missing here (a Docker engine, a platform
// package). Locally it skips and says why; where the need is declared (CI sets
// MALACHITE_DOCKER_REQUIRED=1, MALACHITE_PACKAGE_REQUIRED=1, MALACHITE_REQUIRE_ARM64=1) the same
// absence fails the test: CI can install what is missing, so a skip there would hide a check.
//
//   import { unavailable } from "../../support/required.mjs";
//   if (!engine.ok) return unavailable(t, "MALACHITE_DOCKER_REQUIRED", `no Docker engine: ${engine.why}`);
import assert from "node:assert/strict";

export function isRequired(variable) {
  return process.env[variable] === "1";
}

// t: the node:test context. Throws (fails the test) when `variable` is 1, else marks it skipped.
export function unavailable(t, variable, why) {
  assert.ok(!isRequired(variable), `${variable}=1 but ${why}`);
  t.skip(why);
}
