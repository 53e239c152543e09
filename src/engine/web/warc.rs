//! WARC/1.1 (ISO 28500): one capture of a page as the web-archiving standard records it.
//!
//! A capture file holds, each record in its own gzip member (so a reader can seek to any
//! record): a `warcinfo` record (the software and its settings), then for every request
//! made for the page, redirects included, a `request` record with the bytes sent and a
//! `response` record with the bytes received (status line, headers and body exactly as on
//! the wire: chunked stays chunked, gzip stays gzip), and last a `metadata` record (JSON:
//! the redirect chain, DNS answers, the addresses connected to, the software and settings).
//!
//! Digests are SHA-256 in base 32 (`sha256:…`, as the WARC examples write them):
//! `WARC-Block-Digest` over a record's whole block, `WARC-Payload-Digest` over a response's
//! body as received (the bytes after the header block, encodings kept; what warcio and
//! pywb compute). Record ids are UUIDs made from a hash of the record's date, URI, type
//! and digest, so the same capture always writes the same bytes.
//!
//! [`read`] splits a capture file back into records (for indexes and verification) and
//! [`check_digests`] recomputes every digest.

use super::wire::Exchange;
use sha2::Digest;
use std::io::{Read, Write};

/// `WARC-Date` of unix microseconds: `2026-11-23T21:40:00.123456Z`.
pub fn warc_date(micros: i64) -> String {
    let secs = micros.div_euclid(1_000_000);
    let (y, mo, d, h, mi, s) = crate::engine::time::civil(secs);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{:06}Z", micros.rem_euclid(1_000_000))
}

