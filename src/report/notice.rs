//! Takedown notices from findings of one site: a DMCA notice with the elements of
//! 17 U.S.C. § 512(c)(3)(A), or a Chinese 通知书 with those of 《信息网络传播权保护条例》
//! 第十四条. The text is plain, filled in from the store (the rights holder's details, the
//! works, the pages and their captures) and meant to be read and edited before it is sent;
//! [`write_notice_folder`] writes it with each finding's evidence package beside it.
//!
//! Everything taken from pages or files (URLs, titles) is untrusted: [`plain`] makes it one
//! line of visible text (no control or bidirectional-override characters, no line breaks
//! that could forge a line of the notice) before it reaches the notice.

use crate::engine::check::CopyKind;
use crate::engine::store::Store;
use crate::engine::store::watch::{RightsHolder, host_of};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::fmt::Write;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Jurisdiction {
    /// United States: a DMCA notice, 17 U.S.C. § 512(c)(3).
    Dmca,
    /// China: 通知书 under 《信息网络传播权保护条例》第十四条.
    Cn,
}

/// One infringing page of a notice.
#[derive(Clone, Debug, PartialEq)]
pub struct NoticeItem {
    pub finding_id: i64,
    /// The page (the URL asked for) and where it answered.
    pub url: String,
    pub final_url: String,
    /// The works it copies, most similar first.
    pub works: Vec<NoticeWork>,
    pub similarity: f64,
    /// When it was captured (the finding's latest check) and the SHA-256 of what was received.
    pub captured_at: i64,
    pub sha256: String,
    /// The evidence package's file name beside the notice.
    pub evidence_file: String,
}

/// A work a page copies: its title and authors, and the chapters the page copies.
#[derive(Clone, Debug, PartialEq)]
pub struct NoticeWork {
    pub title: String,
    pub authors: Vec<String>,
    /// The copied chapters' titles (empty when the work is one document).
    pub chapters: Vec<String>,
    /// The page is a translation of the work into another language (an unauthorised
    /// translation infringes the right of translation), not a copy of its text.
    pub translated: bool,
}

/// What a notice is made from.
#[derive(Clone, Debug)]
pub struct NoticeInput {
    pub holder: RightsHolder,
    /// The site the pages are on.
    pub host: String,
    pub items: Vec<NoticeItem>,
    /// Where the notice could be sent, when looked up ([`crate::engine::web::contacts::suggest`]).
    pub recipients: Vec<crate::engine::web::contacts::Recipient>,
    /// Unix seconds: the notice's date.
    pub date: i64,
}

