//! The `zhiwen` binary: parse arguments, then run the CLI or open the desktop app.

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = zhiwen_cli::Args::parse();
    zhiwen_cli::run(args)
}

#[path = "cli/mod.rs"]
mod zhiwen_cli;
