//! Learning a pirate site from one copy found on it: where its contents page for the book
//! is, what its sitemaps list, and what its own search box answers for the work's title.
//!
//! A search engine indexes only some of a site's chapters; the rest are found from the
//! site itself:
//! - **contents pages** ([`contents_candidates`]): from a chapter page, links reading
//!   目录/章节目录/返回书页/…, the links of its breadcrumb, and the chapter's parent folder;
//! - **sitemaps** ([`sitemap_urls`]): `Sitemap:` lines of robots.txt and `/sitemap.xml`,
//!   sitemap indexes followed, gzip undone;
//! - **site search** ([`site_search`]): the search form of the home page (or `/search?q=`)
//!   asked for the work's title; result links naming the title lead to the book.
//!
//! Everything is fetched through the caller's [`Fetcher`], so robots.txt, per-host delays
//! and the public-address rule apply to each request.

use super::crawl::{links, page_text};
use super::fetch::{Fetcher, Page};
use scraper::{Html, Selector};
use std::collections::HashSet;
use std::io::Read;
use url::Url;

/// Words of links that lead back to a book's contents page.
const CONTENTS_WORDS: &[&str] = &[
    "目录",
    "章节目录",
    "章节列表",
    "全部章节",
    "返回书页",
    "返回目录",
    "书页",
    "返回列表",
    "table of contents",
    "contents",
    "index",
];

/// Sitemap files read per site at most (an index and the sitemaps it lists).
pub const MAX_SITEMAPS: usize = 20;
/// Largest sitemap accepted after gzip is undone (the sitemap protocol's own limit).
const MAX_SITEMAP_BYTES: u64 = 50 << 20;

/// Where the contents page of the book a chapter page belongs to may be: contents links,
/// breadcrumb links and the parent folder, most likely first, on the chapter's site only.
pub fn contents_candidates(chapter: &Page) -> Vec<Url> {
    let Ok(base) = Url::parse(&chapter.final_url) else { return Vec::new() };
    let same_site =
        |u: &Url| u.host_str() == base.host_str() && u.port_or_known_default() == base.port_or_known_default();
    let markup = page_text(chapter);
    let mut out: Vec<Url> = Vec::new();
    let push = |u: Url, out: &mut Vec<Url>| {
        if same_site(&u) && u != base && u.path() != "/" && !out.contains(&u) {
            out.push(u);
        }
    };
    for (url, text, _) in links(&markup, &base) {
        let t = text.trim().to_lowercase();
        if CONTENTS_WORDS.iter().any(|w| t == *w || (w.chars().count() > 2 && t.contains(w))) {
            push(url, &mut out);
        }
    }
    // Breadcrumbs: the links inside an element whose class or id names one, last (the
    // book) first.
    let doc = Html::parse_document(&markup);
    let crumbs = Selector::parse(
        "[class*=crumb] a[href], [id*=crumb] a[href], [class*=position] a[href], [class*=location] a[href], nav a[href]",
    )
    .expect("valid selector");
    let mut trail: Vec<Url> = doc
        .select(&crumbs)
        .filter_map(|a| base.join(a.value().attr("href")?).ok())
        .filter(|u| u.path() != "/")
        .collect();
    trail.reverse();
    for u in trail {
        push(u, &mut out);
    }
    if let Ok(parent) = base.join("./") {
        push(parent, &mut out);
    }
    out
}

