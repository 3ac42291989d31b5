//! Whether git's global excludes file can hold a rule for the walk: `core.excludesFile` set in
//! one of the git configuration files `ignore` reads, or the default file
//! (`$XDG_CONFIG_HOME/git/ignore`, else `~/.config/git/ignore`) present.
//!
//! When neither is, `ignore`'s global matcher is empty, and the walk is built without it
//! (`git_global(false)`), which walks the same files: building it compiles the pattern that
//! finds `excludesFile` in a configuration file, 0.4–0.6 ms of CPU at the start of every run,
//! which the walk waited for (issue 32 item 1). The test is a superset of `ignore`'s own: the
//! word anywhere in a file, in any case, where `ignore` wants it at the start of a line; a
//! file that exists but cannot be read counts as holding it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The answer a one-shot command keeps for the rest of its process ([`remember`]).
static REMEMBERED: OnceLock<bool> = OnceLock::new();

/// Whether the global excludes file can hold a rule (see the module): what the process
/// remembered, else asked of the file system now, so that a process that lives on (the
/// language server) sees a configuration changed since its last walk.
pub(crate) fn possible() -> bool {
    REMEMBERED.get().copied().unwrap_or_else(ask)
}

/// Asks once and keeps the answer for every later walk of the process: for a one-shot command
/// (`mirrorless lint`, from its pool's warm-up).
pub(crate) fn remember() -> bool {
    *REMEMBERED.get_or_init(ask)
}

fn ask() -> bool {
    #[allow(deprecated)]
    let home = std::env::home_dir();
    possible_in(&|name| std::env::var_os(name), home.as_deref())
}