/// The notice's pages from findings of one site; refuses file findings, unknown ids and
/// findings of several sites (a notice goes to one site).
pub fn notice_input(store: &Store, finding_ids: &[i64], date: i64) -> Result<NoticeInput> {
    if finding_ids.is_empty() {
        return Err(Error::Parameter("a notice needs at least one finding".into()));
    }
    let mut items = Vec::new();
    let mut hosts = std::collections::BTreeSet::new();
    let licensed = store.allowed_sites()?;
    for &id in finding_ids {
        let info = store
            .finding_info(id)?
            .ok_or_else(|| Error::Parameter(format!("no finding {id} (see zhiwen findings)")))?;
        if info.kind != crate::engine::store::FindingKind::Web {
            return Err(Error::Parameter(format!("finding {id} is a file, not a web page: a notice names web pages")));
        }
        if crate::engine::store::discovery::is_licensed(&licensed, &info.target, None) {
            return Err(Error::Parameter(format!(
                "finding {id} ({}) is on a licensed site (zhiwen allow list): not put in a notice",
                url_exactly(&info.target)
            )));
        }
        hosts.insert(host_of(&info.target));
        // How the page copies each source: a free adaptation is never called a copy, so a
        // page that only adapts is not put in a notice.
        let kinds: std::collections::HashMap<u32, CopyKind> =
            store.finding_result(id)?.map(|r| r.sources.iter().map(|s| (s.id, s.kind)).collect()).unwrap_or_default();
        let kind_of = |doc: &u32| kinds.get(doc).copied().unwrap_or_default();
        if !info.sources.is_empty() && info.sources.iter().all(|(doc, _)| kind_of(doc) == CopyKind::Adaptation) {
            return Err(Error::Parameter(format!(
                "finding {id} ({}) is a free adaptation, not a copy: not put in a notice",
                url_exactly(&info.target)
            )));
        }
        let mut works: Vec<(Option<u32>, NoticeWork)> = Vec::new();
        for (doc, _) in info.sources.iter().filter(|(doc, _)| kind_of(doc) != CopyKind::Adaptation) {
            let translated = kind_of(doc) == CopyKind::Translation;
            let chapter = store.document(*doc)?.map_or_else(|| format!("document {doc}"), |d| d.title);
            let work = store.work_of(*doc)?;
            let id = work.as_ref().map(|w| w.id);
            match works.iter_mut().find(|(w, _)| id.is_some() && *w == id) {
                Some((_, w)) => w.chapters.push(chapter),
                None => works.push((
                    id,
                    match work {
                        Some(w) if w.title != chapter => {
                            NoticeWork { title: w.title, authors: w.authors, chapters: vec![chapter], translated }
                        }
                        Some(w) => NoticeWork { title: w.title, authors: w.authors, chapters: vec![], translated },
                        None => NoticeWork { title: chapter, authors: vec![], chapters: vec![], translated },
                    },
                )),
            }
        }
        let works = works.into_iter().map(|(_, w)| w).collect();
        items.push(NoticeItem {
            finding_id: id,
            final_url: info.final_url.clone().unwrap_or_else(|| info.target.clone()),
            url: info.target,
            works,
            similarity: info.similarity,
            captured_at: info.checked_at,
            sha256: info.sha256,
            evidence_file: format!("evidence-{id}.zip"),
        });
    }
    if hosts.len() > 1 {
        return Err(Error::Parameter(format!(
            "the findings are on {} sites ({}): a notice goes to one site",
            hosts.len(),
            hosts.into_iter().collect::<Vec<_>>().join(", ")
        )));
    }
    Ok(NoticeInput {
        holder: store.rights_holder()?,
        host: hosts.into_iter().next().unwrap_or_default(),
        items,
        recipients: Vec::new(),
        date,
    })
}

