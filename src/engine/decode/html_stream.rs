//! The visible text of a long HTML page (over [`LONG_PAGE_BYTES`]) read as a stream of
//! tokens, without building its tree: html5ever's tree builder keeps about nine bytes of
//! tree per byte of markup (134 MB for a 15 MiB pirate page), its tokenizer keeps one tag.
//!
//! The rules are [`super::html`]'s: the same tags and boilerplate words are left out, the
//! same blocks end lines, and elements hidden by their `style` attribute or by `<style>`
//! rules stay hidden with everything inside. Without a tree, the open elements are a stack
//! (an end tag closes up to the nearest open element of its name; a block closes an open
//! `<p>`, and `<li>`, `<dt>`, `<dd>`, `<tr>`, `<td>`, `<th>`, `<option>` close their open
//! siblings), and style rules are matched by their simple selectors (tag, `.class`,
//! `#id`, compounds of these, descendants) against the stack, applying from where they
//! appear; rules with other selectors are not applied on long pages.

use super::html::{
    BLOCK_TAGS, SKIPPED_TAGS, TextOut, VOID_TAGS, hiding_declarations, hiding_rules, is_boilerplate_name,
};
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, CharacterTokens, EndTag, StartTag, TagToken, Token, TokenSink, TokenSinkResult, Tokenizer,
    TokenizerOpts,
};
use std::cell::RefCell;

/// Markup longer than this (bytes) is read as a stream; shorter pages get the tree.
pub const LONG_PAGE_BYTES: usize = 4 << 20;

/// Markup is fed to the tokenizer this many bytes at a time.
const FEED_BYTES: usize = 64 << 10;

/// An open element.
struct Open {
    name: String,
    classes: Vec<String>,
    id: Option<String>,
    /// Left out with everything inside it (boilerplate or hidden).
    skipped: bool,
}

/// A simple selector: `tag.class#id`, any part optional.
#[derive(Debug, PartialEq)]
struct Compound {
    tag: Option<String>,
    classes: Vec<String>,
    id: Option<String>,
}

impl Compound {
    fn parse(s: &str) -> Option<Compound> {
        if s.is_empty() || s.contains(|c: char| !(c.is_alphanumeric() || "-_.#".contains(c))) {
            return None;
        }
        let mut c = Compound { tag: None, classes: Vec::new(), id: None };
        // Split before each '.' or '#': "p.a#b" → "p", ".a", "#b".
        let mut pieces = Vec::new();
        let mut current = String::new();
        for ch in s.chars() {
            if (ch == '.' || ch == '#') && !current.is_empty() {
                pieces.push(std::mem::take(&mut current));
            }
            current.push(ch);
        }
        pieces.push(current);
        for p in pieces {
            match p.chars().next() {
                Some('.') if p.len() > 1 => c.classes.push(p[1..].to_string()),
                Some('#') if p.len() > 1 => c.id = Some(p[1..].to_string()),
                Some(_) if c.tag.is_none() && !p.starts_with(['.', '#']) => c.tag = Some(p.to_ascii_lowercase()),
                _ => return None,
            }
        }
        Some(c)
    }

    fn matches(&self, e: &Open) -> bool {
        self.tag.as_ref().is_none_or(|t| *t == e.name)
            && self.id.as_ref().is_none_or(|id| e.id.as_ref() == Some(id))
            && self.classes.iter().all(|c| e.classes.contains(c))
    }
}

/// A style rule's selector: compounds, each a descendant of the one before (`>` is read as
/// a descendant too).
struct Selector(Vec<Compound>);

impl Selector {
    fn parse(s: &str) -> Option<Selector> {
        let parts: Option<Vec<Compound>> =
            s.split(|c: char| c.is_whitespace() || c == '>').filter(|p| !p.is_empty()).map(Compound::parse).collect();
        parts.filter(|p| !p.is_empty()).map(Selector)
    }

