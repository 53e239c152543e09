//! Evidence packages: one finding as a zip a platform or a lawyer can check on their own.
//!
//! The package holds the bytes exactly as they were received (`captured/`), the response
//! headers, the extracted text, the match report (HTML) and its data (JSON), and a
//! `manifest.json` naming what was checked, when it was captured (UTC), the tool and its
//! settings, with the SHA-256 of every other file; `SHA256SUMS` lists the same hashes in
//! the format `sha256sum -c` reads, so anyone can verify that nothing changed after capture.

use crate::engine::store::{Finding, Store, findings::sha256};
use std::io::Write;

/// The file name a captured page gets: by its content type, or the file's own name.
fn captured_name(i: usize, page: &crate::engine::store::CapturedPage) -> String {
    let kind = page.headers.iter().find(|(n, _)| n == "content-type").map_or("", |(_, v)| v.as_str());
    let ext = if kind.contains("html") {
        "html".to_string()
    } else if kind.contains("text/plain") {
        "txt".to_string()
    } else if page.status.is_none() {
        std::path::Path::new(&page.url).extension().map_or("bin".into(), |e| e.to_string_lossy().into_owned())
    } else {
        "bin".to_string()
    };
    format!("captured/page-{}.{ext}", i + 1)
}

/// The package of `finding` as zip bytes; `report_html` is its match report.
pub fn evidence_zip(finding: &Finding, report_html: &str) -> std::io::Result<Vec<u8>> {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut pages = Vec::new();
    for (i, p) in finding.pages.iter().enumerate() {
        let name = captured_name(i, p);
        pages.push(serde_json::json!({
            "url": p.url,
            "final_url": p.final_url,
            "status": p.status,
            "fetched_at": crate::engine::time::rfc3339(p.fetched_at),
            "file": name,
        }));
        files.push((name, p.bytes.clone()));
        if p.status.is_some() {
            let headers = serde_json::to_vec_pretty(&p.headers).expect("headers serialize");
            files.push((format!("captured/page-{}.headers.json", i + 1), headers));
        }
    }
    files.push(("text.txt".into(), finding.text.as_bytes().to_vec()));
    files.push(("report.html".into(), report_html.as_bytes().to_vec()));
    files.push(("result.json".into(), finding.result.as_bytes().to_vec()));
    let hashes: Vec<serde_json::Value> = files
        .iter()
        .map(|(name, bytes)| serde_json::json!({ "name": name, "sha256": sha256(bytes), "bytes": bytes.len() }))
        .collect();
    let settings: serde_json::Value = serde_json::from_str(&finding.settings).unwrap_or_default();
    let captured_at = finding.pages.first().map_or(finding.info.checked_at, |p| p.fetched_at);
    let manifest = serde_json::json!({
        "tool": "Zhiwen",
        "version": env!("CARGO_PKG_VERSION"),
        "finding_id": finding.info.id,
        "kind": finding.info.kind,
        "target": finding.info.target,
        "final_url": finding.info.final_url,
        "captured_at": crate::engine::time::rfc3339(captured_at),
        "checked_at": crate::engine::time::rfc3339(finding.info.checked_at),
        "sha256_of_captured_bytes": finding.info.sha256,
        "similarity": finding.info.similarity,
        "settings": settings,
        "pages": pages,
        "files": hashes,
    });
    let sums: String = files.iter().map(|(name, bytes)| format!("{}  {name}\n", sha256(bytes))).collect();
    files.push(("manifest.json".into(), serde_json::to_vec_pretty(&manifest).expect("manifest serializes")));
    files.push(("SHA256SUMS".into(), sums.into_bytes()));

    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in &files {
        zip.start_file(name.as_str(), options).map_err(std::io::Error::other)?;
        zip.write_all(bytes)?;
    }
    Ok(zip.finish().map_err(std::io::Error::other)?.into_inner())
}

/// The evidence package of finding `id` in `store`, its match report made from the stored
/// result, the finding's own settings and the source texts the store holds now.
pub fn package(store: &Store, id: i64) -> crate::Result<Vec<u8>> {
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
    evidence_zip(&finding, &html).map_err(|e| crate::Error::Parameter(format!("finding {id}: {e}")))
}

/// Writes the evidence package of finding `id` to `path` whole or not at all: into a
/// temporary file beside it, then renamed, so a reader (or a crash) never sees half a zip.
pub fn write_package(store: &Store, id: i64, path: &std::path::Path) -> crate::Result<()> {
    let zip = package(store, id)?;
    let io = |source| crate::Error::Io { path: path.to_path_buf(), source };
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io)?;
    tmp.write_all(&zip).map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}
