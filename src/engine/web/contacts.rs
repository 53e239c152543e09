//! Who a notice should go to: the hosting network's abuse contact from its RDAP record
//! (RFC 9083) and the addresses on the site's own contact, DMCA or 版权/侵权/联系我们 page.
//!
//! Everything is fetched through the [`Fetcher`] (robots.txt, per-host delay, size cap). The
//! RDAP base is a setting (default [`DEFAULT_RDAP_BASE`], a bootstrap redirector that sends
//! `ip/<addr>` on to the registry holding the network). A lookup that fails is reported as a
//! note beside the suggestions found elsewhere; it never stops the notice.

use crate::engine::web::crawl::{links, page_text};
use crate::engine::web::fetch::Fetcher;
use url::Url;

/// A public RDAP bootstrap redirector (answers `ip/<addr>` with a redirect to the RIR).
pub const DEFAULT_RDAP_BASE: &str = "https://rdap.org";

/// Contact pages read from a site's home page at most (the links that look most like one).
const CONTACT_PAGES: usize = 3;

/// One address a notice could be sent to, and where it was found.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Recipient {
    pub email: String,
    /// e.g. `RDAP abuse contact of network EXAMPLE-NET (127.0.0.1)` or `contact page http://…`.
    pub source: String,
}

/// The suggestions for a site, and what could not be looked up (one line each).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Recipients {
    pub suggestions: Vec<Recipient>,
    pub notes: Vec<String>,
}

/// The e-mail addresses of the `abuse` entities of an RDAP IP network answer, walking
/// nested entities (the abuse contact often sits inside the registrant's entity), and the
/// network's name.
pub fn abuse_emails(rdap: &serde_json::Value) -> (Vec<String>, String) {
    fn walk(entity: &serde_json::Value, out: &mut Vec<String>) {
        let is_abuse = entity["roles"].as_array().is_some_and(|r| r.iter().any(|r| r.as_str() == Some("abuse")));
        if is_abuse {
            // jCard (RFC 7095): ["vcard", [[name, params, type, value...], ...]]
            for prop in entity["vcardArray"][1].as_array().into_iter().flatten() {
                if prop[0].as_str() == Some("email")
                    && let Some(email) = prop[3].as_str()
                {
                    let email = email.trim().trim_start_matches("mailto:").to_string();
                    if email.contains('@') && !out.contains(&email) {
                        out.push(email);
                    }
                }
            }
        }
        for inner in entity["entities"].as_array().into_iter().flatten() {
            walk(inner, out);
        }
    }
    let mut out = Vec::new();
    for entity in rdap["entities"].as_array().into_iter().flatten() {
        walk(entity, &mut out);
    }
    let name = rdap["name"].as_str().or(rdap["handle"].as_str()).unwrap_or("").to_string();
    (out, name)
}

/// The abuse contacts of the network holding `ip`, asked at `rdap_base` (`<base>/ip/<ip>`).
pub fn rdap_abuse(fetcher: &mut Fetcher, rdap_base: &str, ip: std::net::IpAddr) -> Result<Vec<Recipient>, String> {
    let url = format!("{}/ip/{ip}", rdap_base.trim_end_matches('/'));
    let page = fetcher.fetch_named(&url).map_err(|e| format!("RDAP lookup of {ip}: {e}"))?;
    if page.status != 200 {
        return Err(format!("RDAP lookup of {ip} at {url}: HTTP {}", page.status));
    }
    let json: serde_json::Value = serde_json::from_slice(&page.bytes)
        .map_err(|e| format!("RDAP lookup of {ip} at {url}: not RDAP JSON ({e})"))?;
    let (emails, network) = abuse_emails(&json);
    if emails.is_empty() {
        return Err(format!("RDAP record of {ip} ({url}) names no abuse contact with an e-mail address"));
    }
    let network = if network.is_empty() { String::new() } else { format!("network {network} ") };
    Ok(emails
        .into_iter()
        .map(|email| Recipient { email, source: format!("RDAP abuse contact of {network}({ip})") })
        .collect())
}

/// Whether a link (its URL and anchor text) looks like a contact, DMCA or copyright page.
fn looks_like_contact(url: &Url, text: &str) -> bool {
    let text = text.to_lowercase();
    let path = url.path().to_lowercase();
    ["联系我们", "联系", "版权", "侵权", "举报", "投诉", "免责"].iter().any(|w| text.contains(w))
        || ["contact", "dmca", "copyright", "abuse", "takedown", "lianxi", "banquan"]
            .iter()
            .any(|w| text.contains(w) || path.contains(w))
}