/// RFC 4648 base 32 with padding, the digest encoding of WARC headers.
pub fn base32(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut out = String::new();
    for chunk in bytes.chunks(5) {
        let mut block = [0u8; 5];
        block[..chunk.len()].copy_from_slice(chunk);
        let bits = block.iter().fold(0u64, |acc, &b| acc << 8 | u64::from(b));
        let chars = (chunk.len() * 8).div_ceil(5);
        for i in 0..8 {
            if i < chars {
                out.push(ALPHABET[(bits >> (35 - 5 * i) & 31) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `sha256:<base 32>` of `bytes`.
pub fn digest(bytes: &[u8]) -> String {
    format!("sha256:{}", base32(&sha2::Sha256::digest(bytes)))
}

/// A record id: `<urn:uuid:…>` from a hash of what makes the record unique.
fn record_id(parts: &[&str]) -> String {
    let mut h = sha2::Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update([0]);
    }
    let mut b: [u8; 16] = h.finalize()[..16].try_into().expect("16 of 32 bytes");
    // Version 8 (custom), RFC 4122 variant.
    b[6] = (b[6] & 0x0f) | 0x80;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!("<urn:uuid:{}-{}-{}-{}-{}>", &hex[..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..])
}

/// The bytes after an HTTP message's header block (all of them when it has none).
pub fn http_body(message: &[u8]) -> &[u8] {
    message.windows(4).position(|w| w == b"\r\n\r\n").map_or(&message[message.len()..], |i| &message[i + 4..])
}

/// One record, gzip-compressed as its own member.
fn record(headers: &[(&str, String)], block: &[u8]) -> Vec<u8> {
    let mut plain = b"WARC/1.1\r\n".to_vec();
    for (name, value) in headers {
        // Header values never carry line breaks (a URL with one would end the header).
        let value: String = value.chars().filter(|c| !c.is_control()).collect();
        plain.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
    }
    plain.extend_from_slice(format!("Content-Length: {}\r\n\r\n", block.len()).as_bytes());
    plain.extend_from_slice(block);
    plain.extend_from_slice(b"\r\n\r\n");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&plain).expect("write to memory");
    gz.finish().expect("write to memory")
}

/// The status code of an HTTP response message, if its first line has one.
pub fn http_status(response: &[u8]) -> Option<u16> {
    let line = response.split(|&b| b == b'\n').next()?;
    std::str::from_utf8(line).ok()?.split_whitespace().nth(1)?.parse().ok()
}

/// A header of an HTTP message (the first with this name, case-insensitive).
pub fn http_header(message: &[u8], name: &str) -> Option<String> {
    let end = message.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or(message.len());
    String::from_utf8_lossy(&message[..end]).split("\r\n").skip(1).find_map(|line| {
        let (n, v) = line.split_once(':')?;
        n.trim().eq_ignore_ascii_case(name).then(|| v.trim().to_string())
    })
}

/// The capture file of one page: `exchanges` are its requests in order (redirects first,
/// the page last); `settings` (JSON) are the fetcher's, recorded in `warcinfo` and the
/// metadata record.
pub fn capture(exchanges: &[Exchange], settings: &serde_json::Value) -> Vec<u8> {
    let first = exchanges.first().map_or(0, |e| e.sent_at_micros);
    let software = format!("Zhiwen/{}", env!("CARGO_PKG_VERSION"));
    let info = format!(
        "software: {software}\r\nformat: WARC File Format 1.1\r\n\
         conformsTo: http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n\
         description: one capture of a page, its requests and responses as on the wire\r\n\
         settings: {}\r\n",
        settings
    );
    let info_id = record_id(&["warcinfo", &warc_date(first), &digest(info.as_bytes())]);
    let mut out = record(
        &[
            ("WARC-Type", "warcinfo".into()),
            ("WARC-Date", warc_date(first)),
            ("WARC-Record-ID", info_id.clone()),
            ("Content-Type", "application/warc-fields".into()),
            ("WARC-Block-Digest", digest(info.as_bytes())),
        ],
        info.as_bytes(),
    );
    let mut last_response = None;
    let mut chain = Vec::new();
    for e in exchanges {
        let date = warc_date(e.sent_at_micros);
        let response_id = record_id(&["response", &date, &e.url, &digest(&e.response)]);
        let request_id = record_id(&["request", &date, &e.url, &digest(&e.request)]);
        let ip = e.peer.map(|p| p.ip().to_string());
        let mut common = vec![("WARC-Target-URI", e.url.clone()), ("WARC-Date", date.clone())];
        if let Some(ip) = &ip {
            common.push(("WARC-IP-Address", ip.clone()));
        }
        common.push(("WARC-Warcinfo-ID", info_id.clone()));
        let mut request = vec![("WARC-Type", "request".to_string()), ("WARC-Record-ID", request_id.clone())];
        request.extend(common.iter().cloned());
        request.extend([
            ("WARC-Concurrent-To", response_id.clone()),
            ("Content-Type", "application/http;msgtype=request".into()),
            ("WARC-Block-Digest", digest(&e.request)),
        ]);
        let mut response = vec![("WARC-Type", "response".to_string()), ("WARC-Record-ID", response_id.clone())];
        response.extend(common);
        response.extend([
            ("Content-Type", "application/http;msgtype=response".into()),
            ("WARC-Block-Digest", digest(&e.response)),
            ("WARC-Payload-Digest", digest(http_body(&e.response))),
        ]);
        out.extend(record(&response, &e.response));
        out.extend(record(&request, &e.request));
        chain.push(serde_json::json!({
            "url": e.url,
            "sent_at": date,
            "status": http_status(&e.response),
            "location": http_header(&e.response, "location"),
            "ip_address": ip,
            "tls": e.tls,
            "dns": e.dns.iter().map(|(host, ips)| serde_json::json!({
                "host": host,
                "addresses": ips.iter().map(|ip| ip.to_string()).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "tls_certificates": certificates_json(&e.tls_certificates),
            "request_sha256": crate::engine::store::findings::sha256(&e.request),
            "response_sha256": crate::engine::store::findings::sha256(&e.response),
        }));
        last_response = Some((response_id, e.url.clone(), date));
    }
    if let Some((response_id, url, date)) = last_response {
        let metadata = serde_json::json!({
            "software": software,
            "settings": settings,
            "requests": chain,
            "tls_certificates": exchanges.last().map(|e| certificates_json(&e.tls_certificates)),
        });
        let block = serde_json::to_vec_pretty(&metadata).expect("metadata serializes");
        out.extend(record(
            &[
                ("WARC-Type", "metadata".into()),
                ("WARC-Target-URI", url.clone()),
                ("WARC-Date", date.clone()),
                ("WARC-Record-ID", record_id(&["metadata", &date, &url, &digest(&block)])),
                ("WARC-Refers-To", response_id),
                ("WARC-Warcinfo-ID", info_id),
                ("Content-Type", "application/json".into()),
                ("WARC-Block-Digest", digest(&block)),
            ],
            &block,
        ));
    }
    out
}

/// The URI prefixes of a rendered capture's records, as Webrecorder's crawler names them:
/// the screenshot (`urn:view:`), the DOM after scripts (`urn:dom:`) and the visible text
/// (`urn:text:`), each followed by the page's URL.
pub const RENDERED_PREFIXES: [(&str, &str); 3] =
    [("urn:view:", "image/png"), ("urn:dom:", "text/html; charset=utf-8"), ("urn:text:", "text/plain; charset=utf-8")];

/// The records of a page as Chromium rendered it ([`super::render`]), to append to the
/// page's capture file: three `resource` records (screenshot, DOM, visible text) and a
/// `metadata` record saying how they were made.
pub fn rendered_records(page_url: &str, rendered: &super::render::Rendered) -> Vec<u8> {
    let date = warc_date(rendered.rendered_at_micros);
    let blocks: [&[u8]; 3] = [&rendered.screenshot_png, rendered.dom.as_bytes(), rendered.visible_text.as_bytes()];
    let mut out = Vec::new();
    let mut ids = Vec::new();
    for ((prefix, content_type), block) in RENDERED_PREFIXES.iter().zip(blocks) {
        let uri = format!("{prefix}{page_url}");
        let id = record_id(&["resource", &date, &uri, &digest(block)]);
        out.extend(record(
            &[
                ("WARC-Type", "resource".into()),
                ("WARC-Target-URI", uri),
                ("WARC-Date", date.clone()),
                ("WARC-Record-ID", id.clone()),
                ("Content-Type", content_type.to_string()),
                ("WARC-Block-Digest", digest(block)),
            ],
            block,
        ));
        ids.push(id);
    }
    let about = serde_json::json!({
        "rendered_by": "headless Chromium over the DevTools protocol",
        "url_rendered": rendered.url,
        "screenshot": {"format": "PNG", "full_page": true, "width": rendered.width, "height": rendered.height},
        "dom": "document.documentElement.outerHTML after the load event and scripts",
        "visible_text": "text nodes whose element is visible by the computed style and whose boxes have a size inside the document",
        "records": ids,
        "note": "the browser's own requests (scripts, stylesheets, images) are not recorded; the wire records above are the plain fetch's",
    });
    let block = serde_json::to_vec_pretty(&about).expect("metadata serializes");
    out.extend(record(
        &[
            ("WARC-Type", "metadata".into()),
            ("WARC-Target-URI", format!("urn:view:{page_url}")),
            ("WARC-Date", date.clone()),
            ("WARC-Record-ID", record_id(&["metadata", &date, page_url, &digest(&block)])),
            ("WARC-Refers-To", ids[0].clone()),
            ("Content-Type", "application/json".into()),
            ("WARC-Block-Digest", digest(&block)),
        ],
        &block,
    ));
    out
}

/// A TLS certificate chain as the metadata record gives it: each certificate in PEM (the
/// server's own first) with its SHA-256 fingerprint; `openssl x509 -text` reads it.
pub fn certificates_json(chain: &[Vec<u8>]) -> serde_json::Value {
    use base64::Engine;
    chain
        .iter()
        .map(|der| {
            let b64 = base64::engine::general_purpose::STANDARD.encode(der);
            let lines: Vec<&str> =
                b64.as_bytes().chunks(64).map(|c| std::str::from_utf8(c).expect("base 64 is ASCII")).collect();
            let about = certificate_names(der);
            serde_json::json!({
                "subject": about.as_ref().map(|a| &a.subject),
                "issuer": about.as_ref().map(|a| &a.issuer),
                "not_before": about.as_ref().map(|a| &a.not_before),
                "not_after": about.as_ref().map(|a| &a.not_after),
                "pem": format!("-----BEGIN CERTIFICATE-----\n{}\n-----END CERTIFICATE-----\n", lines.join("\n")),
                "sha256": crate::engine::store::findings::sha256(der),
            })
        })
        .collect()
}

/// What a certificate says about itself, read from its DER (`None` when it cannot be).
pub struct CertificateNames {
    /// Distinguished names, RFC 4514 order as written (`CN=…, O=…`): the common attributes.
    pub subject: String,
    pub issuer: String,
    /// Validity, RFC 3339 (UTC).
    pub not_before: String,
    pub not_after: String,
}

/// One DER element: (tag, contents, what follows).
fn der(b: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = b.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (first as usize, rest)
    } else {
        let n = (first & 0x7f) as usize;
        if n == 0 || n > 4 || rest.len() < n {
            return None;
        }
        (rest[..n].iter().fold(0usize, |a, &x| (a << 8) | x as usize), &rest[n..])
    };
    (rest.len() >= len).then(|| (tag, &rest[..len], &rest[len..]))
}

/// A certificate's subject, issuer and validity (X.509 `TBSCertificate`'s fields in order).
pub fn certificate_names(cert: &[u8]) -> Option<CertificateNames> {
    let (_, cert, _) = der(cert)?;
    let (_, tbs, _) = der(cert)?;
    let (tag, _, mut rest) = der(tbs)?;
    if tag == 0xa0 {
        rest = der(rest)?.2; // the version came first; now the serial number
    }
    let (_, _, rest) = der(rest)?; // signature algorithm
    let (_, issuer, rest) = der(rest)?;
    let (_, validity, rest) = der(rest)?;
    let (_, subject, _) = der(rest)?;
    let (t1, before, after) = der(validity)?;
    let (t2, after, _) = der(after)?;
    Some(CertificateNames {
        subject: name(subject)?,
        issuer: name(issuer)?,
        not_before: time(t1, before)?,
        not_after: time(t2, after)?,
    })
}

fn name(mut rdns: &[u8]) -> Option<String> {
    let mut parts = Vec::new();
    while !rdns.is_empty() {
        let (_, set, rest) = der(rdns)?;
        rdns = rest;
        let (_, pair, _) = der(set)?;
        let (_, oid, value) = der(pair)?;
        let (_, value, _) = der(value)?;
        let key = match oid {
            [0x55, 0x04, 0x03] => "CN".to_string(),
            [0x55, 0x04, 0x06] => "C".into(),
            [0x55, 0x04, 0x07] => "L".into(),
            [0x55, 0x04, 0x08] => "ST".into(),
            [0x55, 0x04, 0x0a] => "O".into(),
            [0x55, 0x04, 0x0b] => "OU".into(),
            other => other.iter().map(|b| format!("{b:02x}")).collect::<String>(),
        };
        parts.push(format!("{key}={}", String::from_utf8_lossy(value)));
    }
    Some(parts.join(", "))
}

fn time(tag: u8, t: &[u8]) -> Option<String> {
    let t = std::str::from_utf8(t).ok()?.trim_end_matches('Z');
    let full = match tag {
        0x17 if t.len() == 12 => format!("{}{t}", if &t[..2] < "50" { "20" } else { "19" }),
        0x18 if t.len() == 14 => t.to_string(),
        _ => return None,
    };
    Some(format!(
        "{}-{}-{}T{}:{}:{}Z",
        &full[..4],
        &full[4..6],
        &full[6..8],
        &full[8..10],
        &full[10..12],
        &full[12..14]
    ))
}

/// A file as one `resource` record (its bytes as read, under a `file:` URI), after a
/// `warcinfo` record.
pub fn resource(uri: &str, date: &str, content_type: &str, bytes: &[u8]) -> Vec<u8> {
    let info = format!("software: Zhiwen/{}\r\nformat: WARC File Format 1.1\r\n", env!("CARGO_PKG_VERSION"));
    let info_id = record_id(&["warcinfo", date, &digest(info.as_bytes())]);
    let mut out = record(
        &[
            ("WARC-Type", "warcinfo".into()),
            ("WARC-Date", date.to_string()),
            ("WARC-Record-ID", info_id.clone()),
            ("Content-Type", "application/warc-fields".into()),
            ("WARC-Block-Digest", digest(info.as_bytes())),
        ],
        info.as_bytes(),
    );
    out.extend(record(
        &[
            ("WARC-Type", "resource".into()),
            ("WARC-Target-URI", uri.to_string()),
            ("WARC-Date", date.to_string()),
            ("WARC-Record-ID", record_id(&["resource", date, uri, &digest(bytes)])),
            ("WARC-Warcinfo-ID", info_id),
            ("Content-Type", content_type.to_string()),
            ("WARC-Block-Digest", digest(bytes)),
        ],
        bytes,
    ));
    out
}

/// One record read back from a capture file.
#[derive(Clone, Debug)]
pub struct ReadRecord {
    /// Where its gzip member starts in the file, and its compressed length.
    pub offset: usize,
    pub length: usize,
    pub headers: Vec<(String, String)>,
    pub block: Vec<u8>,
}

impl ReadRecord {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// The records of a capture file (gzip member per record); an error says which record
/// (by its offset) could not be read and why.
pub fn read(file: &[u8]) -> Result<Vec<ReadRecord>, String> {
    let mut records = Vec::new();
    let mut rest = file;
    while !rest.is_empty() {
        let offset = file.len() - rest.len();
        let mut plain = Vec::new();
        let mut gz = flate2::bufread::GzDecoder::new(rest);
        gz.read_to_end(&mut plain).map_err(|e| format!("record at byte {offset}: not gzip: {e}"))?;
        rest = gz.into_inner();
        let length = file.len() - rest.len() - offset;
        let head_end = plain
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .ok_or_else(|| format!("record at byte {offset}: no end of headers"))?;
        let head = String::from_utf8_lossy(&plain[..head_end]).into_owned();
        let mut lines = head.split("\r\n");
        if !lines.next().is_some_and(|l| l.starts_with("WARC/")) {
            return Err(format!("record at byte {offset}: not a WARC record"));
        }
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':').map(|(n, v)| (n.trim().to_string(), v.trim().to_string())))
            .collect();
        let declared: usize = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("Content-Length"))
            .and_then(|(_, v)| v.parse().ok())
            .ok_or_else(|| format!("record at byte {offset}: no Content-Length"))?;
        let block = plain
            .get(head_end + 4..head_end + 4 + declared)
            .ok_or_else(|| format!("record at byte {offset}: shorter than its Content-Length"))?
            .to_vec();
        records.push(ReadRecord { offset, length, headers, block });
    }
    Ok(records)
}

/// Every record's block and payload digest recomputed: the problems found, each naming its
/// record (type, URI, offset); empty when every digest holds.
pub fn check_digests(file: &[u8]) -> Vec<String> {
    let records = match read(file) {
        Ok(r) => r,
        Err(e) => return vec![e],
    };
    let mut problems = Vec::new();
    for r in &records {
        let name = format!(
            "{} record of {} (at byte {})",
            r.header("WARC-Type").unwrap_or("untyped"),
            r.header("WARC-Target-URI").unwrap_or("no URI"),
            r.offset
        );
        match r.header("WARC-Block-Digest") {
            Some(d) if d == digest(&r.block) => {}
            Some(_) => problems.push(format!("{name}: the block's digest does not match (bytes changed)")),
            None => problems.push(format!("{name}: no WARC-Block-Digest")),
        }
        if let Some(d) = r.header("WARC-Payload-Digest")
            && d != digest(http_body(&r.block))
        {
            problems.push(format!("{name}: the payload's digest does not match (bytes changed)"));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base32_matches_rfc_4648_vectors() {
        assert_eq!(base32(b""), "");
        assert_eq!(base32(b"f"), "MY======");
        assert_eq!(base32(b"fo"), "MZXQ====");
        assert_eq!(base32(b"foo"), "MZXW6===");
        assert_eq!(base32(b"foob"), "MZXW6YQ=");
        assert_eq!(base32(b"fooba"), "MZXW6YTB");
        assert_eq!(base32(b"foobar"), "MZXW6YTBOI======");
    }

    #[test]
    fn dates_have_microseconds() {
        assert_eq!(warc_date(1_000_000 * 86_400 + 5), "1970-01-02T00:00:00.000005Z");
    }

    #[test]
    fn a_capture_reads_back_and_a_changed_byte_is_named() {
        let exchange = Exchange {
            url: "http://example.test/a".into(),
            sent_at_micros: 1_700_000_000_123_456,
            request: b"GET /a HTTP/1.1\r\nHost: example.test\r\n\r\n".to_vec(),
            response: b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello".to_vec(),
            peer: Some("127.0.0.1:80".parse().unwrap()),
            ..Exchange::default()
        };
        let file = capture(std::slice::from_ref(&exchange), &serde_json::json!({"delay_ms": 1000}));
        let records = read(&file).unwrap();
        let kinds: Vec<_> = records.iter().map(|r| r.header("WARC-Type").unwrap()).collect();
        assert_eq!(kinds, ["warcinfo", "response", "request", "metadata"]);
        assert_eq!(records[1].block, exchange.response);
        assert_eq!(records[1].header("WARC-IP-Address"), Some("127.0.0.1"));
        assert_eq!(records[1].header("WARC-Payload-Digest"), Some(digest(b"hello").as_str()));
        assert!(check_digests(&file).is_empty());
        assert_eq!(
            capture(std::slice::from_ref(&exchange), &serde_json::json!({"delay_ms": 1000})),
            file,
            "deterministic"
        );

        // A record rewritten with one byte changed but its old digest kept.
        let mut changed = exchange.clone();
        changed.response[exchange.response.len() - 1] = b'!';
        let mut forged = Vec::new();
        for r in &records {
            let block = if r.header("WARC-Type") == Some("response") { &changed.response } else { &r.block };
            let headers: Vec<(&str, String)> =
                r.headers.iter().filter(|(n, _)| n != "Content-Length").map(|(n, v)| (n.as_str(), v.clone())).collect();
            forged.extend(record(&headers, block));
        }
        let problems = check_digests(&forged);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("response record of http://example.test/a"), "{problems:?}");
    }
}
