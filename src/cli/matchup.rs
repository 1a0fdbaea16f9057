//! Placeholder until issue 3 builds this command.

use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct MatchArgs {}

pub fn run(_args: MatchArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("this command is not built yet (issue 3)")
}
