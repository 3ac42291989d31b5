//! `mirrorless spec` and `mirrorless explain`: read the spec from the terminal.

use clap::{Args, ValueEnum};
use mirrorless_conformance::Profile;
use mirrorless_conformance::registry::{REQUIREMENTS, requirement};
use std::process::ExitCode;

/// Output format of `mirrorless spec`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SpecFormat {
    /// One line per requirement.
    Human,
    /// The registry as a JSON array.
    Json,
}

/// Arguments of `mirrorless spec`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  mirrorless spec\n  mirrorless spec --profile 2026-07\n  mirrorless spec --format json"
)]
pub struct SpecArgs {
    /// Only requirements that apply to this profile.
    #[arg(long)]
    pub profile: Option<Profile>,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: SpecFormat,
}

/// Arguments of `mirrorless explain`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  mirrorless explain CHUNK-1\n  mirrorless explain MIRROR-3")]
pub struct ExplainArgs {
    /// A requirement ID (e.g. CHUNK-1) or a lint rule ID.
    pub id: String,
}

/// Runs `mirrorless spec`.
pub fn spec(args: SpecArgs) -> ExitCode {
    let selected: Vec<_> = REQUIREMENTS
        .iter()
        .filter(|r| args.profile.is_none_or(|p| r.applies_to(p)))
        .collect();
    let mut text = String::new();
    match args.format {
        SpecFormat::Json => match serde_json::to_string_pretty(&selected) {
            Ok(json) => text = json + "\n",
            Err(e) => return super::fail(format!("cannot serialize the registry: {e}")),
        },
        SpecFormat::Human => {
            text.push_str("ID        2026-07 2026-08 title\n");
            for r in selected {
                let tier = |p| r.tier(p).map_or("-".to_owned(), |t| t.to_string());
                text.push_str(&format!(
                    "{:<9} {:<7} {:<7} {}\n",
                    r.id,
                    tier(Profile::V2026_07),
                    tier(Profile::V2026_08),
                    r.title.replace('`', "")
                ));
            }
        }
    }
    exit(super::print_out(&text))
}

/// Runs `mirrorless explain`.
pub fn explain(args: ExplainArgs) -> ExitCode {
    if let Some(r) = requirement(&args.id) {
        return exit(super::print_out(&mirrorless_conformance::spec::explain(r)));
    }
    if let Some(text) = mirrorless_lint::explain(&args.id) {
        return exit(super::print_out(&text));
    }
    super::fail(format!(
        "no requirement or lint rule `{}`; `mirrorless spec` lists the requirements",
        args.id
    ))
}

fn exit(written: bool) -> ExitCode {
    if written {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(super::EXIT_ERROR)
    }
}
