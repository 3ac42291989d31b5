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

/// The last live member a check of a group found (0: none yet). While a group stays up — a
/// grandchild that ignores SIGTERM, checked every few milliseconds of the grace — a check
/// then reads that one process's entry, not the whole process table.
#[derive(Debug, Default)]
pub(super) struct LastLive(std::sync::atomic::AtomicI32);

/// Whether the group `pgid` (> 1) has a member that is not a zombie. Where the process table
/// cannot be read (no `/proc`), any member counts, as `kill(-pgid, 0)` sees it.
#[cfg(unix)]
pub(super) fn has_live_member(pgid: libc::pid_t, last: &LastLive) -> bool {
    // SAFETY: kill(2) with a negative pid and signal 0 only asks whether that group exists.
    if pgid <= 1 || unsafe { libc::kill(-pgid, 0) } != 0 {
        return false;
    }
    #[cfg(target_os = "linux")]
    {
        use std::sync::atomic::Ordering::Relaxed;
        let hint = last.0.load(Relaxed);
        if hint > 0 && live_member_of(&hint.to_string(), pgid) {
            return true;
        }
        if let Some(found) = proc_table_live_member(pgid) {
            last.0.store(found.unwrap_or(0), Relaxed);
            return found.is_some();
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = last;
    true
}

/// The first member of `pgid` in the process table that is neither a zombie nor dead:
/// `Some(None)` if there is none, `None` if `/proc` cannot be listed. A process that ends while
/// the table is read is simply not there.
#[cfg(target_os = "linux")]
fn proc_table_live_member(pgid: libc::pid_t) -> Option<Option<libc::pid_t>> {
    let entries = std::fs::read_dir("/proc").ok()?;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        if live_member_of(pid, pgid) {
            return Some(pid.parse().ok());
        }
    }
    Some(None)
}

/// Whether process `pid` (its `/proc` name) is in group `pgid` and neither a zombie nor dead.
#[cfg(target_os = "linux")]
fn live_member_of(pid: &str, pgid: libc::pid_t) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        state_and_group(&stat)
            .is_some_and(|(state, group)| group == pgid && !matches!(state, 'Z' | 'X' | 'x'))
    })
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
        let last = LastLive::default();
        assert!(has_live_member(pgid, &last), "a sleeping process is alive");
        assert_eq!(
            last.0.load(std::sync::atomic::Ordering::Relaxed),
            pgid,
            "the live member found is remembered"
        );
        assert!(has_live_member(pgid, &last), "and found again");
        // SAFETY: signals the group of the child this test just started.
        assert_eq!(unsafe { libc::kill(-pgid, libc::SIGTERM) }, 0);
        until_zombie(pgid);
        // SAFETY: as above; signal 0 only asks.
        assert_eq!(
            unsafe { libc::kill(-pgid, 0) },
            0,
            "kill(2) still sees the zombie"
        );
        assert!(
            !has_live_member(pgid, &last),
            "a zombie is not a live member, remembered or not"
        );
        assert_eq!(last.0.load(std::sync::atomic::Ordering::Relaxed), 0);
        child.wait().expect("reaped");
        assert!(
            !has_live_member(pgid, &last),
            "an empty group has no member"
        );
    }

    /// Waits until `/proc` shows `pid` as a zombie (its parent, this test, has not reaped it).
    fn until_zombie(pid: libc::pid_t) {
        let stat = format!("/proc/{pid}/stat");
        let until = Instant::now() + Duration::from_secs(30);
        while !std::fs::read_to_string(&stat).is_ok_and(|s| s.contains(") Z ")) {
            assert!(Instant::now() < until, "{pid} never became a zombie");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Combined: a zombie and a live process in one group, in both orders of pid (the leader
    /// dies first, then the other member), and a remembered member that has died while another
    /// still runs. The group is live exactly while one of them runs.
    #[test]
    fn a_group_is_live_while_any_member_runs_whichever_died_first() {
        for leader_dies_first in [true, false] {
            let mut leader = Command::new("sleep")
                .arg("60")
                .process_group(0)
                .spawn()
                .expect("sleep starts");
            let pgid = libc::pid_t::try_from(leader.id()).expect("a pid fits");
            let mut other = Command::new("sleep")
                .arg("60")
                .process_group(pgid)
                .spawn()
                .expect("sleep joins the group");
            let other_pid = libc::pid_t::try_from(other.id()).expect("a pid fits");
            let last = LastLive::default();
            assert!(has_live_member(pgid, &last));
            let (first, second) = match leader_dies_first {
                true => (pgid, other_pid),
                false => (other_pid, pgid),
            };
            // Remember the member about to die, so that the check must look past it.
            last.0.store(first, std::sync::atomic::Ordering::Relaxed);
            // SAFETY: signals a child this test started.
            assert_eq!(unsafe { libc::kill(first, libc::SIGTERM) }, 0);
            until_zombie(first);
            assert!(
                has_live_member(pgid, &last),
                "one member is a zombie, the other runs (leader first: {leader_dies_first})"
            );
            assert_eq!(last.0.load(std::sync::atomic::Ordering::Relaxed), second);
            // SAFETY: as above.
            assert_eq!(unsafe { libc::kill(second, libc::SIGTERM) }, 0);
            until_zombie(second);
            assert!(
                !has_live_member(pgid, &last),
                "both are zombies (leader first: {leader_dies_first})"
            );
            leader.wait().expect("reaped");
            other.wait().expect("reaped");
        }
    }

    #[test]
    fn no_group_at_or_below_one_is_ever_asked() {
        let last = LastLive::default();
        assert!(!has_live_member(0, &last));
        assert!(!has_live_member(1, &last));
        assert!(!has_live_member(-5, &last));
    }
}
