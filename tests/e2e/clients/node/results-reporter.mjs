// A node:test reporter for the suites packed_install.test.mjs runs in its clean project: one JSON
// line per finished test ({ name, file, ok, skip, error }), the name led by its describe()s, so that the
// outer runner reports each inner test under its own name with its own failure message.
export default async function* results(source) {
  const path = [];
  for await (const { type, data } of source) {
    if (type === "test:start") path[data.nesting] = data.name;
    if (type !== "test:pass" && type !== "test:fail") continue;
    if (data.details?.type === "suite") continue; // a describe(): its tests are reported
    const name = [...path.slice(0, data.nesting), data.name].join(" > ");
    const error = data.details?.error;
    yield `${JSON.stringify({
      name,
      file: data.file,
      ok: type === "test:pass",
      skip: data.skip ?? false,
      error: error === undefined ? undefined : firstFrame(String(error.cause?.stack ?? error.cause ?? error.message ?? error)),
    })}\n`;
  }
}

// The message and the first frame of a stack (the test's own line), not the runner's frames.
function firstFrame(stack) {
  const lines = stack.split("\n");
  const frame = lines.findIndex((l) => /^\s+at /.test(l));
  return frame < 0 ? stack : lines.slice(0, frame + 1).join("\n");
}
