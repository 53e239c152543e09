//! HTML pages → the text a reader sees, in reading order, with a real parser (html5ever
//! through `scraper`). Scripts, styles, navigation, headers, footers, asides, forms and
//! elements whose class or id names them as boilerplate (nav, menu, footer, sidebar,
//! comment, share, ad…) are left out. Block elements end lines; runs of white space
//! collapse as a browser collapses them, except inside `<pre>`.
//!
//! Text a browser would not show is left out too: elements hidden by their `style`
//! attribute or by rules of the page's `<style>` elements that select them
//! (`display:none`, `visibility:hidden`, `font-size:0`), the anti-scraping trick of
//! salting a chapter with invisible junk every few characters. Rules are applied in
//! source order (a later rule for an element wins, the `style` attribute last); specificity,
//! `@media` blocks (conditional: never applied), external style sheets and scripts are not
//! resolved.
//!
//! The traversal is iterative, so deeply nested markup cannot overflow the stack; and
//! since an HTML5 tree builder takes time quadratic in nesting depth (100,000 levels
//! took 108 s), pages nested deeper than [`MAX_DEPTH`] are refused before parsing.

use super::text::decode_text_bytes;
use encoding_rs::Encoding;
use scraper::{Html, Node};

pub(super) const SKIPPED_TAGS: &[&str] = &[
    "script", "style", "noscript", "template", "nav", "footer", "header", "aside", "form", "iframe", "svg", "button",
    "select", "head", "title", "object", "canvas",
];
pub(super) const BLOCK_TAGS: &[&str] = &[
    "p",
    "div",
    "br",
    "li",
    "ul",
    "ol",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "tr",
    "table",
    "section",
    "article",
    "blockquote",
    "pre",
    "dd",
    "dt",
    "dl",
    "hr",
    "main",
    "figure",
    "figcaption",
    "td",
    "th",
];
/// Class or id words that mark boilerplate on pirate and news sites.
const BOILERPLATE_WORDS: &[&str] = &[
    "nav",
    "navbar",
    "menu",
    "footer",
    "header",
    "sidebar",
    "breadcrumb",
    "breadcrumbs",
    "comment",
    "comments",
    "share",
    "ad",
    "ads",
    "advert",
    "advertisement",
    "banner",
    "copyright",
    "toolbar",
    "pagination",
    "pager",
    "related",
    "topbar",
    "bottom",
];

/// Deepest element nesting accepted. Real pages stay far below a hundred levels.
pub const MAX_DEPTH: usize = 2000;

pub(super) const VOID_TAGS: &[&str] =
    &["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"];

/// The deepest nesting of elements, approximately (tags counted, not parsed), in one pass.
fn max_depth(page: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    let bytes = page.as_bytes();
    let mut i = 0;
    while let Some(off) = bytes[i..].iter().position(|&b| b == b'<') {
        i += off + 1;
        let closing = bytes.get(i) == Some(&b'/');
        let name_start = i + usize::from(closing);
        let name_len = bytes[name_start..].iter().take_while(|b| b.is_ascii_alphanumeric()).count();
        if name_len == 0 {
            continue;
        }
        let name = page[name_start..name_start + name_len].to_ascii_lowercase();
        let end = bytes[i..].iter().position(|&b| b == b'>').map_or(bytes.len(), |p| i + p);
        let self_closing = end > 0 && bytes.get(end - 1) == Some(&b'/');
        if closing {
            depth = depth.saturating_sub(1);
        } else if !self_closing && !VOID_TAGS.contains(&name.as_str()) {
            depth += 1;
            max = max.max(depth);
        }
        i = end.min(bytes.len());
    }
    max
}

/// Decodes an HTML page's bytes (charset from the BOM, `<meta charset>`, or detection)
/// and extracts its text. Returns the text and the encoding's name.
pub fn decode_html(bytes: &[u8]) -> Result<(String, &'static str), String> {
    decode_html_with_charset(bytes, None)
}

/// [`decode_html`] for a page fetched over HTTP: the charset of its `Content-Type` header
/// comes after a BOM and before `<meta>` (the order of the HTML standard).
pub fn decode_html_with_charset(bytes: &[u8], header_charset: Option<&str>) -> Result<(String, &'static str), String> {
    let (page, encoding) = decode_markup(bytes, header_charset)?;
    if max_depth(&page) > MAX_DEPTH {
        return Err(format!("HTML nested more than {MAX_DEPTH} levels deep: refused as hostile markup"));
    }
    Ok((page_text(&page), encoding))
}

