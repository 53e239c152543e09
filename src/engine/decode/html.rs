//! HTML pages → the text a reader sees, in reading order, with a real parser (html5ever
//! through `scraper`). Scripts, styles, navigation, headers, footers, asides, forms and
//! elements whose class or id names them as boilerplate (nav, menu, footer, sidebar,
//! comment, share, ad…) are left out. Block elements end lines; runs of white space
//! collapse as a browser collapses them, except inside `<pre>`.
//!
//! The traversal is iterative, so deeply nested markup cannot overflow the stack; and
//! since an HTML5 tree builder takes time quadratic in nesting depth (100,000 levels
//! took 108 s), pages nested deeper than [`MAX_DEPTH`] are refused before parsing.

use super::text::decode_text_bytes;
use encoding_rs::Encoding;
use scraper::{Html, Node};

const SKIPPED_TAGS: &[&str] = &[
    "script", "style", "noscript", "template", "nav", "footer", "header", "aside", "form", "iframe", "svg", "button",
    "select", "head", "title", "object", "canvas",
];
const BLOCK_TAGS: &[&str] = &[
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

const VOID_TAGS: &[&str] =
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
    Ok((html_to_text(&page), encoding))
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
    if SKIPPED_TAGS.contains(&e.name()) || e.attr("hidden").is_some() {
        return true;
    }
    let words = e.classes().chain(e.id()).flat_map(|s| s.split(['-', '_', ' '])).map(str::to_ascii_lowercase);
    words.into_iter().any(|w| BOILERPLATE_WORDS.contains(&w.as_str()))
}

/// The visible text of an HTML document.
pub fn html_to_text(page: &str) -> String {
    let doc = Html::parse_document(page);
    let mut out = String::new();
    let mut skipping: Option<ego_tree::NodeId> = None;
    let mut pre_depth = 0usize;
    let newline = |out: &mut String| {
        let trimmed = out.trim_end_matches([' ', '\t']).len();
        out.truncate(trimmed);
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
    };
    for edge in doc.tree.root().traverse() {
        match edge {
            ego_tree::iter::Edge::Open(node) => {
                if skipping.is_some() {
                    continue;
                }
                match node.value() {
                    Node::Element(e) if is_boilerplate(e) => skipping = Some(node.id()),
                    Node::Element(e) => {
                        if e.name() == "pre" {
                            pre_depth += 1;
                        }
                        if BLOCK_TAGS.contains(&e.name()) {
                            newline(&mut out);
                        }
                    }
                    Node::Text(t) if pre_depth > 0 => out.push_str(t),
                    Node::Text(t) => {
                        // Collapse ASCII white space like a browser; keep full-width spaces
                        // (Chinese paragraph indentation).
                        for (i, piece) in t.split(|c: char| c.is_ascii_whitespace()).enumerate() {
                            if i > 0 && !out.is_empty() && !out.ends_with([' ', '\n']) {
                                out.push(' ');
                            }
                            out.push_str(piece);
                        }
                    }
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
                        newline(&mut out);
                    }
                }
            }
        }
    }
    // Lines without their trailing spaces, no runs of empty lines.
    let mut text = String::with_capacity(out.len());
    for line in out.lines().map(|l| l.trim_end()) {
        if !line.trim().is_empty() {
            text.push_str(line.trim_start_matches(' '));
            text.push('\n');
        }
    }
    text
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
