//! The stdio protocol on the command line: the options of the `-- CMD …` driver of
//! `mirrorless run`/`replay`, and the hidden `mirrorless reference-impl --stdio` server.

use clap::Args;
use mirrorless_conformance::driver::{AgentLoop, CaseLimits, Driver};
use mirrorless_conformance::reference::ReferenceLoop;
use mirrorless_conformance::stdio::message::Implementation;
use mirrorless_conformance::stdio::{StdioConfig, StdioDriver, serve};
use mirrorless_conformance::stop::Stop;
use mirrorless_conformance::vocab::Profile;
use std::process::ExitCode;
use std::time::Duration;

/// How an implementation is run over the stdio protocol (`-- CMD ARGS…`).
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Stdio protocol (with -- CMD)")]
pub struct StdioArgs {
    /// Seconds the implementation may take to answer `hello`.
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = positive_secs)]
    pub startup_timeout: Duration,
    /// Seconds the harness waits for the implementation's next message during a case, and
    /// for it to take a message from the harness (an implementation that stops reading its
    /// stdin is cut off too).
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = positive_secs)]
    pub message_timeout: Duration,
    /// Seconds one case may take in total.
    #[arg(long, value_name = "SECS", default_value = "30", value_parser = positive_secs)]
    pub case_timeout: Duration,
    /// How many times, in the whole run, a process is restarted after it crashed, hung or
    /// broke the protocol. Each fault is reported and the run goes on with the next case in a
    /// fresh process; once the restarts are used up the run ends with the report of what ran.
    /// 0: the run ends at the first fault.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub max_restarts: u32,
    /// Validate every protocol message, both directions, against the JSON Schemas in
    /// docs/schemas/stdio (slower; use it while writing an adapter).
    #[arg(long)]
    pub validate_protocol: bool,
    /// Model calls and tool runs the harness serves in one case before it stops the case as a
    /// fault (a loop that retries a failed call forever).
    #[arg(long, value_name = "N", default_value_t = CaseLimits::DEFAULT.calls, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_case_calls: u64,
    /// Durable and live events one case may record before the harness stops it as a fault.
    #[arg(long, value_name = "N", default_value_t = CaseLimits::DEFAULT.events, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_case_events: u64,
    /// Bytes of protocol messages the implementation may send in one case before the harness
    /// stops it as a fault.
    #[arg(long, value_name = "BYTES", default_value_t = CaseLimits::DEFAULT.bytes, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_case_bytes: u64,
}

/// The longest duration any option accepts: a year. Longer values mean "never" to a person,
/// but would overflow the clock; they are usage errors rather than a panic or a wrap.
pub const MAX_SECS: f64 = 365.0 * 86_400.0;

fn parse_secs(text: &str, zero_ok: bool) -> Result<Duration, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !v.is_finite() || v < 0.0 || (v == 0.0 && !zero_ok) {
        return Err(format!(
            "must be a {} number of seconds",
            if zero_ok { "non-negative" } else { "positive" }
        ));
    }
    if v > MAX_SECS {
        return Err(format!("at most {MAX_SECS} seconds (a year)"));
    }
    Duration::try_from_secs_f64(v).map_err(|e| format!("not a duration: {e}"))
}

/// A clap value parser: a positive number of seconds, at most [`MAX_SECS`].
pub fn positive_secs(text: &str) -> Result<Duration, String> {
    parse_secs(text, false)
}

/// A clap value parser: a non-negative number of seconds, at most [`MAX_SECS`].
pub fn non_negative_secs(text: &str) -> Result<Duration, String> {
    parse_secs(text, true)
}

/// Starts `command` over the stdio protocol; returns the driver and the profiles the
/// implementation says it implements. Every wait of the driver ends early when `stop` fires.
///
/// A profile the `hello` lists that this version does not know (a typo, a later release's) is
/// named: a warning, an error under `ci` (a run would otherwise pass without it, silently).
pub fn driver(
    command: &[String],
    args: &StdioArgs,
    stop: &Stop,
    ci: bool,
) -> Result<(Box<dyn Driver>, Vec<Profile>), String> {
    let mut config = StdioConfig::new(command.to_vec());
    config.startup_timeout = args.startup_timeout;
    config.message_timeout = args.message_timeout;
    config.case_timeout = args.case_timeout;
    config.max_restarts = args.max_restarts;
    config.validate = args.validate_protocol;
    config.limits = CaseLimits {
        calls: args.max_case_calls,
        events: args.max_case_events,
        bytes: args.max_case_bytes,
    };
    config.stop = stop.clone();
    let driver = StdioDriver::start(config).map_err(|e| e.0)?;
    let profiles = Profile::ALL
        .into_iter()
        .filter(|p| driver.implements(*p))
        .collect();
    if let Some(unknown) = unknown_profiles(driver.implemented_profiles().unwrap_or_default()) {
        if ci {
            return Err(format!("{unknown} (an error under --ci)"));
        }
        eprintln!("warning: {unknown}");
    }
    Ok((Box::new(driver), profiles))
}

/// Says which of the profiles a `hello` lists this version does not know, if any (each
/// clipped and escaped: the implementation wrote them).
fn unknown_profiles(listed: &[String]) -> Option<String> {
    let known: Vec<&str> = Profile::ALL.iter().map(|p| p.name()).collect();
    let unknown: Vec<String> = listed
        .iter()
        .filter(|p| !known.contains(&p.as_str()))
        .map(|p| format!("`{}`", mirrorless_conformance::check::shown(p)))
        .collect();
    if unknown.is_empty() {
        return None;
    }
    let shown: Vec<&str> = unknown.iter().take(10).map(String::as_str).collect();
    Some(format!(
        "the implementation's hello lists {} profile(s) this mirrorless does not know and does not run: {}{} (it knows {})",
        unknown.len(),
        shown.join(", "),
        if unknown.len() > shown.len() {
            ", …"
        } else {
            ""
        },
        known.join(", ")
    ))
}

/// Arguments of the hidden `mirrorless reference-impl`.
#[derive(Debug, Args)]
pub struct ReferenceImplArgs {
    /// Serve the reference implementation over mirrorless-stdio/1 on stdin/stdout.
    #[arg(long, required = true)]
    pub stdio: bool,
}

/// Runs `mirrorless reference-impl --stdio`: the embedded reference implementation as a
/// subprocess, for benchmarks and for testing the stdio driver itself.
pub fn reference_impl(_args: ReferenceImplArgs) -> ExitCode {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::BufWriter::with_capacity(64 << 10, std::io::stdout().lock());
    let implementation = Implementation {
        name: "mirrorless-reference".into(),
        version: Some(mirrorless_conformance::SUITE_VERSION.into()),
        language: Some("rust".into()),
        homepage: None,
    };
    let mut factory =
        |p: Profile| Box::new(<ReferenceLoop as AgentLoop>::new(p)) as Box<dyn AgentLoop>;
    match serve(stdin, stdout, implementation, &mut factory) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => super::fail(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_near_the_limits_are_usage_errors_not_panics() {
        assert_eq!(positive_secs("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(non_negative_secs("0"), Ok(Duration::ZERO));
        for bad in ["0", "-1", "nan", "inf", "1e19", "1e300", "31536001", "x"] {
            assert!(positive_secs(bad).is_err(), "{bad}");
        }
        assert!(positive_secs("31536000").is_ok());
    }
}
