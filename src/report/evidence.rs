//! Evidence packages: one finding as a WACZ file (Webrecorder's packaging of web archives,
//! a zip) that a platform, a lawyer or a court's expert can check with their own tools.
//!
//! Layout (every file but the two `datapackage` files one folder deep, as py-wacz wants):
//!
//! - `archive/capture-C-page-P.warc.gz`: every capture of the finding (C = 1 the first, the
//!   history is never overwritten), each page of a chapter its own WARC/1.1 file with the
//!   requests and responses as on the wire; a file finding is one `resource` record;
//! - `indexes/index.cdx`: the CDXJ index of the responses (what a replay tool looks up; named
//!   `.cdx` as py-wacz and pywb expect);
//! - `pages/pages.jsonl`: the pages;
//! - `captured/page-N.html` (or `.txt`, `.bin`) and `.headers.json`: the latest capture's
//!   bodies with their content encoding undone, for reading without WARC tools;
//! - `zhiwen/text.txt` (extracted text), `zhiwen/report.html` (the match report),
//!   `zhiwen/result.jsonl` (its data, one JSON line), `zhiwen/manifest.json` (what was checked, the capture
//!   history with times and hashes, the settings, the timestamp status and what is and is
//!   not proven), `zhiwen/SHA256SUMS` (every file above, for `sha256sum -c`);
//! - `datapackage.json`: every file above with its SHA-256 and size;
//! - `datapackage-digest.json`: the SHA-256 of `datapackage.json` and, when a
//!   time-stamping authority is set, its RFC 3161 answer over that digest (base 64), so one
//!   timestamp covers every byte of the package.
//!
//! [`verify`] checks all of it and says where a changed byte is.

use super::timestamp;
use crate::engine::store::{Finding, Store, findings::sha256};
use crate::engine::web::warc;
use base64::Engine;
use std::io::{Read, Write};

fn sha256_bytes(bytes: &[u8]) -> [u8; 32] {
    <sha2::Sha256 as sha2::Digest>::digest(bytes).as_slice().try_into().expect("32 bytes")
}

/// How a package is made.
#[derive(Clone, Debug, Default)]
pub struct EvidenceOptions {
    /// The RFC 3161 time-stamping authority's URL; `None`: not timestamped.
    pub tsa: Option<String>,
}

/// The extension a captured body gets: by its content type, or the file's own.
fn body_extension(page: &crate::engine::store::CapturedPage) -> String {
    let kind = page.headers.iter().find(|(n, _)| n == "content-type").map_or("", |(_, v)| v.as_str());
    if kind.contains("html") {
        "html".to_string()
    } else if kind.contains("text/plain") {
        "txt".to_string()
    } else if page.status.is_none() {
        std::path::Path::new(&page.url).extension().map_or("bin".into(), |e| e.to_string_lossy().into_owned())
    } else {
        "bin".to_string()
    }
}

/// SURT form of a URL, the sort key of CDXJ (`com,example)/path?a=1&b=2`), as the
/// Python `surt` package writes it: host labels reversed without `www.`, a port other
/// than the scheme's kept, path and query lower-cased, query arguments sorted.
pub fn surt(url: &str) -> String {
    let Ok(u) = url::Url::parse(url) else { return url.to_ascii_lowercase() };
    let host = u.host_str().unwrap_or("").to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    let mut key: String = host.split('.').rev().collect::<Vec<_>>().join(",");
    if let Some(port) = u.port() {
        key += &format!(":{port}");
    }
    key += ")";
    key += &u.path().to_ascii_lowercase();
    if let Some(q) = u.query() {
        let mut args: Vec<String> = q.split('&').map(str::to_ascii_lowercase).collect();
        args.sort();
        key += "?";
        key += &args.join("&");
    }
    key
}

/// `20261123214500` of a WARC-Date.
fn timestamp14(warc_date: &str) -> String {
    warc_date.chars().filter(char::is_ascii_digit).take(14).collect()
}