/// The markup of an HTML page as text: charset from the BOM, the HTTP header, `<meta>`, or
/// detection.
pub fn decode_markup(bytes: &[u8], header_charset: Option<&str>) -> Result<(String, &'static str), String> {
    let from_header = header_charset.and_then(|c| Encoding::for_label(c.trim().as_bytes()));
    let declared = Encoding::for_bom(bytes).map(|(e, _)| e).or(from_header).or_else(|| meta_charset(bytes));
    Ok(match declared {
        Some(enc) => {
            let (text, _, _) = enc.decode(bytes);
            (text.into_owned(), enc.name())
        }
        None => {
            let d = decode_text_bytes(bytes)?;
            (d.text, d.encoding)
        }
    })
}

/// `charset=` in the first 2 KB (a `<meta charset>` or `http-equiv` content type).
fn meta_charset(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(2048)]).to_ascii_lowercase();
    let at = head.find("charset=")? + "charset=".len();
    let label: String = head[at..]
        .trim_start_matches(['"', '\''])
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    Encoding::for_label(label.as_bytes())
}

fn is_boilerplate(e: &scraper::node::Element) -> bool {
    SKIPPED_TAGS.contains(&e.name()) || e.attr("hidden").is_some() || is_boilerplate_name(e.classes().chain(e.id()))
}

/// Whether an element's classes and id name it as boilerplate.
pub(super) fn is_boilerplate_name<'a>(names: impl Iterator<Item = &'a str>) -> bool {
    let mut words = names.flat_map(|s| s.split(['-', '_', ' '])).map(str::to_ascii_lowercase);
    words.any(|w| BOILERPLATE_WORDS.contains(&w.as_str()))
}

/// The hiding properties: `display`, `visibility`, `font-size`.
const HIDING_PROPERTIES: [&str; 3] = ["display", "visibility", "font-size"];

/// Whether a declaration's value hides the element: `Some(true)` hides, `Some(false)`
/// shows (a later rule undoing an earlier one), `None` for other properties.
fn hides(property: &str, value: &str) -> Option<(usize, bool)> {
    let at = HIDING_PROPERTIES.iter().position(|p| *p == property)?;
    let value = value.trim_end_matches("!important").trim();
    let hidden = match at {
        0 => value == "none",
        1 => value == "hidden" || value == "collapse",
        _ => {
            // Zero in any unit: 0, 0px, 0.0em, 0%.
            let number = value.trim_end_matches(|c: char| c.is_ascii_alphabetic() || c == '%');
            number.parse::<f64>().is_ok_and(|n| n == 0.0)
        }
    };
    Some((at, hidden))
}

/// The hiding declarations of a declaration block (`display:none; color:red`).
pub(super) fn hiding_declarations(block: &str) -> Vec<(usize, bool)> {
    block
        .split(';')
        .filter_map(|d| {
            let (name, value) = d.split_once(':')?;
            hides(&name.trim().to_ascii_lowercase(), &value.trim().to_ascii_lowercase())
        })
        .collect()
}

/// The rules of a style sheet that set a hiding property, in source order: (selector
/// list, declarations). Comments are dropped; at-rules (`@media`, `@font-face`, ...) are
/// skipped whole, blocks and all.
pub(super) fn hiding_rules(css: &str) -> Vec<(String, Vec<(usize, bool)>)> {
    let mut plain = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(start) = rest.find("/*") {
        plain.push_str(&rest[..start]);
        rest = rest[start + 2..].find("*/").map_or("", |end| &rest[start + 2 + end + 2..]);
    }
    plain.push_str(rest);
    let mut rules = Vec::new();
    let mut rest = plain.as_str();
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        if rest.starts_with('@') {
            // An at-rule ends at its `;` or with its block, nested blocks included.
            let Some(end) = rest.find([';', '{']) else { break };
            if rest.as_bytes()[end] == b';' {
                rest = &rest[end + 1..];
                continue;
            }
            let mut depth = 0usize;
            let mut close = rest.len();
            for (i, c) in rest[end..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            close = end + i + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            rest = &rest[close..];
            continue;
        }
        let Some(open) = rest.find('{') else { break };
        let close = rest[open..].find('}').map_or(rest.len(), |c| open + c);
        let declarations = hiding_declarations(&rest[open + 1..close]);
        if !declarations.is_empty() {
            rules.push((rest[..open].trim().to_string(), declarations));
        }
        rest = rest.get(close + 1..).unwrap_or("");
    }
    rules
}

