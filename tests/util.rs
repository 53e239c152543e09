use assert_cmd::Command;
use std::path::{Path, PathBuf};

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

pub fn corpus_dir() -> PathBuf {
    fixtures().join("corpus")
}

pub fn suspect(name: &str) -> PathBuf {
    fixtures().join("suspects").join(name)
}

/// A `zhiwen` command on a store in `dir`, isolated from the user's data folder.
pub fn zhiwen(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("zhiwen").unwrap();
    cmd.env("ZHIWEN_DB", dir.join("corpus.sqlite")).env_remove("RUST_LOG");
    cmd
}

/// A store in a fresh temp dir with the fixture corpus imported.
pub fn imported() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    zhiwen(dir.path()).args(["import", "--quiet"]).arg(corpus_dir()).assert().success();
    dir
}

/// `check --json` on suspects; returns the parsed JSON and the exit code.
pub fn check_json(dir: &Path, suspects: &[PathBuf]) -> (serde_json::Value, i32) {
    let out = zhiwen(dir).args(["check", "--json"]).args(suspects).output().unwrap();
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("bad JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)));
    (json, out.status.code().unwrap())
}

pub fn chars(text: &str, start: u64, end: u64) -> String {
    text.chars().skip(start as usize).take((end - start) as usize).collect()
}

pub fn read_text(path: &Path) -> String {
    zhiwen::engine::decode::decode_file(path).unwrap().text
}
