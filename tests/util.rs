use assert_cmd::Command;
use std::path::{Path, PathBuf};

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

pub fn corpus_dir() -> PathBuf {
    fixtures().join("corpus")
}

/// The fixture corpus's chapter files (not its manifest.tsv), by name.
pub fn corpus_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
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

/// `n` distinct documents made from the fixture chapters, in `dir/works`.
pub fn many_files(dir: &Path, n: usize) -> PathBuf {
    let works = dir.join("works");
    std::fs::create_dir_all(&works).unwrap();
    let chapters: Vec<String> = corpus_files().iter().map(|p| std::fs::read_to_string(p).unwrap()).collect();
    for i in 0..n {
        let text = format!("第{i}篇\n{}", chapters[i % chapters.len()]);
        std::fs::write(works.join(format!("{i:04}.txt")), text).unwrap();
    }
    works
}

/// Documents in the store at `db`, read directly (0 if it cannot be read yet).
pub fn doc_count(db: &Path) -> usize {
    let Ok(conn) = rusqlite::Connection::open(db) else { return 0 };
    conn.query_row("SELECT COUNT(*) FROM documents", [], |r| r.get::<_, i64>(0)).unwrap_or(0) as usize
}

/// A tmpfs mounted at `dir/disk` (root only, as in CI); unmounted on drop. `None`, with a
/// note, where mounting is not allowed: then the disk tests have nothing to run on.
pub struct Tmpfs(pub PathBuf);

impl Tmpfs {
    pub fn mount(dir: &Path, size: &str) -> Option<Tmpfs> {
        let at = dir.join("disk");
        std::fs::create_dir_all(&at).unwrap();
        let ok = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&at)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            eprintln!("note: cannot mount a tmpfs here (needs root); disk test not run");
        }
        ok.then_some(Tmpfs(at))
    }

    pub fn remount(&self, opts: &str) {
        let status =
            std::process::Command::new("mount").args(["-o", &format!("remount,{opts}")]).arg(&self.0).status().unwrap();
        assert!(status.success());
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
    }
}

/// The fixture corpus imported into a store on a tmpfs that is then made read-only;
/// `None` where mounting is not allowed (see [`Tmpfs::mount`]).
pub fn read_only_store(dir: &Path) -> Option<(Tmpfs, PathBuf)> {
    let disk = Tmpfs::mount(dir, "50m")?;
    let db = disk.0.join("corpus.sqlite");
    zhiwen(dir).arg("--db").arg(&db).args(["import", "--quiet"]).arg(corpus_dir()).assert().success();
    disk.remount("ro");
    Some((disk, db))
}

/// Files served on 127.0.0.1 until dropped: (path, bytes, content type); any other path is
/// a 404. Every path asked for is recorded.
pub struct StaticSite {
    pub base: String,
    requests: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    server: std::sync::Arc<tiny_http::Server>,
}

impl StaticSite {
    pub fn serve(files: Vec<(&'static str, Vec<u8>, &'static str)>) -> StaticSite {
        let server = std::sync::Arc::new(tiny_http::Server::http("127.0.0.1:0").unwrap());
        let base = format!("http://127.0.0.1:{}", server.server_addr().to_ip().unwrap().port());
        let requests = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let (serving, log) = (server.clone(), requests.clone());
        std::thread::spawn(move || {
            for request in serving.incoming_requests() {
                let path = request.url().to_string();
                log.lock().unwrap().push(path.clone());
                let _ = match files.iter().find(|(p, _, _)| *p == path) {
                    Some((_, bytes, kind)) => {
                        let header = tiny_http::Header::from_bytes(&b"Content-Type"[..], kind.as_bytes()).unwrap();
                        request.respond(tiny_http::Response::from_data(bytes.clone()).with_header(header))
                    }
                    None => request.respond(tiny_http::Response::from_string("not here").with_status_code(404)),
                };
            }
        });
        StaticSite { base, requests, server }
    }

    /// The paths asked for so far, in order.
    pub fn paths(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }
}

impl Drop for StaticSite {
    fn drop(&mut self) {
        self.server.unblock();
    }
}