/// E-mail addresses in a page's markup (`mailto:` links and plain text), in order, once each.
pub fn emails_in(markup: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // Split on anything that cannot be part of an address; keep the pieces with one '@'.
    for word in markup.split(|c: char| !(c.is_ascii_alphanumeric() || "@._+-".contains(c))) {
        let word = word.trim_matches(|c: char| c == '.' || c == '-');
        let Some((local, domain)) = word.split_once('@') else { continue };
        if local.is_empty() || domain.contains('@') || !domain.contains('.') || domain.ends_with('.') {
            continue;
        }
        let tld = domain.rsplit('.').next().unwrap_or("");
        // Image names such as logo@2x.png are not addresses.
        if tld.len() < 2 || !tld.chars().all(|c| c.is_ascii_alphabetic()) || ["png", "jpg", "gif"].contains(&tld) {
            continue;
        }
        let email = word.to_string();
        if !out.iter().any(|e| e.eq_ignore_ascii_case(&email)) {
            out.push(email);
        }
    }
    out
}

/// The addresses on the site's own contact pages, found from links on its home page.
pub fn site_contacts(fetcher: &mut Fetcher, site: &Url) -> Result<Vec<Recipient>, String> {
    let home = site.join("/").map_err(|e| format!("{site}: {e}"))?;
    let page = fetcher.fetch(home.as_str()).map_err(|e| format!("home page {home}: {e}"))?;
    let base = Url::parse(&page.final_url).unwrap_or(home.clone());
    let mut pages: Vec<Url> = Vec::new();
    for (url, text, _) in links(&page_text(&page), &base) {
        if url.host_str() == base.host_str() && looks_like_contact(&url, &text) && !pages.contains(&url) {
            pages.push(url);
        }
    }
    let mut out: Vec<Recipient> = Vec::new();
    for url in pages.into_iter().take(CONTACT_PAGES) {
        match fetcher.fetch(url.as_str()) {
            Ok(p) if p.status == 200 => {
                for email in emails_in(&page_text(&p)) {
                    if !out.iter().any(|r| r.email == email) {
                        out.push(Recipient { email, source: format!("contact page {url}") });
                    }
                }
            }
            Ok(p) => return Err(format!("contact page {url}: HTTP {}", p.status)),
            Err(e) => return Err(format!("contact page {url}: {e}")),
        }
    }
    Ok(out)
}

/// The recipients to suggest for a notice to the site of `page_url`: the site's own contact
/// addresses first (they reach the site itself), then the hosting network's abuse contacts.
pub fn suggest(fetcher: &mut Fetcher, rdap_base: &str, page_url: &str) -> Recipients {
    use std::net::ToSocketAddrs;
    let mut r = Recipients::default();
    let url = match Url::parse(page_url) {
        Ok(u) if u.host_str().is_some() => u,
        _ => {
            r.notes.push(format!("{page_url}: not a web address"));
            return r;
        }
    };
    match site_contacts(fetcher, &url) {
        Ok(found) if found.is_empty() => {
            r.notes.push(format!("{}: no contact page with an address", url.origin().ascii_serialization()))
        }
        Ok(found) => r.suggestions.extend(found),
        Err(e) => r.notes.push(e),
    }
    let host = url.host_str().unwrap_or("").trim_start_matches('[').trim_end_matches(']').to_string();
    let port = url.port_or_known_default().unwrap_or(80);
    match (host.as_str(), port).to_socket_addrs().map(|mut a| a.next()) {
        Ok(Some(addr)) => match rdap_abuse(fetcher, rdap_base, addr.ip()) {
            Ok(found) => {
                for f in found {
                    if !r.suggestions.iter().any(|s| s.email == f.email) {
                        r.suggestions.push(f);
                    }
                }
            }
            Err(e) => r.notes.push(e),
        },
        Ok(None) => r.notes.push(format!("{host}: no address (DNS)")),
        Err(e) => r.notes.push(format!("{host}: not found (DNS): {e}")),
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_found_in_text_and_links_but_not_in_image_names() {
        let html = r#"<p>侵权投诉请发邮件至 <a href="mailto:dmca@pirate.example">dmca@pirate.example</a>，
            或 copyright.team@pirate.example.</p><img src="logo@2x.png"> a@b"#;
        assert_eq!(emails_in(html), vec!["dmca@pirate.example", "copyright.team@pirate.example"]);
    }

    #[test]
    fn the_abuse_entity_is_found_inside_another_entity() {
        let rdap = serde_json::json!({
            "objectClassName": "ip network", "name": "PIRATE-NET",
            "entities": [
                {"roles": ["registrant"], "vcardArray": ["vcard", [["email", {}, "text", "owner@net.example"]]],
                 "entities": [{"roles": ["abuse"], "vcardArray": ["vcard", [["fn", {}, "text", "Abuse"],
                     ["email", {}, "text", "abuse@net.example"]]]}]}
            ]
        });
        assert_eq!(abuse_emails(&rdap), (vec!["abuse@net.example".to_string()], "PIRATE-NET".to_string()));
    }
}