    /// Whether the element `e`, inside the open elements `ancestors`, matches.
    fn matches(&self, ancestors: &[Open], e: &Open) -> bool {
        let Some((last, before)) = self.0.split_last() else { return false };
        if !last.matches(e) {
            return false;
        }
        let mut open = ancestors.iter().rev();
        before.iter().rev().all(|c| open.any(|a| c.matches(a)))
    }
}

struct Reader {
    stack: Vec<Open>,
    /// Open elements that are left out (text is kept only when none is open).
    skipping: usize,
    pre: usize,
    in_style: bool,
    css: String,
    rules: Vec<(Selector, Vec<(usize, bool)>)>,
    out: TextOut,
}

/// How the tokenizer reads what follows an opening tag of this name: as raw text (scripts,
/// styles, titles), which the tree builder would tell it and a bare tokenizer must be told.
fn raw_text(name: &str) -> Option<RawKind> {
    match name {
        "script" => Some(RawKind::ScriptData),
        "style" | "xmp" | "iframe" | "noembed" | "noframes" | "noscript" => Some(RawKind::Rawtext),
        "textarea" | "title" => Some(RawKind::Rcdata),
        _ => None,
    }
}

/// Elements an opening tag of this name closes when they are the current element.
fn closes(name: &str) -> &'static [&'static str] {
    match name {
        "li" => &["li"],
        "dt" | "dd" => &["dt", "dd"],
        "tr" => &["tr", "td", "th"],
        "td" | "th" => &["td", "th"],
        "option" => &["option"],
        _ if BLOCK_TAGS.contains(&name) => &["p"],
        _ => &[],
    }
}

impl Reader {
    fn pop(&mut self) {
        if let Some(e) = self.stack.pop() {
            self.skipping -= usize::from(e.skipped);
            self.pre -= usize::from(e.name == "pre");
            if e.name == "style" {
                self.in_style = false;
                let css = std::mem::take(&mut self.css);
                self.rules.extend(hiding_rules(&css).into_iter().flat_map(|(list, d)| {
                    list.split(',').filter_map(Selector::parse).map(|s| (s, d.clone())).collect::<Vec<_>>()
                }));
            }
            if BLOCK_TAGS.contains(&e.name.as_str()) && self.skipping == 0 {
                self.out.newline();
            }
        }
    }

    fn start(&mut self, tag: html5ever::tokenizer::Tag) -> TokenSinkResult<()> {
        let name = tag.name.to_string();
        while self.stack.last().is_some_and(|top| closes(&name).contains(&top.name.as_str())) {
            self.pop();
        }
        let attr = |n: &str| tag.attrs.iter().find(|a| &*a.name.local == n).map(|a| a.value.to_string());
        let classes: Vec<String> =
            attr("class").map(|c| c.split_whitespace().map(str::to_string).collect()).unwrap_or_default();
        let id = attr("id");
        let mut e = Open { name, classes, id, skipped: false };
        let mut hiding = [None; 3];
        for (selector, declarations) in &self.rules {
            if selector.matches(&self.stack, &e) {
                declarations.iter().for_each(|&(p, hidden)| hiding[p] = Some(hidden));
            }
        }
        if let Some(style) = attr("style") {
            hiding_declarations(&style).into_iter().for_each(|(p, hidden)| hiding[p] = Some(hidden));
        }
        e.skipped = SKIPPED_TAGS.contains(&e.name.as_str())
            || attr("hidden").is_some()
            || is_boilerplate_name(e.classes.iter().map(String::as_str).chain(e.id.as_deref()))
            || hiding.contains(&Some(true));
        if BLOCK_TAGS.contains(&e.name.as_str()) && self.skipping == 0 {
            self.out.newline();
        }
        let raw = raw_text(&e.name);
        if VOID_TAGS.contains(&e.name.as_str()) || (tag.self_closing && raw.is_none()) {
            return TokenSinkResult::Continue;
        }
        self.in_style = e.name == "style";
        self.skipping += usize::from(e.skipped);
        self.pre += usize::from(e.name == "pre");
        self.stack.push(e);
        raw.map_or(TokenSinkResult::Continue, TokenSinkResult::RawData)
    }

