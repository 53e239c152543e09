//! The `zhiwen` binary: parse arguments, then run the CLI or open the desktop app.

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    return_large_blocks_when_freed();
    let args = zhiwen_cli::Args::parse();
    zhiwen_cli::run(args)
}

/// glibc raises its mmap threshold each time a large block is freed (up to 32 MiB), after
/// which large buffers come from the per-thread arenas and stay there when freed: a watch
/// run's 200 threads, each holding a page's tokens for a moment, then kept 270 MB where
/// 170 MB were in use. A fixed threshold of 128 KiB (the default's start) keeps large
/// buffers mapped on their own and returned when freed.
fn return_large_blocks_when_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter; called before any other thread starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 << 10);
    }
}

#[path = "cli/mod.rs"]
mod zhiwen_cli;