/// The page URLs a site's sitemaps list (robots.txt's `Sitemap:` lines, else
/// `/sitemap.xml`), following sitemap indexes, at most `limit`, reading at most
/// `max_files` sitemap files; and how many files were fetched. Unreadable sitemaps are
/// skipped: a site without one simply has none.
pub fn sitemap_urls(fetcher: &mut Fetcher, site: &Url, limit: usize, max_files: usize) -> (Vec<Url>, usize) {
    // `Sitemap:` should be absolute; a relative one is read against the site.
    let mut queue: Vec<String> =
        fetcher.sitemaps_of(site).iter().filter_map(|s| site.join(s.trim()).ok()).map(String::from).collect();
    if queue.is_empty()
        && let Ok(default) = site.join("/sitemap.xml")
    {
        queue.push(default.to_string());
    }
    let mut read = HashSet::new();
    let mut pages = Vec::new();
    let mut seen = HashSet::new();
    while let Some(next) = queue.pop() {
        if read.len() >= MAX_SITEMAPS.min(max_files) || pages.len() >= limit {
            break;
        }
        if !read.insert(next.clone()) {
            continue;
        }
        let Ok(page) = fetcher.fetch(&next) else { continue };
        let Some(xml) = sitemap_xml(&page.bytes) else { continue };
        let (locs, is_index) = sitemap_locs(&xml);
        for loc in locs {
            let Ok(url) = Url::parse(loc.trim()) else { continue };
            if url.host_str() != site.host_str() {
                continue; // sitemaps may only list their own site's pages
            }
            if is_index {
                queue.push(url.to_string());
            } else if pages.len() < limit && seen.insert(url.clone()) {
                pages.push(url);
            }
        }
    }
    (pages, read.len())
}

/// The sitemap's text, gzip undone (a `.xml.gz` arrives as gzip bytes, not encoded).
fn sitemap_xml(bytes: &[u8]) -> Option<String> {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(bytes).take(MAX_SITEMAP_BYTES).read_to_end(&mut out).ok()?;
        return String::from_utf8(out).ok();
    }
    String::from_utf8(bytes.to_vec()).ok()
}

/// The `<loc>` values of a sitemap, and whether it is a sitemap index. Broken XML gives
/// the values read before the damage.
fn sitemap_locs(xml: &str) -> (Vec<String>, bool) {
    use crate::engine::decode::archive::resolve_entity;
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut locs = Vec::new();
    let mut loc: Option<String> = None;
    let mut is_index = false;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) => match e.local_name().as_ref() {
                "sitemapindex" => is_index = true,
                "loc" => loc = Some(String::new()),
                _ => {}
            },
            Ok(Event::Text(t)) => {
                if let Some(l) = &mut loc {
                    l.push_str(&t.xml10_content());
                }
            }
            Ok(Event::GeneralRef(r)) => {
                if let Some(l) = &mut loc {
                    l.push_str(&resolve_entity(&r.xml10_content()));
                }
            }
            Ok(Event::CData(t)) => {
                if let Some(l) = &mut loc {
                    l.push_str(&t.into_inner());
                }
            }
            Ok(Event::End(e)) if e.local_name().as_ref() == "loc" => {
                if let Some(l) = loc.take() {
                    locs.push(l.trim().to_string());
                }
            }
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
    }
    (locs, is_index)
}

/// Asks the site's own search for `terms` (the work's title, then its author): through
/// the home page's search form when it has one (a GET form with a text or search field),
/// else `/search?q=`. Returns the result pages' same-site links whose text contains the
/// title: the book's pages (its contents page, usually); and how many pages were fetched
/// (at most `max_fetches`).
pub fn site_search(
    fetcher: &mut Fetcher,
    site: &Url,
    title: &str,
    terms: &[&str],
    max_fetches: usize,
) -> (Vec<Url>, usize) {
    let Ok(home) = site.join("/") else { return (Vec::new(), 0) };
    if max_fetches == 0 {
        return (Vec::new(), 0);
    }
    let form = fetcher.fetch(home.as_str()).ok().and_then(|p| search_form(&p));
    let mut fetched = 1;
    let mut out: Vec<Url> = Vec::new();
    for term in terms.iter().filter(|t| !t.trim().is_empty()) {
        if fetched >= max_fetches {
            break;
        }
        let target = match &form {
            Some((action, field)) => {
                let mut u = action.clone();
                u.query_pairs_mut().append_pair(field, term);
                u
            }
            None => {
                let Ok(mut u) = home.join("/search") else { continue };
                u.query_pairs_mut().append_pair("q", term);
                u
            }
        };
        fetched += 1;
        let Ok(page) = fetcher.fetch(target.as_str()) else { continue };
        let Ok(base) = Url::parse(&page.final_url) else { continue };
        for (url, text, _) in links(&page_text(&page), &base) {
            if url.host_str() == home.host_str() && text.contains(title) && !out.contains(&url) {
                out.push(url);
            }
        }
        if !out.is_empty() {
            break;
        }
    }
    (out, fetched)
}

