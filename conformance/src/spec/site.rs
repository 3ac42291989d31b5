//! The pages of the documentation site that come from the registry: one page per profile
//! (`docs/spec/profile-<p>.md`) and the site's table of contents (`docs/SUMMARY.md`, read by
//! mdBook), so that the navigation by requirement and by profile cannot drift from the registry.

use crate::registry::{Area, REQUIREMENTS};
use crate::vocab::Profile;
use std::fmt::Write as _;

/// The file name of `profile`'s page under `docs/spec/`.
pub fn profile_page_name(profile: Profile) -> String {
    format!("profile-{}.md", profile.name())
}

/// The page of `profile`: every requirement that applies under it, with its tier.
pub fn profile_page(profile: Profile) -> String {
    let mut out = format!(
        "# Profile {profile}\n\n**Spec {}** · [all requirements](README.md) · [what a profile is](README.md#profile)\n\n\
         Generated from the registry; do not edit by hand. The requirements a log or an \
         implementation is held to under `--profile {profile}`, by area. A requirement missing \
         here does not apply under {profile}.\n",
        crate::SPEC_VERSION
    );
    let mut area: Option<Area> = None;
    for req in REQUIREMENTS.iter().filter(|r| r.applies_to(profile)) {
        if area != Some(req.area) {
            area = Some(req.area);
            let _ = writeln!(out, "\n## {}\n", req.area.title());
        }
        let tier = req.tier(profile).map_or(String::new(), |t| t.to_string());
        let _ = writeln!(out, "- [{id}]({id}.md) {tier} — {}", req.title, id = req.id);
    }
    out
}

/// A title as SUMMARY link text: backticks dropped, brackets escaped.
fn link_text(title: &str) -> String {
    title
        .replace('`', "")
        .replace('[', "\\[")
        .replace(']', "\\]")
}

/// `docs/SUMMARY.md`: the front page, the spec (by area, each requirement a page; by profile;
/// the changelog), then `others` — (path under `docs/`, title) of every other page, grouped
/// by their first directory, in the order given.
pub fn summary(others: &[(String, String)]) -> String {
    let mut out = String::from(
        "# Summary\n\n<!-- Generated from the registry by conformance/tests/spec_docs.rs; do not edit by hand. -->\n\n\
         [mirrorless](README.md)\n\n# The spec\n\n- [The spec and its glossary](spec/README.md)\n",
    );
    let mut area: Option<Area> = None;
    for req in REQUIREMENTS {
        if area != Some(req.area) {
            area = Some(req.area);
            let _ = writeln!(out, "  - [{}]()", req.area.title());
        }
        let _ = writeln!(
            out,
            "    - [{} — {}](spec/{})",
            req.id,
            link_text(req.title),
            req.page()
        );
    }
    for p in Profile::ALL {
        let _ = writeln!(out, "- [Profile {p}](spec/{})", profile_page_name(p));
    }
    out.push_str("- [Changelog of the requirements](spec/CHANGELOG.md)\n");
    let mut part: Option<&str> = None;
    for (path, title) in others {
        let dir = path.split('/').next().unwrap_or_default();
        if part != Some(dir) {
            part = Some(dir);
            let _ = writeln!(out, "\n# {}\n", part_title(dir));
        }
        let nested = path.matches('/').count() > 1 || !path.ends_with("README.md");
        let indent = if nested && others.iter().any(|(p, _)| p == &format!("{dir}/README.md")) {
            "  "
        } else {
            ""
        };
        let _ = writeln!(out, "{indent}- [{}]({path})", link_text(title));
    }
    out
}

fn part_title(dir: &str) -> String {
    match dir {
        "guides" => "Guides".into(),
        "protocol" => "The stdio protocol".into(),
        "check" => "mirrorless check".into(),
        "run" => "mirrorless run".into(),
        "lint" => "mirrorless lint".into(),
        "rules" => "Lint rules".into(),
        "upstream" => "Upstream under mirrorless".into(),
        "benchmarks" => "Benchmarks".into(),
        other => other.to_owned(),
    }
}
