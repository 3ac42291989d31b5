//! Protocol profiles: the two protocol generations the suite checks.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A named generation of the agent event protocol.
///
/// * **2026-07** is the vocabulary in force when the mirrors were removed: positional `agent/*`
///   events, `steering/message`, `context/message`, `turn/start.trigger`, strict turn enclosure.
/// * **2026-08** is the current one: payload-object live events, steering as `user/message`, a
///   durable inbox, in-step retries, `interrupted` prefixes, packed chunk rows and relaxed
///   enclosure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Profile {
    /// The 2026-07 profile ("era M").
    #[serde(rename = "2026-07")]
    V2026_07,
    /// The 2026-08 profile (current).
    #[serde(rename = "2026-08")]
    V2026_08,
}

impl Profile {
    /// Every profile, oldest first.
    pub const ALL: [Profile; 2] = [Profile::V2026_07, Profile::V2026_08];

    /// The profile used when none is named: the current one.
    pub const DEFAULT: Profile = Profile::V2026_08;

    /// The profile's name as written on the command line and in reports.
    pub const fn name(self) -> &'static str {
        match self {
            Profile::V2026_07 => "2026-07",
            Profile::V2026_08 => "2026-08",
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error for a profile name that is not one of [`Profile::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown profile `{0}`: expected 2026-07 or 2026-08")]
pub struct UnknownProfile(pub String);

impl FromStr for Profile {
    type Err = UnknownProfile;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Profile::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| UnknownProfile(s.to_owned()))
    }
}

/// A set of profiles, as a requirement or an event type applies to them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Profiles {
    /// Applies to 2026-07.
    pub v2026_07: bool,
    /// Applies to 2026-08.
    pub v2026_08: bool,
}

impl Profiles {
    /// Both profiles.
    pub const BOTH: Profiles = Profiles {
        v2026_07: true,
        v2026_08: true,
    };
    /// Only 2026-07.
    pub const ONLY_2026_07: Profiles = Profiles {
        v2026_07: true,
        v2026_08: false,
    };
    /// Only 2026-08.
    pub const ONLY_2026_08: Profiles = Profiles {
        v2026_07: false,
        v2026_08: true,
    };

    /// Whether `profile` is in the set.
    pub const fn contains(self, profile: Profile) -> bool {
        match profile {
            Profile::V2026_07 => self.v2026_07,
            Profile::V2026_08 => self.v2026_08,
        }
    }

    /// The profiles in the set, oldest first.
    pub fn iter(self) -> impl Iterator<Item = Profile> {
        Profile::ALL.into_iter().filter(move |p| self.contains(*p))
    }
}

impl fmt::Display for Profiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.iter().map(Profile::name).collect();
        f.write_str(&names.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for p in Profile::ALL {
            assert_eq!(p.name().parse::<Profile>(), Ok(p));
        }
        assert!("2026-09".parse::<Profile>().is_err());
    }
}