/// The CDXJ lines of one WARC file's response and resource records.
fn cdxj_lines(file_name: &str, file: &[u8]) -> Vec<String> {
    let Ok(records) = warc::read(file) else { return Vec::new() };
    records
        .iter()
        .filter(|r| matches!(r.header("WARC-Type"), Some("response") | Some("resource")))
        .filter_map(|r| {
            let url = r.header("WARC-Target-URI")?;
            let response = r.header("WARC-Type") == Some("response");
            let mime = if response {
                warc::http_header(&r.block, "content-type").unwrap_or_default()
            } else {
                r.header("Content-Type").unwrap_or("").to_string()
            };
            let mime = mime.split(';').next().unwrap_or("").trim().to_string();
            let mut fields = serde_json::json!({
                "url": url,
                "mime": mime,
                "digest": r.header("WARC-Payload-Digest").or(r.header("WARC-Block-Digest")),
                "length": r.length.to_string(),
                "offset": r.offset.to_string(),
                "filename": file_name,
            });
            if response {
                fields["status"] = warc::http_status(&r.block).unwrap_or(0).to_string().into();
            }
            Some(format!("{} {} {}", surt(url), timestamp14(r.header("WARC-Date")?), fields))
        })
        .collect()
}

/// A file finding's bytes as one WARC `resource` record.
fn file_warc(page: &crate::engine::store::CapturedPage) -> Vec<u8> {
    let uri = url::Url::from_file_path(&page.url).map_or_else(|_| page.url.clone(), |u| u.to_string());
    let exchange_date = warc::warc_date(page.fetched_at * 1_000_000);
    warc::resource(&uri, &exchange_date, "application/octet-stream", &page.bytes)
}