/// The elements hidden by the page's style sheets and `style` attributes.
fn hidden_elements(doc: &Html) -> std::collections::HashSet<ego_tree::NodeId> {
    use std::collections::HashMap;
    let mut state: HashMap<ego_tree::NodeId, [Option<bool>; 3]> = HashMap::new();
    let styles = scraper::Selector::parse("style").expect("valid selector");
    for style in doc.select(&styles) {
        let css: String = style.text().collect();
        for (selector, declarations) in hiding_rules(&css) {
            // Selectors scraper cannot parse or match (`:hover`, `::before`) are ignored.
            let Ok(selector) = scraper::Selector::parse(&selector) else { continue };
            for element in doc.select(&selector) {
                let entry = state.entry(element.id()).or_default();
                for &(property, hidden) in &declarations {
                    entry[property] = Some(hidden);
                }
            }
        }
    }
    for node in doc.tree.nodes() {
        if let Node::Element(e) = node.value()
            && let Some(style) = e.attr("style")
        {
            let declarations = hiding_declarations(style);
            if !declarations.is_empty() {
                let entry = state.entry(node.id()).or_default();
                for (property, hidden) in declarations {
                    entry[property] = Some(hidden);
                }
            }
        }
    }
    state.into_iter().filter(|(_, s)| s.contains(&Some(true))).map(|(id, _)| id).collect()
}

/// The visible text of an HTML document: through the tree, or for a page over
/// [`html_stream::LONG_PAGE_BYTES`] as a stream of tokens (`html_stream`).
pub fn page_text(page: &str) -> String {
    if page.len() > super::html_stream::LONG_PAGE_BYTES {
        super::html_stream::long_html_to_text(page)
    } else {
        html_to_text(page)
    }
}

/// A page's `<a href>` and `<link href>` elements: (href, the anchor's text, rel in lower
/// case), in document order; for a page over [`html_stream::LONG_PAGE_BYTES`] from the
/// stream of tokens.
pub fn page_links(page: &str) -> Vec<(String, String, String)> {
    if page.len() > super::html_stream::LONG_PAGE_BYTES {
        super::html_stream::long_page_links(page)
    } else {
        tree_links(page)
    }
}

/// The pictures an HTML page shows (`<img>`), in page order, each by the address its lazy
/// loader would fetch (`data-original`, `data-src`) or else its `src`; `data:` URLs left
/// out. Pages too long for a tree have none found.
pub fn page_pictures(page: &str) -> Vec<String> {
    if page.len() > super::html_stream::LONG_PAGE_BYTES {
        return Vec::new();
    }
    let doc = Html::parse_document(page);
    let images = scraper::Selector::parse("img").expect("valid selector");
    doc.select(&images)
        .filter_map(|img| {
            let e = img.value();
            let src =
                ["data-original", "data-src", "src"].iter().find_map(|a| e.attr(a).filter(|v| !v.trim().is_empty()))?;
            (!src.trim_start().starts_with("data:")).then(|| src.trim().to_string())
        })
        .collect()
}

/// [`page_links`] through the tree.
pub(super) fn tree_links(page: &str) -> Vec<(String, String, String)> {
    let doc = Html::parse_document(page);
    let anchors = scraper::Selector::parse("a[href], link[href]").expect("valid selector");
    doc.select(&anchors)
        .filter_map(|a| {
            let href = a.value().attr("href")?.to_string();
            let text = a.text().collect::<String>().trim().to_string();
            Some((href, text, a.value().attr("rel").unwrap_or("").to_ascii_lowercase()))
        })
        .collect()
}

/// Text as a reader sees it, built a piece at a time: ASCII white space collapsed as a
/// browser collapses it (full-width spaces, Chinese paragraph indentation, kept), blocks
/// on lines of their own.
#[derive(Default)]
pub(super) struct TextOut {
    out: String,
}

impl TextOut {
    /// Ends the line, unless it is empty.
    pub(super) fn newline(&mut self) {
        let trimmed = self.out.trim_end_matches([' ', '\t']).len();
        self.out.truncate(trimmed);
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.out.push('\n');
        }
    }

    /// A text node's text; inside `<pre>` as it is.
    pub(super) fn text(&mut self, t: &str, pre: bool) {
        if pre {
            self.out.push_str(t);
            return;
        }
        for (i, piece) in t.split(|c: char| c.is_ascii_whitespace()).enumerate() {
            if i > 0 && !self.out.is_empty() && !self.out.ends_with([' ', '\n']) {
                self.out.push(' ');
            }
            self.out.push_str(piece);
        }
    }

    /// Lines without their trailing spaces, no runs of empty lines.
    pub(super) fn finish(self) -> String {
        let mut text = String::with_capacity(self.out.len());
        for line in self.out.lines().map(|l| l.trim_end()) {
            if !line.trim().is_empty() {
                text.push_str(line.trim_start_matches(' '));
                text.push('\n');
            }
        }
        text
    }
}

