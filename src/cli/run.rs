//! Placeholder until issue 4 builds this command.

use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct RunArgs {}

pub fn run(_args: RunArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("this command is not built yet (issue 4)")
}
