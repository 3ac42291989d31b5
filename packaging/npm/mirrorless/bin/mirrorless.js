#!/usr/bin/env node
"use strict";
// `npx mirrorless …`: runs the native binary with the same arguments, standard streams and
// exit status. Exit status 2 when there is no binary for this machine.

const { spawnSync } = require("node:child_process");
const { findBinary } = require("../lib/platform.js");

const found = findBinary();
if (found.error) {
  process.stderr.write(`mirrorless (npm): error: ${found.error}\n`);
  process.exit(2);
}
const result = spawnSync(found.binary, process.argv.slice(2), { stdio: "inherit" });
if (result.error) {
  process.stderr.write(`mirrorless (npm): error: cannot run ${found.binary}: ${result.error.message}\n`);
  process.exit(2);
}
if (result.signal) {
  // Die of the same signal, so the caller sees what the binary saw.
  process.kill(process.pid, result.signal);
}
process.exit(result.status ?? 2);