    fn end(&mut self, name: &str) {
        if name == "br" {
            if self.skipping == 0 {
                self.out.newline();
            }
            return;
        }
        if let Some(at) = self.stack.iter().rposition(|e| e.name == name) {
            while self.stack.len() > at {
                self.pop();
            }
        }
    }
}

struct Sink(RefCell<Reader>);

impl TokenSink for Sink {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        let mut r = self.0.borrow_mut();
        match token {
            TagToken(tag) if tag.kind == StartTag => return r.start(tag),
            TagToken(tag) if tag.kind == EndTag => r.end(&tag.name),
            CharacterTokens(t) if r.in_style => r.css.push_str(&t),
            CharacterTokens(t) if r.skipping == 0 => {
                let pre = r.pre > 0;
                r.out.text(&t, pre);
            }
            _ => {}
        }
        TokenSinkResult::Continue
    }
}

/// The `<a href>` and `<link href>` elements of a page read as a stream of tokens: (href,
/// the anchor's text, rel), as [`super::page_links`] gives them from the tree.
pub fn long_page_links(page: &str) -> Vec<(String, String, String)> {
    struct Links {
        found: RefCell<Vec<(String, String, String)>>,
        /// The open `<a>`'s place in `found` (its text goes there).
        open: RefCell<Option<usize>>,
    }
    impl TokenSink for Links {
        type Handle = ();

        fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
            match token {
                TagToken(tag) if tag.kind == StartTag => {
                    let name = &*tag.name;
                    let attr = |n: &str| tag.attrs.iter().find(|a| &*a.name.local == n).map(|a| a.value.to_string());
                    if name == "a" || name == "link" {
                        let mut found = self.found.borrow_mut();
                        if let Some(href) = attr("href") {
                            found.push((href, String::new(), attr("rel").unwrap_or_default().to_ascii_lowercase()));
                        }
                        if name == "a" {
                            *self.open.borrow_mut() = attr("href").map(|_| found.len() - 1);
                        }
                    }
                    return raw_text(name).map_or(TokenSinkResult::Continue, TokenSinkResult::RawData);
                }
                TagToken(tag) if tag.kind == EndTag && &*tag.name == "a" => *self.open.borrow_mut() = None,
                CharacterTokens(t) => {
                    if let Some(at) = *self.open.borrow() {
                        self.found.borrow_mut()[at].1.push_str(&t);
                    }
                }
                _ => {}
            }
            TokenSinkResult::Continue
        }
    }
    let sink = Links { found: RefCell::new(Vec::new()), open: RefCell::new(None) };
    let tokenizer = tokenize(page, sink);
    let mut found = tokenizer.sink.found.into_inner();
    found.iter_mut().for_each(|(_, text, _)| *text = text.trim().to_string());
    found
}

/// Feeds `page` to a tokenizer with `sink`, a piece at a time, to the end.
fn tokenize<S: TokenSink<Handle = ()>>(page: &str, sink: S) -> Tokenizer<S> {
    let tokenizer = Tokenizer::new(sink, TokenizerOpts::default());
    let input = BufferQueue::default();
    let mut at = 0;
    while at < page.len() {
        let end = page.floor_char_boundary((at + FEED_BYTES).min(page.len())).max(page.ceil_char_boundary(at + 1));
        input.push_back(page[at..end].into());
        let _ = tokenizer.feed(&input);
        at = end;
    }
    tokenizer.end();
    tokenizer
}