/// The package of `finding` as WACZ bytes; `report_html` is its match report. With a TSA
/// set, a timestamp that cannot be had is an error (nothing is written): the user asked
/// for one.
pub fn evidence_wacz(finding: &Finding, report_html: &str, opts: &EvidenceOptions) -> Result<Vec<u8>, String> {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut history = Vec::new();
    let mut pages_jsonl = vec![serde_json::json!({"format": "json-pages-1.0", "id": "pages", "title": "All Pages"})];
    let mut index = Vec::new();
    for capture in &finding.captures {
        let mut pages = Vec::new();
        for (p, page) in capture.pages.iter().enumerate() {
            let warc_file = page.warc.as_ref().map(|w| {
                let name = format!("archive/capture-{}-page-{}.warc.gz", capture.number, p + 1);
                index.extend(cdxj_lines(name.trim_start_matches("archive/"), w));
                files.push((name.clone(), w.clone()));
                for (file, bytes) in rendered_files(w) {
                    files.push((format!("rendered/capture-{}-page-{}.{file}", capture.number, p + 1), bytes));
                }
                name
            });
            pages.push(serde_json::json!({
                "url": page.url,
                "captured_at": crate::engine::time::rfc3339(page.captured_at),
                "sha256_of_body": page.sha256,
                "warc": warc_file,
                "warc_sha256": page.warc.as_deref().map(sha256),
            }));
        }
        history.push(serde_json::json!({
            "capture": capture.number,
            "captured_at": crate::engine::time::rfc3339(capture.captured_at()),
            "pages": pages,
        }));
    }
    let mut bodies = Vec::new();
    for (i, p) in finding.pages.iter().enumerate() {
        let name = format!("captured/page-{}.{}", i + 1, body_extension(p));
        if p.status.is_none() {
            let name = format!("archive/file-{}.warc.gz", i + 1);
            let w = file_warc(p);
            index.extend(cdxj_lines(name.trim_start_matches("archive/"), &w));
            files.push((name, w));
        }
        pages_jsonl.push(serde_json::json!({
            "id": format!("page-{}", i + 1),
            "url": if p.status.is_some() { p.final_url.clone() } else {
                url::Url::from_file_path(&p.url).map_or_else(|_| p.url.clone(), |u| u.to_string())
            },
            "ts": crate::engine::time::rfc3339(p.fetched_at),
            "title": format!("{} (page {})", finding.info.target, i + 1),
        }));
        bodies.push(serde_json::json!({
            "url": p.url,
            "final_url": p.final_url,
            "status": p.status,
            "fetched_at": crate::engine::time::rfc3339(p.fetched_at),
            "file": name,
            "sha256": sha256(&p.bytes),
        }));
        files.push((name, p.bytes.clone()));
        if p.status.is_some() {
            let headers = serde_json::to_vec_pretty(&p.headers).expect("headers serialize");
            files.push((format!("captured/page-{}.headers.json", i + 1), headers));
        }
    }
    index.sort();
    files.push(("indexes/index.cdx".into(), index.iter().map(|l| format!("{l}\n")).collect::<String>().into_bytes()));
    let pages_text: String = pages_jsonl.iter().map(|l| format!("{l}\n")).collect();
    files.push(("pages/pages.jsonl".into(), pages_text.into_bytes()));
    files.push(("zhiwen/text.txt".into(), finding.text.as_bytes().to_vec()));
    files.push(("zhiwen/report.html".into(), report_html.as_bytes().to_vec()));
    // JSON Lines of one line: frictionless (what `wacz validate` runs) reads a `.json` file
    // holding an object with a `path` key as a resource descriptor and fails on it.
    let result = serde_json::from_str::<serde_json::Value>(&finding.result)
        .map_or_else(|_| finding.result.clone(), |v| v.to_string());
    files.push(("zhiwen/result.jsonl".into(), format!("{result}\n").into_bytes()));

    let settings: serde_json::Value = serde_json::from_str(&finding.settings).unwrap_or_default();
    let captured_at = finding.pages.first().map_or(finding.info.checked_at, |p| p.fetched_at);
    let timestamp_claim = match &opts.tsa {
        Some(tsa) => {
            format!("RFC 3161 timestamp by {tsa} over the SHA-256 of datapackage.json, in datapackage-digest.json")
        }
        None => "not timestamped (no time-stamping authority set)".to_string(),
    };
    let manifest = serde_json::json!({
        "tool": "Zhiwen",
        "version": env!("CARGO_PKG_VERSION"),
        "finding_id": finding.info.id,
        "kind": finding.info.kind,
        "target": finding.info.target,
        "final_url": finding.info.final_url,
        "captured_at": crate::engine::time::rfc3339(captured_at),
        "first_seen": crate::engine::time::rfc3339(finding.info.first_checked_at),
        "last_seen": crate::engine::time::rfc3339(finding.info.checked_at),
        "checked_at": crate::engine::time::rfc3339(finding.info.checked_at),
        "sha256_of_captured_bytes": finding.info.sha256,
        "similarity": finding.info.similarity,
        "settings": settings,
        "pages": bodies,
        "captures": history,
        "timestamp": timestamp_claim,
        "proves": [
            "every file of the package is the one packaged (datapackage.json lists each file's SHA-256; datapackage-digest.json that of datapackage.json)",
            "the WARC records hold the requests sent and the responses received, byte for byte, with the address connected to",
            "with a rendered capture (rendered/): what headless Chromium showed and the text a reader saw, at the capture time; the same bytes are resource records in the page's WARC",
            "with a timestamp: the package existed, as it is, no later than the time the authority signed",
        ],
        "does_not_prove": [
            "who operates the site or the address (the DNS answer and address are recorded, not their owner)",
            "without a timestamp: when the capture was made (the times are the capturing computer's clock)",
            "that the page showed the same to other visitors or at other times",
            "that the rendered capture's subresources (scripts, stylesheets, images) were what the WARC holds: the browser's own requests are not recorded",
        ],
    });
    files.push(("zhiwen/manifest.json".into(), serde_json::to_vec_pretty(&manifest).expect("manifest serializes")));
    let sums: String = files.iter().map(|(name, bytes)| format!("{}  {name}\n", sha256(bytes))).collect();
    files.push(("zhiwen/SHA256SUMS".into(), sums.into_bytes()));

    let resources: Vec<serde_json::Value> = files
        .iter()
        .map(|(name, bytes)| {
            serde_json::json!({
                // Frictionless wants names unique and of `[-a-z0-9._/]`.
                "name": name.to_ascii_lowercase(),
                "path": name,
                "hash": format!("sha256:{}", sha256(bytes)),
                "bytes": bytes.len(),
            })
        })
        .collect();
    let main_page = finding.pages.first();
    let datapackage = serde_json::json!({
        "profile": "data-package",
        "resources": resources,
        "created": crate::engine::time::rfc3339(crate::engine::time::now()),
        "wacz_version": "1.1.1",
        "software": format!("Zhiwen {}", env!("CARGO_PKG_VERSION")),
        "title": format!("Zhiwen evidence: finding {}", finding.info.id),
        "mainPageUrl": main_page.map(|p| p.final_url.clone()),
        "mainPageDate": main_page.map(|p| crate::engine::time::rfc3339(p.fetched_at)),
    });
    let datapackage = serde_json::to_vec_pretty(&datapackage).expect("datapackage serializes");
    let digest = sha256_bytes(&datapackage);
    let mut digest_json = serde_json::json!({
        "path": "datapackage.json",
        "hash": format!("sha256:{}", sha256(&datapackage)),
    });
    if let Some(tsa) = &opts.tsa {
        let token = timestamp::request(tsa, &digest, std::time::Duration::from_secs(30))?;
        let stamp = timestamp::check(&token, &digest)?;
        digest_json["timestamp"] = serde_json::json!({
            "standard": "RFC 3161",
            "authority": tsa,
            "time": stamp.unix.map(crate::engine::time::rfc3339),
            "signer": stamp.signer,
            "response": base64::engine::general_purpose::STANDARD.encode(&token),
        });
    }
    files.push(("datapackage.json".into(), datapackage));
    files.push(("datapackage-digest.json".into(), serde_json::to_vec_pretty(&digest_json).expect("serializes")));

    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let io = |e: zip::result::ZipError| e.to_string();
    // Stored, not compressed: replay tools read WARCs in place (the WACZ rule), and every
    // file's bytes stay findable with any tool (the WARCs are gzip already).
    let stored = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, bytes) in &files {
        zip.start_file(name.as_str(), stored).map_err(io)?;
        zip.write_all(bytes).map_err(|e| e.to_string())?;
    }
    Ok(zip.finish().map_err(io)?.into_inner())
}

