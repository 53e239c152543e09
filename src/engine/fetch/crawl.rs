//! Pages → web suspects.
//!
//! A pirate site serves a chapter as one page or as several (`下一页`, `rel="next"`), and
//! lists a book's chapters on a table of contents. [`chapter`] fetches a chapter page by
//! page and joins its text; [`table_of_contents`] lists the chapter links of a contents
//! page: same-site links under the contents page's folder (`/book/123/` → `/book/123/1.html`),
//! or all same-site links where none are.

use super::{Fetcher, Page};
use crate::engine::decode::decode_web_page;
use crate::engine::progress::Cancel;
use crate::{Error, Result};
use scraper::{Html, Selector};
use std::collections::HashSet;
use url::Url;

/// Pages fetched for one chapter at most (a chapter split over more is cut there).
pub const MAX_PAGES_PER_CHAPTER: usize = 50;

/// One suspect from the web: the pages it was read from, in order, and their joined text.
#[derive(Clone, Debug)]
pub struct WebSuspect {
    /// The URL asked for (the chapter's first page).
    pub url: String,
    pub pages: Vec<Page>,
    pub text: String,
}

impl WebSuspect {
    /// The URL that answered the first request, after redirects.
    pub fn final_url(&self) -> &str {
        self.pages.first().map_or(&self.url, |p| p.final_url.as_str())
    }
}

/// Links of an HTML page, resolved against `base`: (URL, anchor text, rel).
fn links(page: &str, base: &Url) -> Vec<(Url, String, String)> {
    let doc = Html::parse_document(page);
    let anchors = Selector::parse("a[href], link[href]").expect("valid selector");
    doc.select(&anchors)
        .filter_map(|a| {
            let mut url = base.join(a.value().attr("href")?).ok()?;
            url.set_fragment(None);
            matches!(url.scheme(), "http" | "https").then_some(())?;
            let text: String = a.text().collect::<String>().trim().to_string();
            let rel = a.value().attr("rel").unwrap_or("").to_ascii_lowercase();
            Some((url, text, rel))
        })
        .collect()
}

/// The page's markup, for finding its links.
fn page_text(page: &Page) -> String {
    crate::engine::decode::web_page_markup(&page.bytes, page.header("content-type"))
}

/// The next page of a chapter split over pages: a `rel="next"` link or one reading 下一页
/// ("next page"; not 下一章, the next chapter), on the same site, not yet read, and not
/// one of `chapters` (a contents page's own list: those are chapters of their own).
fn next_page(page: &Page, seen: &HashSet<Url>, chapters: &HashSet<Url>) -> Option<Url> {
    let base = Url::parse(&page.final_url).ok()?;
    links(&page_text(page), &base).into_iter().find_map(|(url, text, rel)| {
        let says_next = rel.split_whitespace().any(|r| r == "next") || text.contains("下一页") || text.contains("下页");
        (says_next
            && !text.contains("下一章")
            && url.host_str() == base.host_str()
            && !seen.contains(&url)
            && !chapters.contains(&url))
        .then_some(url)
    })
}

/// Fetches the chapter at `url`, page by page while a next page follows, and joins their
/// text. `chapters` are the contents page's chapter links, never taken for next pages.
/// `named`: the user named `url` (it was not found by following links), so its first page is
/// fetched with [`Fetcher::fetch_named`].
pub fn chapter(
    fetcher: &mut Fetcher,
    url: &str,
    chapters: &HashSet<Url>,
    named: bool,
    cancel: &Cancel,
) -> Result<WebSuspect> {
    let first = if named { fetcher.fetch_named(url)? } else { fetcher.fetch(url)? };
    let mut text = decode_web_page(url, &first.bytes, first.header("content-type"))?.text;
    let mut seen: HashSet<Url> = [&first.url, &first.final_url].iter().filter_map(|u| Url::parse(u).ok()).collect();
    let mut pages = vec![first];
    while pages.len() < MAX_PAGES_PER_CHAPTER && !cancel.is_cancelled() {
        let Some(next) = next_page(pages.last().expect("one page at least"), &seen, chapters) else { break };
        seen.insert(next.clone());
        // A later page that fails ends the chapter; what was read is kept.
        let Ok(page) = fetcher.fetch(next.as_str()) else { break };
        let Ok(decoded) = decode_web_page(next.as_str(), &page.bytes, page.header("content-type")) else { break };
        text.push('\n');
        text.push_str(&decoded.text);
        pages.push(page);
    }
    Ok(WebSuspect { url: url.to_string(), pages, text })
}

/// The chapter links of the contents page `page`, in page order, without repeats.
pub fn table_of_contents(page: &Page) -> Result<Vec<Url>> {
    let base = Url::parse(&page.final_url)
        .map_err(|e| Error::Fetch { url: page.url.clone(), reason: format!("bad final URL: {e}") })?;
    let folder = base.join("./").map_or_else(|_| base.path().to_string(), |u| u.path().to_string());
    let mut seen = HashSet::from([base.clone()]);
    let same_site: Vec<Url> = links(&page_text(page), &base)
        .into_iter()
        .map(|(u, _, _)| u)
        .filter(|u| u.host_str() == base.host_str() && u.port_or_known_default() == base.port_or_known_default())
        .filter(|u| seen.insert(u.clone()))
        .collect();
    let under: Vec<Url> =
        same_site.iter().filter(|u| u.path().starts_with(&folder) && u.path() != folder).cloned().collect();
    Ok(if under.is_empty() { same_site } else { under })
}