/// The visible text of an HTML page, read as a stream of tokens (see the module).
pub fn long_html_to_text(page: &str) -> String {
    let reader = Reader {
        stack: Vec::new(),
        skipping: 0,
        pre: 0,
        in_style: false,
        css: String::new(),
        rules: Vec::new(),
        out: TextOut::default(),
    };
    let tokenizer = tokenize(page, Sink(RefCell::new(reader)));
    tokenizer.sink.0.into_inner().out.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::decode::html::html_to_text;

    #[test]
    fn simple_selectors_parse_and_others_are_refused() {
        let c = Compound::parse("p.a#b").unwrap();
        assert_eq!(
            (c.tag.as_deref(), c.classes.as_slice(), c.id.as_deref()),
            (Some("p"), &["a".to_string()][..], Some("b"))
        );
        assert!(Selector::parse("div .x > span").is_some_and(|s| s.0.len() == 3));
        for refused in ["a:hover", "p::before", "[hidden]", "a + b", "*"] {
            assert!(Selector::parse(refused).is_none(), "{refused}");
        }
    }

    #[test]
    fn the_stream_reads_pages_as_the_tree_does() {
        let pages = [
            r#"<html><head><style>
               /* .shown { display: none } */
               .j { display : none !important } span.v { visibility: hidden }
               #z, .tiny { font-size: 0px }
               @media print { p { display: none } }
               .again { display: none } .again { display: inline }
               </style></head><body>
               <p>混沌未分<span class="j">广告</span>天地乱，<span class="v">垃圾</span>茫茫渺渺<i id="z">噪声</i>无人见。</p>
               <p>自从<b style="display:none">隐藏</b>盘古<em class="tiny">小字</em>破鸿蒙，<span class="again">开辟</span>从兹<span style="font-size: 12px" class="shown">清浊</span>辨。</p>
               <p>覆载<span class="j" style="display: inline">群生</span>仰至仁。</p></body></html>"#,
            r#"<html><head><title>第一回_笔趣阁</title><script>var s = "<p>不是正文</p>";</script>
               <style>.j { display:none } div.box span.v, #z { visibility: hidden } a:hover { display: none }</style></head>
               <body><div class="header">笔趣阁 首页</div><nav>上一章 目录</nav>
               <div id="content"><h1>第一回</h1><p>混沌未分<span class="j">广告</span>天地乱，<br>茫茫渺渺
               <div class="box"><span class="v">垃圾</span>无人见。<i id="z">噪声</i></div>
               <p>自从<b style="display:none">隐藏<i>也隐藏</i></b>盘古<p>破鸿蒙，<span style="font-size:0">小</span>开辟
               <ul><li>一<li>二</ul><pre>  两个  空格
 行</pre>&lt;转义&gt;&amp;</div>
               <div class="footer">本站所有小说均来自网络</div></body></html>"#,
        ];
        for page in pages {
            assert_eq!(long_html_to_text(page), html_to_text(page), "{page}");
        }
    }

    #[test]
    fn a_long_page_keeps_its_text_and_drops_what_is_hidden() {
        let mut page = String::from("<html><head><style>.salt{display:none}</style></head><body><div id=\"content\">");
        for i in 0..20_000 {
            page.push_str(&format!("<p>第{i}段正文<span class=\"salt\">盐</span>。</p>\n"));
        }
        page.push_str("</div><div class=\"ad\">广告</div></body></html>");
        let text = long_html_to_text(&page);
        assert_eq!(text.lines().count(), 20_000);
        assert!(text.starts_with("第0段正文。\n") && text.ends_with("第19999段正文。\n"));
        assert!(!text.contains('盐') && !text.contains("广告"));
        assert_eq!(text, html_to_text(&page));
    }

    #[test]
    fn links_of_the_stream_are_the_links_of_the_tree() {
        let page = r#"<html><head><link rel="Next" href="/2.html"><script>var a = '<a href="/no">no</a>';</script></head>
            <body><a href="/book/1.html"> 第一章 <b>灵根</b> </a><a name="x">no href</a>
            <p><a href="3.html" rel="next">下一页</a><p>after<a href="http://e.com/#f">外站</a></body></html>"#;
        let stream = long_page_links(page);
        assert_eq!(stream, crate::engine::decode::html::tree_links(page));
        assert_eq!(stream.len(), 4, "{stream:?}");
        assert_eq!(stream[1], ("/book/1.html".to_string(), "第一章 灵根".to_string(), String::new()));
    }
}