/// The rendered capture's records of a page's WARC (see `warc::rendered_records`), as files
/// to look at: `png` (the screenshot), `dom.html`, `visible.txt`.
fn rendered_files(warc_file: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    let records = crate::engine::web::warc::read(warc_file).unwrap_or_default();
    let names = ["png", "dom.html", "visible.txt"];
    crate::engine::web::warc::RENDERED_PREFIXES
        .iter()
        .zip(names)
        .filter_map(|((prefix, _), name)| {
            let record = records.iter().find(|r| {
                r.header("WARC-Type") == Some("resource")
                    && r.header("WARC-Target-URI").is_some_and(|u| u.starts_with(prefix))
            })?;
            Some((name, record.block.clone()))
        })
        .collect()
}

/// The evidence package of finding `id` in `store`, its match report made from the stored
/// result, the finding's own settings and the source texts the store holds now.
pub fn package(store: &Store, id: i64, opts: &EvidenceOptions) -> crate::Result<Vec<u8>> {
    let finding =
        store.finding(id)?.ok_or_else(|| crate::Error::Parameter(format!("no finding {id} (see zhiwen findings)")))?;
    let report: crate::SuspectReport = serde_json::from_str(&finding.result)
        .map_err(|e| crate::Error::Parameter(format!("finding {id}: unreadable result: {e}")))?;
    let settings: serde_json::Value = serde_json::from_str(&finding.settings).unwrap_or_default();
    let check = serde_json::from_value(settings["check"].clone()).unwrap_or_default();
    let params = serde_json::from_value(settings["fingerprint"].clone()).unwrap_or_else(|_| store.params());
    let sources: Vec<(u32, String)> =
        report.sources.iter().filter_map(|s| Some((s.id, store.text(s.id).ok()??))).collect();
    let stats = store.stats()?;
    let html = super::html(&super::ReportInput {
        report: &report,
        suspect_text: &finding.text,
        source_texts: &sources,
        corpus: super::CorpusSize { documents: stats.documents, windows: stats.windows },
        params,
        check,
        generated_at: crate::engine::time::now(),
    });
    // The report says whether its package is timestamped (a TSA that fails writes no package).
    let stamp_note = match &opts.tsa {
        Some(tsa) => format!("RFC 3161 timestamp by {} over datapackage.json", super::escape(tsa)),
        None => "not timestamped (no time-stamping authority set)".to_string(),
    };
    let html =
        html.replacen("<footer>", &format!("<p class=\"timestamp\">Evidence package: {stamp_note}.</p>\n<footer>"), 1);
    evidence_wacz(&finding, &html, opts).map_err(|e| crate::Error::Parameter(format!("finding {id}: {e}")))
}

