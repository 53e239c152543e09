//! The files the packages ship beside the binary, made from the clap definition so they
//! never drift from it: a man page per command (`zhiwen man DIR`) and the bash, zsh and
//! fish completion scripts (`zhiwen completions SHELL`). Both commands are hidden; the
//! release script (scripts/release) runs them.

use super::args::Args;
use anyhow::{Context, Result};
use clap::CommandFactory;
use std::path::Path;
use std::process::ExitCode;

pub fn completions(shell: clap_complete::Shell) -> Result<ExitCode> {
    let mut cmd = Args::command();
    clap_complete::generate(shell, &mut cmd, "zhiwen", &mut std::io::stdout());
    Ok(ExitCode::SUCCESS)
}

/// Writes zhiwen.1, then zhiwen-SUB.1 for each visible sub-command and
/// zhiwen-SUB-SUBSUB.1 for theirs (`man zhiwen-check`, `man zhiwen-watch-add`).
pub fn man_pages(dir: &Path) -> Result<ExitCode> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut cmd = Args::command();
    cmd.build();
    let written = write_pages(&cmd, "zhiwen", dir)?;
    println!("wrote {written} man pages to {}", dir.display());
    Ok(ExitCode::SUCCESS)
}

/// `cmd` is named `name` (its parents' names joined by '-'); returns the pages written.
fn write_pages(cmd: &clap::Command, name: &str, dir: &Path) -> Result<usize> {
    // The page's title and NAME section are the file's name, so `man zhiwen-check` shows "zhiwen-check".
    let named = cmd.clone().display_name(name.to_string());
    let path = dir.join(format!("{name}.1"));
    let mut page = Vec::new();
    clap_mangen::Man::new(named).render(&mut page)?;
    std::fs::write(&path, page).with_context(|| format!("cannot write {}", path.display()))?;
    let mut written = 1;
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set() && s.get_name() != "help") {
        written += write_pages(sub, &format!("{name}-{}", sub.get_name()), dir)?;
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_per_visible_command_named_as_man_finds_it() {
        let dir = tempfile::tempdir().unwrap();
        man_pages(dir.path()).unwrap();
        let page = std::fs::read_to_string(dir.path().join("zhiwen-check.1")).unwrap();
        assert!(page.contains("zhiwen\\-check"), "the page is titled by its file name");
        assert!(page.contains("max\\-distance"), "check's options are on its page");
        assert!(dir.path().join("zhiwen-watch-add.1").exists(), "sub-sub-commands get pages");
        assert!(!dir.path().join("zhiwen-man.1").exists(), "hidden commands get none");
        assert!(!dir.path().join("zhiwen-help.1").exists());
    }
}
