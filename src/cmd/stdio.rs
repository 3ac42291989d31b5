//! The stdio protocol on the command line: the options of the `-- CMD …` driver of
//! `mirrorless run`/`replay`, and the hidden `mirrorless reference-impl --stdio` server.

use clap::Args;
use mirrorless_conformance::driver::{AgentLoop, Driver};
use mirrorless_conformance::reference::ReferenceLoop;
use mirrorless_conformance::stdio::message::Implementation;
use mirrorless_conformance::stdio::{StdioConfig, StdioDriver, serve};
use mirrorless_conformance::vocab::Profile;
use std::process::ExitCode;
use std::time::Duration;

/// How an implementation is run over the stdio protocol (`-- CMD ARGS…`).
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Stdio protocol (with -- CMD)")]
pub struct StdioArgs {
    /// Seconds the implementation may take to answer `hello`.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub startup_timeout: f64,
    /// Seconds the harness waits for the implementation's next message during a case.
    #[arg(long, value_name = "SECS", default_value_t = 5.0)]
    pub message_timeout: f64,
    /// Seconds one case may take in total.
    #[arg(long, value_name = "SECS", default_value_t = 30.0)]
    pub case_timeout: f64,
    /// How often the process is restarted after a crash or timeout before the run gives up.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub max_restarts: u32,
    /// Validate every protocol message, both directions, against the JSON Schemas in
    /// docs/schemas/stdio (slower; use it while writing an adapter).
    #[arg(long)]
    pub validate_protocol: bool,
}

fn seconds(name: &str, v: f64) -> Result<Duration, String> {
    if v.is_finite() && v > 0.0 {
        Ok(Duration::from_secs_f64(v))
    } else {
        Err(format!("--{name} must be a positive number of seconds"))
    }
}

/// Starts `command` over the stdio protocol; returns the driver and the profiles the
/// implementation says it implements.
pub fn driver(
    command: &[String],
    args: &StdioArgs,
) -> Result<(Box<dyn Driver>, Vec<Profile>), String> {
    let mut config = StdioConfig::new(command.to_vec());
    config.startup_timeout = seconds("startup-timeout", args.startup_timeout)?;
    config.message_timeout = seconds("message-timeout", args.message_timeout)?;
    config.case_timeout = seconds("case-timeout", args.case_timeout)?;
    config.max_restarts = args.max_restarts;
    config.validate = args.validate_protocol;
    let driver = StdioDriver::start(config).map_err(|e| e.0)?;
    let profiles = Profile::ALL
        .into_iter()
        .filter(|p| driver.implements(*p))
        .collect();
    Ok((Box::new(driver), profiles))
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
