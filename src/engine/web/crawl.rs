//! Pages → web suspects.
//!
//! A pirate site serves a chapter as one page or as several (`下一页`, `rel="next"`), and
//! lists a book's chapters on a table of contents, itself often split over pages.
//! [`chapter`] fetches a chapter page by page and joins its text; [`table_of_contents`]
//! lists the chapter links of one contents page: same-site links under the contents page's
//! folder (`/book/123/` → `/book/123/1.html`) and same-site links anywhere whose text
//! names a chapter (第十二章, Chapter 12: sites that keep chapters outside the book's
//! folder), or all same-site links where neither is found; [`contents`] reads a contents
//! page and the pages it continues on (下一页, `?page=2`, `_2.html`).

use super::fetch::{Fetcher, Page};
use crate::engine::decode::{decode_web_page, ocr};
use crate::engine::progress::Cancel;
use crate::{Error, Result};
use std::collections::HashSet;
use url::Url;

/// Pages fetched for one chapter at most (a chapter split over more is cut there).
pub const MAX_PAGES_PER_CHAPTER: usize = 50;

/// Pictures read for one chapter at most (a chapter posted as more is cut there).
pub const MAX_PICTURES_PER_CHAPTER: usize = 60;

/// A page with fewer letters than this that shows pictures is a chapter posted as
/// pictures: they are fetched and read by OCR.
const PICTURE_PAGE_MAX_CHARS: usize = 200;

/// One suspect from the web: the pages it was read from, in order, and their joined text.
#[derive(Clone, Debug)]
pub struct WebSuspect {
    /// The URL asked for (the chapter's first page).
    pub url: String,
    /// The pages, then any pictures of them read by OCR.
    pub pages: Vec<Page>,
    pub text: String,
    /// How many pictures the text was read from by OCR.
    pub images_read: u32,
    /// How many characters were replaced by what a scrambling web font draws for them.
    pub font_remapped: u32,
}

impl WebSuspect {
    /// The URL that answered the first request, after redirects.
    pub fn final_url(&self) -> &str {
        self.pages.first().map_or(&self.url, |p| p.final_url.as_str())
    }
}

/// Links of an HTML page, resolved against `base`: (URL, anchor text, rel).
pub(crate) fn links(page: &str, base: &Url) -> Vec<(Url, String, String)> {
    crate::engine::decode::page_links(page)
        .into_iter()
        .filter_map(|(href, text, rel)| {
            let mut url = base.join(&href).ok()?;
            url.set_fragment(None);
            matches!(url.scheme(), "http" | "https").then_some(())?;
            Some((url, text, rel))
        })
        .collect()
}

/// The page's markup, for finding its links.
pub(crate) fn page_text(page: &Page) -> String {
    crate::engine::decode::web_page_markup(&page.bytes, page.header("content-type"))
}