/// Writes the evidence package of finding `id` to `path` whole or not at all: into a
/// temporary file beside it, then renamed, so a reader (or a crash) never sees half a zip.
pub fn write_package(store: &Store, id: i64, path: &std::path::Path, opts: &EvidenceOptions) -> crate::Result<()> {
    super::write_whole(path, &package(store, id, opts)?)
}

/// What verifying a package found: what holds, and what does not (each naming the file).
#[derive(Clone, Debug, Default)]
pub struct Verification {
    pub holds: Vec<String>,
    pub problems: Vec<String>,
    /// Whether a timestamp was found and verified.
    pub timestamped: bool,
}

/// Checks a package: every file against datapackage.json, datapackage.json against
/// datapackage-digest.json, every WARC record's digests, the timestamp's signature and
/// that it stamps datapackage.json.
pub fn verify(package: &[u8]) -> Verification {
    let mut v = Verification::default();
    let mut zip = match zip::ZipArchive::new(std::io::Cursor::new(package)) {
        Ok(z) => z,
        Err(e) => {
            v.problems.push(format!("not a readable zip (its directory is damaged or the file was cut): {e}"));
            return v;
        }
    };
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for i in 0..zip.len() {
        let mut entry = match zip.by_index(i) {
            Ok(e) => e,
            Err(e) => {
                v.problems.push(format!("zip entry {}: unreadable: {e}", i + 1));
                continue;
            }
        };
        let name = entry.name().map_or_else(|_| "?".to_string(), |n| n.into_owned());
        let mut bytes = Vec::new();
        if let Err(e) = entry.read_to_end(&mut bytes) {
            v.problems
                .push(format!("{name}: its bytes do not match the zip's checksum (changed after packaging): {e}"));
            continue;
        }
        files.push((name, bytes));
    }
    let get = |name: &str| files.iter().find(|(n, _)| n == name).map(|(_, b)| b.as_slice());
    let Some(datapackage) = get("datapackage.json") else {
        v.problems.push("datapackage.json: missing (not a Zhiwen evidence package or WACZ?)".into());
        return v;
    };
    let digest_hex = sha256(datapackage);
    match get("datapackage-digest.json").map(serde_json::from_slice::<serde_json::Value>) {
        Some(Ok(d)) => {
            if d["hash"].as_str() == Some(&format!("sha256:{digest_hex}")) {
                v.holds.push(format!("datapackage.json has the SHA-256 datapackage-digest.json gives ({digest_hex})"));
            } else {
                v.problems
                    .push("datapackage.json: its SHA-256 is not the one in datapackage-digest.json (changed)".into());
            }
            match d["timestamp"]["response"].as_str() {
                None => v.holds.push("not timestamped: nothing proves when the package was made".into()),
                Some(b64) => match base64::engine::general_purpose::STANDARD.decode(b64) {
                    Err(e) => v.problems.push(format!("datapackage-digest.json: the timestamp is not base 64: {e}")),
                    Ok(token) => {
                        let digest = sha256_bytes(datapackage);
                        match timestamp::check(&token, &digest) {
                            Ok(stamp) => {
                                v.timestamped = true;
                                v.holds.push(format!(
                                    "RFC 3161 timestamp: datapackage.json existed as it is at {} ({}), signed by \
                                     \"{}\" (the signature verifies with the certificate in the token; whether that \
                                     authority is one you trust is checked by `openssl ts -verify -CAfile`)",
                                    stamp.unix.map_or(stamp.time.clone(), crate::engine::time::rfc3339),
                                    stamp.time,
                                    stamp.signer
                                ));
                            }
                            Err(e) => v.problems.push(format!("the timestamp does not hold for datapackage.json: {e}")),
                        }
                    }
                },
            }
        }
        Some(Err(e)) => v.problems.push(format!("datapackage-digest.json: unreadable: {e}")),
        None => v.problems.push("datapackage-digest.json: missing".into()),
    }
    let listed: serde_json::Value = match serde_json::from_slice(datapackage) {
        Ok(l) => l,
        Err(e) => {
            v.problems.push(format!("datapackage.json: unreadable: {e}"));
            return v;
        }
    };
    let resources = listed["resources"].as_array().cloned().unwrap_or_default();
    let mut ok = 0;
    for r in &resources {
        let path = r["path"].as_str().unwrap_or("");
        match get(path) {
            None if v.problems.iter().any(|p| p.starts_with(&format!("{path}:"))) => {}
            None => v.problems.push(format!("{path}: listed in datapackage.json but missing")),
            Some(bytes) if r["hash"].as_str() == Some(&format!("sha256:{}", sha256(bytes))) => ok += 1,
            Some(_) => v.problems.push(format!("{path}: its SHA-256 is not the one datapackage.json lists (changed)")),
        }
    }
    v.holds.push(format!("{ok} of {} files have the SHA-256 datapackage.json lists", resources.len()));
    for (name, _) in &files {
        let known = name == "datapackage.json"
            || name == "datapackage-digest.json"
            || resources.iter().any(|r| r["path"].as_str() == Some(name));
        if !known {
            v.problems.push(format!("{name}: not listed in datapackage.json (added after packaging)"));
        }
    }
    let mut records_ok = 0;
    for (name, bytes) in files.iter().filter(|(n, _)| n.ends_with(".warc.gz")) {
        let problems = warc::check_digests(bytes);
        if problems.is_empty() {
            records_ok += 1;
        }
        v.problems.extend(problems.into_iter().map(|p| format!("{name}: {p}")));
    }
    v.holds.push(format!("{records_ok} WARC files whose every record has its block and payload digests"));
    v
}

#[cfg(test)]
mod tests {
    #[test]
    fn surt_keys_match_the_python_surt_package() {
        // Outputs of `surt.surt` for the same URLs.
        assert_eq!(super::surt("http://127.0.0.1:8080/book/1.html?a=1"), "1,0,0,127:8080)/book/1.html?a=1");
        assert_eq!(super::surt("https://www.Example.com/A/b?x=2&a=1"), "com,example)/a/b?a=1&x=2");
        assert_eq!(super::surt("http://example.com:80/"), "com,example)/");
    }
}