/// The visible text of an HTML document, through its tree.
pub fn html_to_text(page: &str) -> String {
    let doc = Html::parse_document(page);
    let hidden = hidden_elements(&doc);
    let mut out = TextOut::default();
    let mut skipping: Option<ego_tree::NodeId> = None;
    let mut pre_depth = 0usize;
    for edge in doc.tree.root().traverse() {
        match edge {
            ego_tree::iter::Edge::Open(node) => {
                if skipping.is_some() {
                    continue;
                }
                match node.value() {
                    Node::Element(e) if is_boilerplate(e) || hidden.contains(&node.id()) => skipping = Some(node.id()),
                    Node::Element(e) => {
                        if e.name() == "pre" {
                            pre_depth += 1;
                        }
                        if BLOCK_TAGS.contains(&e.name()) {
                            out.newline();
                        }
                    }
                    Node::Text(t) => out.text(t, pre_depth > 0),
                    _ => {}
                }
            }
            ego_tree::iter::Edge::Close(node) => {
                if skipping == Some(node.id()) {
                    skipping = None;
                    continue;
                }
                if skipping.is_some() {
                    continue;
                }
                if let Node::Element(e) = node.value() {
                    if e.name() == "pre" {
                        pre_depth = pre_depth.saturating_sub(1);
                    }
                    if BLOCK_TAGS.contains(&e.name()) {
                        out.newline();
                    }
                }
            }
        }
    }
    out.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = r#"<!DOCTYPE html><html><head><meta charset="gbk"><title>第一回_笔趣阁</title>
        <script>var ad = "广告";</script><style>p { color: red }</style></head>
        <body><div class="header">笔趣阁 首页 排行</div><nav>上一章 目录 下一章</nav>
        <div id="content"><h1>第一回　灵根育孕源流出</h1>
        <p>　　诗曰：混沌未分天地乱，茫茫渺渺无人见。</p>
        <p>　　自从盘古破鸿蒙，<b>开辟</b>从兹清浊辨。</p>
        <div class="ad-banner">最新章节请访问 www.example.com</div></div>
        <div id="footer">本站所有小说均来自网络</div></body></html>"#;

    #[test]
    fn body_text_in_reading_order_without_boilerplate() {
        let (gbk, _, _) = encoding_rs::GBK.encode(PAGE);
        let (text, encoding) = decode_html(&gbk).unwrap();
        assert_eq!(encoding, "GBK");
        assert_eq!(
            text,
            "第一回　灵根育孕源流出\n　　诗曰：混沌未分天地乱，茫茫渺渺无人见。\n　　自从盘古破鸿蒙，开辟从兹清浊辨。\n"
        );
    }

    #[test]
    fn text_hidden_by_styles_is_left_out_and_text_shown_again_is_kept() {
        let page = r#"<html><head><style>
            /* .shown { display: none } */
            .j { display : none !important } span.v { visibility: hidden }
            #z, .tiny { font-size: 0px }
            @media print { p { display: none } }
            @font-face { font-family: x; src: url(x.woff) }
            .again { display: none } .again { display: inline }
            </style></head><body>
            <p>混沌未分<span class="j">广告</span>天地乱，<span class="v">垃圾</span>茫茫渺渺<i id="z">噪声</i>无人见。</p>
            <p>自从<b style="display:none">隐藏</b>盘古<em class="tiny">小字</em>破鸿蒙，<span class="again">开辟</span>从兹<span style="font-size: 12px" class="shown">清浊</span>辨。</p>
            <p>覆载<span class="j" style="display: inline">群生</span>仰至仁。</p>
            </body></html>"#;
        assert_eq!(
            html_to_text(page),
            "混沌未分天地乱，茫茫渺渺无人见。\n自从盘古破鸿蒙，开辟从兹清浊辨。\n覆载群生仰至仁。\n"
        );
    }

    #[test]
    fn deep_nesting_parses_up_to_the_limit_and_is_refused_beyond() {
        let nested = |n: usize| format!("{}深处的文字{}", "<div><span>".repeat(n), "</span></div>".repeat(n));
        let (text, _) = decode_html(nested(500).as_bytes()).unwrap();
        assert!(text.contains("深处的文字"));
        let err = decode_html(nested(100_000).as_bytes()).unwrap_err();
        assert!(err.contains("nested more than 2000 levels"), "{err}");
        // Void and self-closing tags do not nest.
        assert!(max_depth(&"<br><img src=x><p/>".repeat(5000)) <= 1);
    }
}