/// The home page's search form: its action URL and the name of its text field. Only GET
/// forms: a POST would change something on the site.
fn search_form(home: &Page) -> Option<(Url, String)> {
    let base = Url::parse(&home.final_url).ok()?;
    let doc = Html::parse_document(&page_text(home));
    let forms = Selector::parse("form").expect("valid selector");
    let fields = Selector::parse("input[name]").expect("valid selector");
    doc.select(&forms).find_map(|form| {
        let method = form.value().attr("method").unwrap_or("get");
        if !method.eq_ignore_ascii_case("get") {
            return None;
        }
        let field = form.select(&fields).find(|i| {
            matches!(i.value().attr("type").unwrap_or("text").to_ascii_lowercase().as_str(), "text" | "search")
        })?;
        let mut action = base.join(form.value().attr("action").unwrap_or("")).ok()?;
        action.set_query(None);
        let name = field.value().attr("name")?.to_string();
        (action.host_str() == base.host_str()).then_some((action, name))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::engine::web::fetch::test_page as page;

    #[test]
    fn a_chapter_page_points_to_its_contents_page() {
        let p = page(
            "http://h/read/77/3.html",
            "<div class=\"breadcrumb\"><a href=\"/\">首页</a> &gt; <a href=\"/xuanhuan/\">玄幻</a> &gt; \
             <a href=\"/book/77/\">西游记</a></div><p>text</p>\
             <a href=\"/book/77/index.html\">章节目录</a><a href=\"/\">首页</a>",
        );
        let paths: Vec<String> = contents_candidates(&p).iter().map(|u| u.path().to_string()).collect();
        assert_eq!(paths, ["/book/77/index.html", "/book/77/", "/xuanhuan/", "/read/77/"]);
    }

    #[test]
    fn sitemaps_and_their_indexes_are_read() {
        let (locs, index) = sitemap_locs(
            "<?xml version=\"1.0\"?><sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\
             <sitemap><loc>http://h/s1.xml.gz</loc></sitemap></sitemapindex>",
        );
        assert!(index);
        assert_eq!(locs, ["http://h/s1.xml.gz"]);
        let (locs, index) = sitemap_locs(
            "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>http://h/a?x=1&amp;y=2</loc>\
             <lastmod>2026-01-01</lastmod></url><url><loc><![CDATA[http://h/b]]></loc></url></urlset>",
        );
        assert!(!index);
        assert_eq!(locs, ["http://h/a?x=1&y=2", "http://h/b"]);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, b"<urlset><url><loc>http://h/c</loc></url></urlset>").unwrap();
        assert!(sitemap_xml(&gz.finish().unwrap()).unwrap().contains("http://h/c"));
        assert_eq!(sitemap_locs("<urlset><url><loc>").0.len(), 0, "broken XML gives what it has");
    }

    #[test]
    fn only_get_search_forms_are_used() {
        let get = page(
            "http://h/",
            "<form action=\"/modules/search.php?x=1\" method=\"get\"><input type=\"hidden\" name=\"t\" value=\"1\">\
             <input name=\"searchkey\"><input type=\"submit\"></form>",
        );
        let (action, field) = search_form(&get).unwrap();
        assert_eq!((action.path(), field.as_str()), ("/modules/search.php", "searchkey"));
        let post = page("http://h/", "<form action=\"/s\" method=\"post\"><input name=\"q\"></form>");
        assert!(search_form(&post).is_none());
    }
}
