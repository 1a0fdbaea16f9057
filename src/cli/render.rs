//! Placeholder until issue 5 builds this command.

use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct RenderArgs {}

pub fn run(_args: RenderArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("this command is not built yet (issue 5)")
}