/// [`possible`] for the environment `var` and the home directory `home`, the way `ignore`
/// 0.4 finds the files: `$GIT_CONFIG_GLOBAL`, `~/.gitconfig`, `$XDG_CONFIG_HOME/git/config`
/// (else `~/.config/git/config`), `$GIT_CONFIG_SYSTEM` (else `/etc/gitconfig`); an empty
/// variable counts as unset.
fn possible_in(var: &dyn Fn(&str) -> Option<OsString>, home: Option<&Path>) -> bool {
    let set = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let config_dir = set("XDG_CONFIG_HOME").or_else(|| home.map(|h| h.join(".config")));
    let configs = [
        set("GIT_CONFIG_GLOBAL"),
        home.map(|h| h.join(".gitconfig")),
        config_dir.as_ref().map(|d| d.join("git/config")),
        Some(set("GIT_CONFIG_SYSTEM").unwrap_or_else(|| PathBuf::from("/etc/gitconfig"))),
    ];
    let names_it = |path: &Path| match std::fs::read(path) {
        Ok(bytes) => bytes
            .windows(b"excludesfile".len())
            .any(|w| w.eq_ignore_ascii_case(b"excludesfile")),
        Err(e) => e.kind() != std::io::ErrorKind::NotFound,
    };
    configs.iter().flatten().any(|p| names_it(p))
        || config_dir.is_some_and(|d| d.join("git/ignore").exists())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A home directory, a configuration directory and a system file to point the
    /// variables at, each written or not.
    struct Setup {
        _dir: tempfile::TempDir,
        home: PathBuf,
        vars: HashMap<&'static str, OsString>,
    }

    fn setup(files: &[(&str, &str)], vars: &[(&'static str, &str)]) -> Setup {
        let dir = tempfile::tempdir().expect("temp dir");
        for (rel, text) in files {
            let p = dir.path().join(rel);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("dirs");
            std::fs::write(&p, text).expect("write");
        }
        let at = |v: &str| dir.path().join(v).into_os_string();
        let vars = vars
            .iter()
            .map(|(k, v)| (*k, if v.is_empty() { OsString::new() } else { at(v) }))
            .collect();
        Setup {
            home: dir.path().join("home"),
            _dir: dir,
            vars,
        }
    }

    /// Every case with the system file pointed at a missing file, so that the machine's own
    /// `/etc/gitconfig` plays no part.
    /// Files written (path under the temporary directory, text), variables set (name, path
    /// under it; empty: set empty), and whether a rule is possible.
    type Case = (
        &'static [(&'static str, &'static str)],
        &'static [(&'static str, &'static str)],
        bool,
    );

    const CASES: &[Case] = &[
        (&[], &[], false),
        (&[("home/.gitconfig", "[user]\n\tname = x\n")], &[], false),
        (
            &[("home/.gitconfig", "[core]\n\texcludesFile = ~/g\n")],
            &[],
            true,
        ),
        (
            &[("home/.gitconfig", "[core]\nEXCLUDESFILE=/g\n")],
            &[],
            true,
        ),
        (
            &[("home/.config/git/config", "[core]\n excludesfile = /g\n")],
            &[],
            true,
        ),
        (&[("home/.config/git/ignore", "*.log\n")], &[], true),
        (
            &[("xdg/git/ignore", "*.log\n")],
            &[("XDG_CONFIG_HOME", "xdg")],
            true,
        ),
        // The variable moves the default: a file under `~/.config` is not read then.
        (
            &[("home/.config/git/ignore", "*.log\n")],
            &[("XDG_CONFIG_HOME", "xdg")],
            false,
        ),
        // Empty is unset.
        (
            &[("home/.config/git/ignore", "*.log\n")],
            &[("XDG_CONFIG_HOME", "")],
            true,
        ),
        (
            &[("g.cfg", "[core]\nexcludesfile = /g\n")],
            &[("GIT_CONFIG_GLOBAL", "g.cfg")],
            true,
        ),
        (
            &[("s.cfg", "[core]\nexcludesfile = /g\n")],
            &[("GIT_CONFIG_SYSTEM", "s.cfg")],
            true,
        ),
        (
            &[("s.cfg", "[user]\nname = x\n")],
            &[("GIT_CONFIG_SYSTEM", "s.cfg")],
            false,
        ),
    ];

    fn with_system_missing<'a>(
        vars: &'a [(&'static str, &'a str)],
    ) -> Vec<(&'static str, &'a str)> {
        let mut v = vars.to_vec();
        if !v.iter().any(|(k, _)| *k == "GIT_CONFIG_SYSTEM") {
            v.push(("GIT_CONFIG_SYSTEM", "no-such-system-config"));
        }
        v
    }

    /// The cases, by the predicate alone.
    #[test]
    fn finds_a_setting_or_the_default_file() {
        for (files, vars, want) in CASES {
            let s = setup(files, &with_system_missing(vars));
            let got = possible_in(&|n| s.vars.get(n).cloned(), Some(&s.home));
            assert_eq!(got, *want, "{files:?} {vars:?}");
        }
        // A configuration file that cannot be read counts as naming it.
        let s = setup(&[("home/.gitconfig/x", "")], &with_system_missing(&[]));
        assert!(possible_in(&|n| s.vars.get(n).cloned(), Some(&s.home)));
    }

    /// Whenever the predicate says no rule is possible, `ignore` itself builds an empty global
    /// matcher: asked of `ignore` in a child process (this test binary, running
    /// [`global_matcher_size`]) with the case's variables and home, so that a later `ignore`
    /// reading one more file is caught.
    #[test]
    fn ignore_agrees_where_no_rule_is_possible() {
        let exe = std::env::current_exe().expect("test binary");
        let mut asked = 0;
        for (files, vars, want) in CASES {
            let s = setup(files, &with_system_missing(vars));
            // `ignore` reads these files for the default case too: `HOME` is the home.
            let mut cmd = std::process::Command::new(&exe);
            cmd.args([
                "--exact",
                "walk::global_excludes::tests::global_matcher_size",
                "--ignored",
                "--nocapture",
            ]);
            for k in ["XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"] {
                cmd.env_remove(k);
            }
            cmd.env("HOME", &s.home).envs(&s.vars);
            let out = cmd.output().expect("child test");
            let text = String::from_utf8_lossy(&out.stdout);
            let size: usize = text
                .lines()
                .find_map(|l| l.strip_prefix("global matcher size: "))
                .and_then(|n| n.trim().parse().ok())
                .unwrap_or_else(|| panic!("no size from the child:\n{text}"));
            if !want {
                assert_eq!(size, 0, "{files:?} {vars:?}");
                asked += 1;
            } else if files.iter().any(|(_, t)| t.contains("*.log")) {
                // The child read the environment it was given: the rule file it names counts.
                assert!(size > 0, "{files:?} {vars:?}");
                asked += 1;
            }
        }
        assert!(asked >= 7, "{asked}");
    }

    /// In the environment the tests run in as well.
    #[test]
    fn ignore_agrees_here() {
        if !possible() {
            let (gi, _) = ignore::gitignore::Gitignore::global();
            assert_eq!(gi.num_ignores() + gi.num_whitelists(), 0);
        }
    }

    /// Run by [`ignore_agrees_where_no_rule_is_possible`] in a child process: prints the size
    /// of `ignore`'s global matcher in this process's environment.
    #[test]
    #[ignore = "run by ignore_agrees_where_no_rule_is_possible in a child process"]
    fn global_matcher_size() {
        let (gi, _) = ignore::gitignore::Gitignore::global();
        println!(
            "global matcher size: {}",
            gi.num_ignores() + gi.num_whitelists()
        );
    }
}
