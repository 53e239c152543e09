//! Names the commit the binary is built from for `zhiwen --version` (ZHIWEN_COMMIT):
//! `git rev-parse --short=12 HEAD`, or "not a git checkout" where git or the repository
//! is missing (a source tarball, crates.io); and compiles the multilingual sentence encoder
//! of vendor/e5 (translated copies, engine/translation/embedding.rs).

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
    e5();
}

/// The public functions of vendor/e5/e5.h, renamed in the AVX2 build so that both builds
/// link into one binary (embedding.rs picks one at run time).
const E5_FUNCTIONS: [&str; 10] = [
    "e5_load",
    "e5_load_mem",
    "e5_free",
    "e5_token_count",
    "e5_dim",
    "e5_embed",
    "e5_embed_batch",
    "e5_load_sae",
    "e5_sparse_dim",
    "e5_embed_sparse",
];

/// vendor/e5/e5.c twice on x86-64: for any x86-64 (SSE2) and with AVX2 and FMA (its
/// integer kernels, ~3x the sentences a second), chosen at run time by
/// `is_x86_feature_detected!`; once elsewhere. No OpenMP: the pragmas are ignored and the
/// encoder runs one sentence batch per thread, on rayon's threads (no libgomp to ship).
/// Always optimised: at opt-level 0 (a debug build of this crate) the encoder is ~10x slower.
fn e5() {
    println!("cargo:rerun-if-changed=vendor/e5/e5.c");
    println!("cargo:rerun-if-changed=vendor/e5/e5.h");
    let build = || {
        let mut b = cc::Build::new();
        b.file("vendor/e5/e5.c")
            .include("vendor/e5")
            .opt_level(3)
            .debug(false)
            .warnings(false)
            .flag_if_supported("-Wno-unknown-pragmas");
        b
    };
    build().compile("e5");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64") {
        let mut avx2 = build();
        for f in E5_FUNCTIONS {
            avx2.define(f, Some(format!("{}_avx2", f).as_str()));
        }
        avx2.flag("-mavx2").flag("-mfma").flag("-mf16c").compile("e5_avx2");
    }
}
