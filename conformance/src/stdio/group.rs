//! Whether a process group still has a process that can do anything.
//!
//! `kill(-pgid, 0)` succeeds while any process of the group exists, zombies included. A
//! grandchild the implementation left behind is reparented to the system's init when the
//! implementation exits, and its zombie lasts until init reaps it: at once under systemd or
//! tini, only every second or so under some VM and container inits, never under a container
//! whose first process does not reap (Docker without `--init`). Counting that zombie as alive
//! made every stop of such a group wait out the whole SIGTERM grace for a process that had
//! already died. A zombie holds no descriptor (the implementation's stdout pipe included) and
//! runs no code, so it is no reason to wait.

/// Whether the group `pgid` (> 1) has a member that is not a zombie. Where the process table
/// cannot be read (no `/proc`), any member counts, as `kill(-pgid, 0)` sees it.
#[cfg(unix)]
pub(super) fn has_live_member(pgid: libc::pid_t) -> bool {
    // SAFETY: kill(2) with a negative pid and signal 0 only asks whether that group exists.
    if pgid <= 1 || unsafe { libc::kill(-pgid, 0) } != 0 {
        return false;
    }
    #[cfg(target_os = "linux")]
    if let Some(live) = proc_table_has_live_member(pgid) {
        return live;
    }
    true
}

/// Reads `/proc/<pid>/stat` of every process: `Some(true)` at the first member of `pgid` that
/// is neither a zombie nor dead, `Some(false)` if there is none, `None` if `/proc` cannot be
/// listed. A process that ends while the table is read is simply not there.
#[cfg(target_os = "linux")]
fn proc_table_has_live_member(pgid: libc::pid_t) -> Option<bool> {
    let entries = std::fs::read_dir("/proc").ok()?;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        if let Some((state, group)) = state_and_group(&stat)
            && group == pgid
            && !matches!(state, 'Z' | 'X' | 'x')
        {
            return Some(true);
        }
    }
    Some(false)
}

/// The state letter and process group of a `/proc/<pid>/stat` line: `pid (comm) state ppid
/// pgrp …`, where `comm` may hold spaces and parentheses, so the fields are counted from the
/// last `)`.
#[cfg(target_os = "linux")]
fn state_and_group(stat: &str) -> Option<(char, libc::pid_t)> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_ascii_whitespace();
    let state = fields.next()?.chars().next()?;
    let _ppid = fields.next()?;
    let group = fields.next()?.parse().ok()?;
    Some((state, group))
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::Command;
    use std::time::{Duration, Instant};

    #[test]
    fn a_command_name_with_spaces_and_parentheses_is_skipped_whole() {
        assert_eq!(
            state_and_group("42 (a) b (c) S 1 77 77 0 -1"),
            Some(('S', 77))
        );
        assert_eq!(state_and_group("42 (x) Z 1 9"), Some(('Z', 9)));
        assert_eq!(state_and_group("42 (x"), None);
        assert_eq!(state_and_group("42 (x) R 1 notanumber"), None);
    }

    /// The case that made stops slow: the group's one process died and nobody has reaped it.
    /// This test is its parent and reaps it only at the end, so the zombie stays for as long
    /// as the assertions need, whatever the machine's init does.
    #[test]
    fn a_group_of_one_zombie_has_no_live_member_a_running_group_has_one() {
        let mut child = Command::new("sleep")
            .arg("60")
            .process_group(0)
            .spawn()
            .expect("sleep starts");
        let pgid = libc::pid_t::try_from(child.id()).expect("a pid fits");
        assert!(has_live_member(pgid), "a sleeping process is alive");
        // SAFETY: signals the group of the child this test just started.
        assert_eq!(unsafe { libc::kill(-pgid, libc::SIGTERM) }, 0);
        let stat = format!("/proc/{pgid}/stat");
        let until = Instant::now() + Duration::from_secs(30);
        while !std::fs::read_to_string(&stat).is_ok_and(|s| s.contains(") Z ")) {
            assert!(Instant::now() < until, "the child never became a zombie");
            std::thread::sleep(Duration::from_millis(5));
        }
        // SAFETY: as above; signal 0 only asks.
        assert_eq!(
            unsafe { libc::kill(-pgid, 0) },
            0,
            "kill(2) still sees the zombie"
        );
        assert!(!has_live_member(pgid), "a zombie is not a live member");
        child.wait().expect("reaped");
        assert!(!has_live_member(pgid), "an empty group has no member");
    }

    #[test]
    fn no_group_at_or_below_one_is_ever_asked() {
        assert!(!has_live_member(0));
        assert!(!has_live_member(1));
        assert!(!has_live_member(-5));
    }
}