/// The next page of a chapter split over pages: a `rel="next"` link or one reading 下一页
/// ("next page"; not 下一章, the next chapter), on the same site, not yet read, and not
/// one of `chapters` (a contents page's own list: those are chapters of their own).
fn next_page(page: &Page, seen: &HashSet<Url>, chapters: &HashSet<Url>) -> Option<Url> {
    let base = Url::parse(&page.final_url).ok()?;
    links(&page_text(page), &base).into_iter().find_map(|(url, text, rel)| {
        (says_next(&text, &rel)
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
    let mut first = if named { fetcher.fetch_named(url)? } else { fetcher.fetch(url)? };
    // The chapter's next pages are read whatever their length (a chapter is never cut).
    fetcher.put_off_long_pages = false;
    fetcher.render_page(&mut first);
    let mut images_read = 0;
    // A page without text that shows pictures may be a chapter posted as pictures: its
    // error stands only if they give no text either.
    let mut textless = None;
    let mut text = match &first.rendered {
        Some(r) => r.visible_text.clone(),
        None => {
            let _turn = crate::engine::check::long_text_turn(first.bytes.len());
            match decode_web_page(url, &first.bytes, first.header("content-type")) {
                Ok(decoded) => {
                    images_read = decoded.images_read;
                    decoded.text
                }
                Err(error) if !pictures_of(&first, "").is_empty() => {
                    textless = Some(error);
                    String::new()
                }
                Err(error) => return Err(error),
            }
        }
    };
    let mut fonts = Vec::new();
    let mut font_remapped = unscramble_page(fetcher, &first, &mut text, &mut fonts);
    let mut pictures = pictures_of(&first, &text);
    let mut seen: HashSet<Url> = [&first.url, &first.final_url].iter().filter_map(|u| Url::parse(u).ok()).collect();
    let mut pages = vec![first];
    while pages.len() < MAX_PAGES_PER_CHAPTER && !cancel.is_cancelled() {
        let last = pages.last().expect("one page at least");
        let found = {
            let _turn = crate::engine::check::long_text_turn(last.bytes.len());
            next_page(last, &seen, chapters)
        };
        let Some(next) = found else { break };
        seen.insert(next.clone());
        // A later page that fails ends the chapter; what was read is kept.
        let Ok(mut page) = fetcher.fetch(next.as_str()) else { break };
        fetcher.render_page(&mut page);
        let mut page_text = match &page.rendered {
            Some(r) => r.visible_text.clone(),
            None => {
                let _turn = crate::engine::check::long_text_turn(page.bytes.len());
                match decode_web_page(next.as_str(), &page.bytes, page.header("content-type")) {
                    Ok(decoded) => decoded.text,
                    Err(_) => break,
                }
            }
        };
        font_remapped += unscramble_page(fetcher, &page, &mut page_text, &mut fonts);
        text.push('\n');
        text.push_str(&page_text);
        pictures.extend(pictures_of(&page, &page_text));
        pages.push(page);
    }
    let mut seen_pictures = HashSet::new();
    pictures.retain(|p| seen_pictures.insert(p.clone()));
    for picture in pictures.into_iter().take(MAX_PICTURES_PER_CHAPTER) {
        if cancel.is_cancelled() {
            break;
        }
        // A picture that cannot be fetched or read is left out; the rest is kept.
        let Ok(page) = fetcher.fetch(picture.as_str()) else { continue };
        let read = ocr::image_text(&page.bytes);
        let page_of_text = |r: &String| r.chars().filter(|c| c.is_alphanumeric()).count() >= ocr::MIN_PAGE_LETTERS;
        if let Some(read) = read.ok().filter(page_of_text) {
            text.push('\n');
            text.push_str(&read);
            images_read += 1;
            pages.push(page);
        }
    }
    if let Some(error) = textless.filter(|_| !text.chars().any(char::is_alphanumeric)) {
        return Err(error);
    }
    // The fonts that drew the page are part of what a reader saw: kept with its pages.
    pages.extend(fonts);
    Ok(WebSuspect { url: url.to_string(), pages, text, images_read, font_remapped })
}

/// `text` (the page's) with what the page's scrambling fonts draw in place of what its
/// markup holds ([`crate::engine::decode::webfont`]); the fonts fetched go to `fonts`, and
/// one already there (the chapter's earlier pages use the same font) is not fetched again.
/// Returns how many characters were replaced.
fn unscramble_page(fetcher: &mut Fetcher, page: &Page, text: &mut String, fonts: &mut Vec<Page>) -> u32 {
    if !crate::engine::decode::has_font_faces(&page.bytes) {
        return 0;
    }
    let Ok(base) = Url::parse(&page.final_url) else { return 0 };
    let mut fetch = |src: &str| {
        let url = base.join(src).ok().filter(|u| matches!(u.scheme(), "http" | "https"))?;
        if let Some(fetched) = fonts.iter().find(|f| f.url == url.as_str()) {
            return Some(fetched.bytes.clone());
        }
        let font = fetcher.fetch(url.as_str()).ok()?;
        let bytes = font.bytes.clone();
        fonts.push(font);
        Some(bytes)
    };
    let (repaired, replaced) = crate::engine::decode::webfont::unscramble(&page_text(page), text, &mut fetch);
    *text = repaired;
    replaced
}

/// The pictures of a page whose text is too short to be a chapter (a chapter posted as
/// pictures), as absolute http(s) URLs.
fn pictures_of(page: &Page, text: &str) -> Vec<Url> {
    if text.chars().filter(|c| c.is_alphanumeric()).count() >= PICTURE_PAGE_MAX_CHARS {
        return Vec::new();
    }
    let Ok(base) = Url::parse(&page.final_url) else { return Vec::new() };
    crate::engine::decode::page_pictures(&page_text(page))
        .into_iter()
        .filter_map(|src| base.join(&src).ok())
        .filter(|url| matches!(url.scheme(), "http" | "https"))
        .collect()
}

/// Contents pages read for one book at most (a contents split over more is cut there,
/// and the cut is reported).
pub const MAX_CONTENTS_PAGES: usize = 50;

/// Whether a link's text names a chapter: 第…章/回/节/卷/集/篇/话 (in Chinese or
/// Arabic numerals), `Chapter 12`, or a bare chapter number.
pub fn names_chapter(text: &str) -> bool {
    let text = text.trim();
    if let Some(rest) = text.split_once('第').map(|(_, r)| r) {
        let number: String =
            rest.chars().take_while(|c| c.is_ascii_digit() || "零〇一二三四五六七八九十百千两".contains(*c)).collect();
        if !number.is_empty() && rest[number.len()..].starts_with(['章', '回', '节', '卷', '集', '篇', '话']) {
            return true;
        }
    }
    // `Chapter 12`, `Chapter12`, `CHAPTER XII` (not `Chapters`).
    let lower = text.to_ascii_lowercase();
    lower.strip_prefix("chapter").is_some_and(|rest| {
        let number = rest.trim_start().split(|c: char| !c.is_alphanumeric()).next().unwrap_or("");
        !number.is_empty()
            && (number.chars().all(|c| c.is_ascii_digit())
                || (rest.starts_with(char::is_whitespace) && number.chars().all(|c| "ivxlcdm".contains(c))))
    })
}

/// Whether a link leads to the next page of a listing or a chapter: `rel="next"`, 下一页,
/// 下页, `next`, `»`, `›` (never 下一章, the next chapter).
pub(crate) fn says_next(text: &str, rel: &str) -> bool {
    let t = text.trim().to_ascii_lowercase();
    (rel.split_whitespace().any(|r| r == "next")
        || t.contains("下一页")
        || t.contains("下页")
        || t == "next"
        || t == "next page"
        || t == "»"
        || t == "›")
        && !t.contains("下一章")
}

/// One contents page's chapter links (in page order, without repeats) and the page it
/// continues on, if any.
#[derive(Clone, Debug, Default)]
pub struct ContentsPage {
    pub chapters: Vec<Url>,
    pub next: Option<Url>,
    /// No link was in the page's folder or named a chapter: `chapters` are every other link
    /// of the site (a listing of chapters named otherwise, or a page that is no listing).
    pub guessed: bool,
}

/// The chapter links of the contents page `page`, in page order, without repeats, and its
/// continuation (see the module).
pub fn table_of_contents(page: &Page) -> Result<ContentsPage> {
    let base = Url::parse(&page.final_url)
        .map_err(|e| Error::Fetch { url: page.url.clone(), reason: format!("bad final URL: {e}") })?;
    let folder = base.join("./").map_or_else(|_| base.path().to_string(), |u| u.path().to_string());
    let mut seen = HashSet::from([base.clone()]);
    if let Ok(asked) = Url::parse(&page.url) {
        seen.insert(asked);
    }
    let site_links: Vec<(Url, String, String)> = links(&page_text(page), &base)
        .into_iter()
        .filter(|(u, _, _)| {
            u.host_str() == base.host_str() && u.port_or_known_default() == base.port_or_known_default()
        })
        .collect();
    // The listing's own pages first (下一页 and numbered pages), so a numbered link to the
    // next page is never taken for a chapter.
    let next =
        site_links.iter().find(|(u, text, rel)| says_next(text, rel) && !seen.contains(u)).map(|(u, _, _)| u.clone());
    for (u, text, rel) in &site_links {
        if says_next(text, rel) || is_listing_page(u, text, &base) {
            seen.insert(u.clone());
        }
    }
    let same_site: Vec<(Url, String)> =
        site_links.into_iter().filter_map(|(u, text, _)| seen.insert(u.clone()).then_some((u, text))).collect();
    let chosen: Vec<Url> = same_site
        .iter()
        .filter(|(u, text)| (u.path().starts_with(&folder) && u.path() != folder) || names_chapter(text))
        .map(|(u, _)| u.clone())
        .collect();
    let guessed = chosen.is_empty();
    let chapters = if guessed { same_site.into_iter().map(|(u, _)| u).collect() } else { chosen };
    Ok(ContentsPage { chapters, next, guessed })
}

/// A numbered link to another page of the same listing (`2` → `?page=2`, `index_2.html`):
/// its text is a bare number and its address is the listing's own with a number changed.
fn is_listing_page(url: &Url, text: &str, listing: &Url) -> bool {
    let text = text.trim();
    if text.is_empty() || !text.chars().all(|c| c.is_ascii_digit()) {
        return false;
    }
    let strip = |u: &Url| -> String {
        let s = format!("{}?{}", u.path(), u.query().unwrap_or(""));
        s.chars().filter(|c| !c.is_ascii_digit()).collect::<String>().replace("_.", ".").replace("?page=", "?")
    };
    strip(url) == strip(listing) || url.path() == listing.path()
}

/// A book's contents read whole: its chapter links over all its contents pages, the pages
/// read, and whether [`MAX_CONTENTS_PAGES`] cut it.
#[derive(Clone, Debug, Default)]
pub struct Contents {
    pub chapters: Vec<Url>,
    pub pages: usize,
    /// Said when the contents continued beyond what was read.
    pub cut: Option<String>,
    /// The page is itself a chapter, not a listing: no link on it names a chapter or lies in
    /// its folder, and it holds text of its own (a chapter's link followed by mistake).
    pub is_chapter: bool,
}

/// Characters of text from which a page that lists no chapter is taken for a chapter.
const CHAPTER_PAGE_CHARS: usize = 500;

/// Reads the contents page at `url` and the pages it continues on (see the module).
pub fn contents(fetcher: &mut Fetcher, url: &str, cancel: &Cancel) -> Result<Contents> {
    let mut out = Contents::default();
    let mut seen_pages = HashSet::new();
    let mut listed = HashSet::new();
    let mut current = Some(url.to_string());
    while let Some(page_url) = current.take() {
        if cancel.is_cancelled() {
            break;
        }
        if out.pages == MAX_CONTENTS_PAGES {
            out.cut = Some(format!(
                "{url}: the contents continue beyond {MAX_CONTENTS_PAGES} pages; chapters listed after page {MAX_CONTENTS_PAGES} were not checked"
            ));
            break;
        }
        let page = match fetcher.fetch(&page_url) {
            Ok(p) => p,
            // The first page must answer; a later one that fails ends the contents there.
            Err(e) if out.pages == 0 => return Err(e),
            Err(_) => break,
        };
        out.pages += 1;
        seen_pages.insert(page_url.clone());
        seen_pages.insert(page.final_url.clone());
        let found = table_of_contents(&page)?;
        if out.pages == 1 && found.guessed {
            let text = decode_web_page(&page_url, &page.bytes, page.header("content-type")).map(|d| d.text);
            if text.is_ok_and(|t| t.chars().filter(|c| c.is_alphanumeric()).count() >= CHAPTER_PAGE_CHARS) {
                out.is_chapter = true;
                return Ok(out);
            }
        }
        for chapter in found.chapters {
            if !seen_pages.contains(chapter.as_str()) && listed.insert(chapter.clone()) {
                out.chapters.push(chapter);
            }
        }
        current = found.next.map(|u| u.to_string()).filter(|u| !seen_pages.contains(u));
    }
    out.chapters.retain(|c| !seen_pages.contains(c.as_str()));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::engine::web::fetch::test_page as page;

    #[test]
    fn chapter_names_are_recognised() {
        for yes in ["第一回 灵根育孕源流出", "第12章 风起", "第一百二十回", "Chapter 3", "CHAPTER XII"]
        {
            assert!(names_chapter(yes), "{yes}");
        }
        for no in ["首页", "排行榜", "第一", "下一页", "Chapters", "目录"] {
            assert!(!names_chapter(no), "{no}");
        }
    }

    #[test]
    fn a_contents_page_lists_chapters_outside_its_folder_and_its_next_page() {
        let p = page(
            "http://h/book/7/",
            "<a href=\"/\">首页</a><a href=\"/top.html\">排行榜</a>\
             <a href=\"/read/7_1.html\">第一回 灵根</a><a href=\"/read/7_2.html\">第二回 悟彻</a>\
             <a href=\"1.html\">第三回</a>\
             <a href=\"/book/7/index_2.html\">2</a><a href=\"/book/7/index_2.html\">下一页</a>",
        );
        let toc = table_of_contents(&p).unwrap();
        let paths: Vec<&str> = toc.chapters.iter().map(|u| u.path()).collect();
        assert_eq!(paths, ["/read/7_1.html", "/read/7_2.html", "/book/7/1.html"]);
        assert_eq!(toc.next.unwrap().path(), "/book/7/index_2.html");
    }
}