/// A URL exactly, for a notice or an alert: the address the page really has, with every
/// character that would not show (controls, white space, zero-width marks, bidirectional
/// embeddings, overrides and isolates) percent-encoded rather than dropped, so it reads as
/// what it is and still leads to the page.
pub fn url_exactly(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    for c in url.chars() {
        let hidden = c.is_control()
            || c.is_whitespace()
            || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}' | '\u{2028}' | '\u{2029}');
        if hidden {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Untrusted text as one line of visible characters, at most 500 of them.
pub fn plain(s: &str) -> String {
    let visible: String = s
        .chars()
        .map(|c| if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') { ' ' } else { c })
        // Bidirectional embeddings, overrides and isolates, and zero-width marks, which can
        // make a URL read as another.
        .filter(
            |c| !matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}'),
        )
        .collect();
    // Runs of spaces (line breaks made spaces) become one; an ideographic space stays.
    let one_line = visible.split(' ').filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ");
    match one_line.char_indices().nth(500) {
        Some((cut, _)) => format!("{}…", &one_line[..cut]),
        None => one_line,
    }
}

fn or_blank(s: &str, blank: &str) -> String {
    let s = plain(s);
    if s.is_empty() { blank.to_string() } else { s }
}

fn day(secs: i64) -> String {
    let (y, m, d, ..) = crate::engine::time::civil(secs);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The notice's text, ready to edit.
pub fn notice_text(j: Jurisdiction, n: &NoticeInput) -> String {
    match j {
        Jurisdiction::Dmca => dmca(n),
        Jurisdiction::Cn => cn(n),
    }
}

/// The works of all the notice's pages, each once: (title, authors), made plain.
fn works_of(n: &NoticeInput) -> Vec<(String, Vec<String>)> {
    let mut works: Vec<(String, Vec<String>)> = n
        .items
        .iter()
        .flat_map(|i| i.works.iter().map(|w| (plain(&w.title), w.authors.iter().map(|a| plain(a)).collect())))
        .collect();
    works.sort();
    works.dedup();
    works
}

/// `"西游记" by 吴承恩`.
fn work_en(title: &str, authors: &[String]) -> String {
    if authors.is_empty() { format!("\"{title}\"") } else { format!("\"{title}\" by {}", authors.join(", ")) }
}

/// `《西游记》（吴承恩 著）`.
fn work_cn(title: &str, authors: &[String]) -> String {
    if authors.is_empty() {
        format!("《{title}》")
    } else {
        format!("《{title}》（{} 著）", authors.join("、"))
    }
}

/// The chapters of a work a page copies, made plain, for after the work's name.
fn chapters(w: &NoticeWork, open: &str, sep: &str, close: &str) -> String {
    if w.chapters.is_empty() {
        return String::new();
    }
    let list: Vec<String> = w.chapters.iter().map(|c| plain(c)).collect();
    format!("{open}{}{close}", list.join(sep))
}

fn dmca(n: &NoticeInput) -> String {
    let h = &n.holder;
    let name = or_blank(&h.name, "[COPYRIGHT OWNER'S NAME]");
    let signatory = or_blank(&h.signatory, &name);
    let mut t = String::new();
    let _ = writeln!(t, "NOTICE OF CLAIMED COPYRIGHT INFRINGEMENT");
    let _ = writeln!(t, "under the Digital Millennium Copyright Act, 17 U.S.C. § 512(c)(3)\n");
    let _ = writeln!(t, "Date: {}", day(n.date));
    let _ = writeln!(t, "To: the designated copyright agent of {}", or_blank(&n.host, "[SITE]"));
    for r in &n.recipients {
        let _ = writeln!(t, "    suggested recipient: {} ({})", plain(&r.email), plain(&r.source));
    }
    let _ = writeln!(t);
    let _ = writeln!(t, "1. The copyrighted works infringed (§ 512(c)(3)(A)(ii)), owned by {name}:");
    for (title, authors) in works_of(n) {
        let _ = writeln!(t, "   - {}", work_en(&title, &authors));
    }
    let _ = writeln!(
        t,
        "\n2. The infringing material, which I ask you to remove or to disable access to, and where it is \
         (§ 512(c)(3)(A)(iii)):"
    );
    for (i, item) in n.items.iter().enumerate() {
        let _ = writeln!(t, "   {}. {}", i + 1, url_exactly(&item.url));
        if item.final_url != item.url {
            let _ = writeln!(t, "      (answered at {})", url_exactly(&item.final_url));
        }
        let works: Vec<String> = item
            .works
            .iter()
            .map(|w| {
                let how = if w.translated { "is an unauthorised translation of" } else { "copies" };
                format!("{how} \"{}\"{}", plain(&w.title), chapters(w, " (", "; ", ")"))
            })
            .collect();
        let _ = writeln!(
            t,
            "      {} ({:.0}% of the page's text); captured {} UTC, SHA-256 of the page as received: {}; \
             evidence: {}",
            works.join(", "),
            item.similarity * 100.0,
            super::format_utc(item.captured_at),
            plain(&item.sha256),
            plain(&item.evidence_file)
        );
    }
    let _ = writeln!(t, "\n3. My contact information (§ 512(c)(3)(A)(iv)):");
    let _ = writeln!(t, "   Name: {name}");
    let _ = writeln!(t, "   Address: {}", or_blank(&h.address, "[ADDRESS]"));
    let _ = writeln!(t, "   Telephone: {}", or_blank(&h.phone, "[TELEPHONE]"));
    let _ = writeln!(t, "   Email: {}", or_blank(&h.email, "[EMAIL]"));
    let _ = writeln!(t, "\n4. Statement of good faith (§ 512(c)(3)(A)(v)):");
    let _ = writeln!(
        t,
        "   I have a good faith belief that use of the material in the manner complained of is not authorized \
         by the copyright owner, its agent, or the law."
    );
    let _ = writeln!(t, "\n5. Statement of accuracy and authority (§ 512(c)(3)(A)(vi)):");
    let _ = writeln!(
        t,
        "   The information in this notification is accurate, and under penalty of perjury, I am the owner, or \
         an agent authorized to act on behalf of the owner, of an exclusive right that is allegedly infringed."
    );
    let _ = writeln!(t, "\n6. Signature (§ 512(c)(3)(A)(i)):\n");
    let _ = writeln!(t, "   /{signatory}/");
    let _ = writeln!(t, "   ______________________________");
    let _ = writeln!(t, "   {signatory}, for {name}");
    t
}

fn cn(n: &NoticeInput) -> String {
    let h = &n.holder;
    let name = or_blank(&h.name, "【权利人名称】");
    let (y, m, d, ..) = crate::engine::time::civil(n.date);
    let mut t = String::new();
    let _ = writeln!(t, "通知书");
    let _ = writeln!(
        t,
        "（依据《信息网络传播权保护条例》第十四条、《中华人民共和国民法典》第一千一百九十五条，要求删除或者断开链接侵权作品）\n"
    );
    let _ = writeln!(t, "致：{} 网络服务提供者", or_blank(&n.host, "【网站】"));
    for r in &n.recipients {
        let _ = writeln!(t, "    建议收件人：{}（{}）", plain(&r.email), plain(&r.source));
    }
    let _ = writeln!(t, "日期：{y}年{m}月{d}日\n");
    let _ = writeln!(t, "一、权利人的姓名（名称）、联系方式和地址");
    let _ = writeln!(t, "    权利人名称：{name}");
    let _ = writeln!(
        t,
        "    联系方式：电话 {}；电子邮箱 {}",
        or_blank(&h.phone, "【电话】"),
        or_blank(&h.email, "【电子邮箱】")
    );
    let _ = writeln!(t, "    地址：{}", or_blank(&h.address, "【地址】"));
    // 民法典第一千一百九十五条: a notice carries the rights holder's true identity.
    let _ = writeln!(t, "    真实身份信息：【营业执照或身份证件复印件，随附】");
    let _ = writeln!(t, "\n二、要求删除或者断开链接的侵权作品的名称和网络地址");
    for (i, item) in n.items.iter().enumerate() {
        let works: Vec<String> = item
            .works
            .iter()
            .map(|w| {
                let authors: Vec<String> = w.authors.iter().map(|a| plain(a)).collect();
                let translated = if w.translated { "（未经许可的翻译作品）" } else { "" };
                format!("{}{}{translated}", work_cn(&plain(&w.title), &authors), chapters(w, "", "、", ""))
            })
            .collect();
        let _ = writeln!(t, "    {}. 作品名称：{}", i + 1, works.join("、"));
        let _ = writeln!(t, "       侵权网络地址：{}", url_exactly(&item.url));
        if item.final_url != item.url {
            let _ = writeln!(t, "       （实际应答地址：{}）", url_exactly(&item.final_url));
        }
        let _ = writeln!(
            t,
            "       相似度 {:.0}%；取证时间 {} UTC；所收网页原始字节的 SHA-256：{}",
            item.similarity * 100.0,
            super::format_utc(item.captured_at),
            plain(&item.sha256)
        );
    }
    let _ = writeln!(t, "\n三、构成侵权的初步证明材料");
    let _ = writeln!(
        t,
        "    附上述每一网络地址的取证包（WACZ 格式：按网络传输原样记录请求与响应的 WARC 文件、提取文本、比对报告，\
         以及列明包内每一文件 SHA-256 的 datapackage.json，可供核验取证后未被改动）："
    );
    for item in &n.items {
        let _ = writeln!(t, "    - {}（{}）", plain(&item.evidence_file), plain(&item.url));
    }
    let _ = writeln!(t, "    权利人享有著作权的证明：【作品登记证书、出版合同或授权书等，随附】");
    let _ = writeln!(t, "\n四、权利人保证");
    let _ = writeln!(t, "    权利人对本通知书的真实性负责。");
    let _ = writeln!(t, "\n权利人（签名或盖章）：{name}");
    if !plain(&h.signatory).is_empty() {
        let _ = writeln!(t, "经办人：{}", plain(&h.signatory));
    }
    let _ = writeln!(t, "日期：{y}年{m}月{d}日");
    t
}

/// Writes `text` (the notice, as edited) as `notice-dmca.txt` or `notice-cn.txt` into
/// `dir`, with each item's evidence package beside it. Returns the notice's path.
pub fn write_notice_folder(
    store: &Store,
    j: Jurisdiction,
    input: &NoticeInput,
    text: &str,
    dir: &Path,
) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    for item in &input.items {
        super::evidence::write_package(store, item.finding_id, &dir.join(&item.evidence_file), &Default::default())?;
    }
    let name = match j {
        Jurisdiction::Dmca => "notice-dmca.txt",
        Jurisdiction::Cn => "notice-cn.txt",
    };
    let path = dir.join(name);
    super::write_whole(&path, text.as_bytes())?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_keep_their_hidden_characters_percent_encoded() {
        let planted = "https://pirate.example/book/\u{202e}lmth.1\u{200b} x";
        let shown = url_exactly(planted);
        assert_eq!(shown, "https://pirate.example/book/%E2%80%AElmth.1%E2%80%8B%20x");
        assert!(!shown.contains('\u{202e}'));
        assert_eq!(url_exactly("https://例子.中国/第1章.html"), "https://例子.中国/第1章.html");
    }

    /// A web finding whose one source is copied as `kind`.
    fn finding_copying_as(store: &mut Store, kind: CopyKind) -> i64 {
        let url = "https://pirate.example/judge.html";
        let source = crate::SourceMatch {
            id: 1,
            path: "liaozhai/046.txt".into(),
            title: "陆判".into(),
            similarity: 0.6,
            source_coverage: 0.7,
            passages: Vec::new(),
            work: None,
            kind,
            names: Vec::new(),
        };
        let mut report = crate::SuspectReport::failed(url.into(), String::new());
        (report.error, report.similarity, report.sources) = (None, 0.6, vec![source]);
        let page = crate::engine::store::CapturedPage::file(url, b"<p>At Ling-yang there lived</p>".to_vec());
        store
            .record_finding(&crate::engine::store::NewFinding {
                kind: crate::engine::store::FindingKind::Web,
                target: url,
                final_url: None,
                pages: &[page],
                text: "At Ling-yang there lived",
                result: serde_json::to_string(&report).unwrap(),
                settings: "{}".into(),
                similarity: 0.6,
                sources: vec![(1, 0.6)],
                checked_at: 1_764_000_000,
            })
            .unwrap()
    }

    #[test]
    fn a_translation_is_named_one_and_a_page_that_only_adapts_is_not_put_in_a_notice() {
        let mut store = Store::open_in_memory(crate::engine::params::FingerprintParams::default()).unwrap();
        let translated = finding_copying_as(&mut store, CopyKind::Translation);
        let input = notice_input(&store, &[translated], 1_764_000_000).unwrap();
        assert!(input.items[0].works[0].translated);
        let dmca = notice_text(Jurisdiction::Dmca, &input);
        assert!(dmca.contains("is an unauthorised translation of \"document 1\""), "{dmca}");
        assert!(notice_text(Jurisdiction::Cn, &input).contains("（未经许可的翻译作品）"));

        let mut store = Store::open_in_memory(crate::engine::params::FingerprintParams::default()).unwrap();
        let adapted = finding_copying_as(&mut store, CopyKind::Adaptation);
        let refused = notice_input(&store, &[adapted], 1_764_000_000).unwrap_err().to_string();
        assert!(refused.contains("free adaptation, not a copy"), "{refused}");
    }
}
