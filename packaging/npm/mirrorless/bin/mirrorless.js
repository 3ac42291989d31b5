#!/usr/bin/env node
"use strict";
// `npx mirrorless …`: runs the native binary with the same arguments (untouched: a `--` and
// the file names after it reach the binary as given), standard streams and exit status. Exit
// status 2 when there is no binary for this machine.
//
// Signals: the launcher forwards every catchable signal it gets to the binary (so SIGUSR1 is
// the binary's, and never opens Node's inspector), and when the binary dies of a signal the
// launcher dies of the same one, as a shell or Node's own wrappers do (`foreground-child`).

const { spawn } = require("node:child_process");
const { constants } = require("node:os");
const { findBinary } = require("../lib/platform.js");

// Forwarded to the binary. SIGKILL and SIGSTOP cannot be caught; SIGPIPE, SIGCHLD and the
// terminal-stop signals are about the launcher itself.
const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGWINCH"];

const found = findBinary();
if (found.error) {
  process.stderr.write(`mirrorless (npm): error: ${found.error}\n`);
  process.exit(2);
}

// A listener replaces Node's default action for the signal (SIGUSR1: start the inspector;
// SIGINT/SIGTERM: exit before the binary has cleaned up).
let child = null;
const forwarders = new Map();
for (const signal of process.platform === "win32" ? ["SIGINT", "SIGTERM"] : FORWARDED) {
  const forward = () => {
    if (child !== null && child.exitCode === null && child.signalCode === null) {
      try {
        child.kill(signal);
      } catch {
        // The binary has just exited: its status follows.
      }
    }
  };
  forwarders.set(signal, forward);
  process.on(signal, forward);
}

child = spawn(found.binary, process.argv.slice(2), { stdio: "inherit" });

child.on("error", (error) => {
  process.stderr.write(`mirrorless (npm): error: cannot run ${found.binary}: ${error.message}\n`);
  process.exit(2);
});

child.on("exit", (code, signal) => {
  if (signal === null) {
    process.exit(code ?? 2);
  }
  // Die of the same signal, so the caller sees what the binary saw: the default action must
  // be back first (no listener of ours; Node ignores SIGPIPE, a listener then its removal
  // restores the default).
  for (const [name, forward] of forwarders) {
    process.removeListener(name, forward);
  }
  if (signal === "SIGPIPE") {
    process.on("SIGPIPE", () => {});
    process.removeAllListeners("SIGPIPE");
  }
  try {
    process.kill(process.pid, signal);
  } catch {
    // Cannot raise it: the shell convention instead.
  }
  // A signal whose default action is not to terminate (or one delivered late) must not leave
  // the launcher running or exiting 0.
  setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), 1000);
});
