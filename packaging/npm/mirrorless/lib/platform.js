"use strict";
// Finds the native mirrorless binary for this machine: it comes from the platform package
// `@mirrorless/cli-<platform>-<arch>` that npm installed as an optional dependency (npm skips
// the ones whose `os`/`cpu` do not match). This file holds no other logic.

const { optionalDependencies } = require("../package.json");

/** The platform package for a Node `process.platform` and `process.arch`. */
function packageName(platform, arch) {
  return `@mirrorless/cli-${platform}-${arch}`;
}

/** Every platform package there is a binary for. */
function supported() {
  return Object.keys(optionalDependencies);
}

/**
 * The path of the binary, or an error message saying why there is none.
 * @returns {{ binary: string } | { error: string }}
 */
function findBinary(platform = process.platform, arch = process.arch) {
  const name = packageName(platform, arch);
  if (!supported().includes(name)) {
    const list = supported().map((p) => p.replace("@mirrorless/cli-", "")).join(", ");
    return {
      error:
        `mirrorless has no prebuilt binary for ${platform}-${arch} (there are: ${list}).\n` +
        "Build it from source instead: cargo install --locked mirrorless (Rust 1.95).",
    };
  }
  const exe = platform === "win32" ? "mirrorless.exe" : "mirrorless";
  try {
    return { binary: require.resolve(`${name}/bin/${exe}`) };
  } catch {
    const version = optionalDependencies[name];
    const tarball = `${name.replace("@", "").replace("/", "-")}-${version}.tgz`;
    return {
      error:
        `the platform package ${name}, which holds the mirrorless binary for ${platform}-${arch}, is not installed.\n` +
        `Install it next to mirrorless: npm install --save-dev ${name}@${version}\n` +
        `(from a release's files instead of the registry: npm install ./${tarball} ./mirrorless-${version}.tgz).\n` +
        "npm leaves it out under --omit=optional / --no-optional, or when the lockfile was made on another platform.",
    };
  }
}

module.exports = { findBinary, packageName, supported };
