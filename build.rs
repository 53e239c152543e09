//! Names the commit the binary is built from for `zhiwen --version` (ZHIWEN_COMMIT):
//! `git rev-parse --short=12 HEAD`, or "not a git checkout" where git or the repository
//! is missing (a source tarball, crates.io).

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "not a git checkout".to_string());
    println!("cargo:rustc-env=ZHIWEN_COMMIT={commit}");
    // Rerun when HEAD moves: a commit, a checkout or a rebase rewrites one of these
    // (worktrees keep HEAD apart from the shared refs, hence --git-path).
    // A path that does not exist would make cargo rerun this (and rebuild the crate) every time.
    let branch = git(&["symbolic-ref", "-q", "HEAD"]);
    for file in ["HEAD", "packed-refs"].into_iter().chain(branch.as_deref()) {
        if let Some(path) = git(&["rev-parse", "--git-path", file]).filter(|p| std::path::Path::new(p).exists()) {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
