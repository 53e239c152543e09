//! One file per panel or window. Each draws from `ZhiwenApp` and pushes `Action`s.

pub mod checks;
pub mod corpus;
pub mod dashboard;
pub mod drop_zone;
pub mod duplicates;
pub mod findings;
pub mod import_dialog;
pub mod notice_window;
pub mod settings_window;
pub mod status_bar;
pub mod top_bar;
mod viewer;

/// Bytes as "12.3 MB".
pub fn human_bytes(b: u64) -> String {
    let b = b as f64;
    if b >= 1e9 {
        format!("{:.2} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.1} MB", b / 1e6)
    } else if b >= 1e3 {
        format!("{:.0} kB", b / 1e3)
    } else {
        format!("{b} B")
    }
}

/// Thousands separated: 1,234,567.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The file name of a path, for compact lists.
pub use crate::report::file_name;

/// A table header that sorts: its label with ▲ (ascending) or ▼ (descending) when the
/// table is sorted by it (`order`), as a button or, in narrow columns, as bare text
/// (`framed`); true when clicked.
pub fn sort_button(ui: &mut eframe::egui::Ui, label: &str, order: Option<bool>, framed: bool) -> bool {
    let arrow = match order {
        Some(true) => " ▲",
        Some(false) => " ▼",
        None => "",
    };
    let text = eframe::egui::RichText::new(format!("{label}{arrow}")).strong();
    ui.add(eframe::egui::Button::new(text).frame(framed)).clicked()
}

/// A work as the app names it: `《title》 authors` (`《title》` without authors).
pub fn work_name(title: &str, authors: &[String]) -> String {
    if authors.is_empty() { format!("《{title}》") } else { format!("《{title}》 {}", authors.join("、")) }
}

/// At most `max` characters of `text` on one line: line breaks and runs of white space
/// become one space, and a cut is marked with `…` (the whole text goes in the hover text).
/// How the app names a source: its name, and after it in the app's language whether the
/// suspect translates or adapts it.
pub fn source_label(tr: &crate::gui::i18n::Tr, s: &crate::SourceMatch) -> String {
    match s.kind {
        crate::CopyKind::Text => s.name(),
        crate::CopyKind::Translation => format!("{} ({})", s.name(), tr.translation),
        crate::CopyKind::Adaptation => format!("{} ({})", s.name(), tr.adaptation),
    }
}

pub fn one_line(text: &str, max: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        return flat;
    }
    let mut out: String = flat.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Short names that tell paths apart: each path's file name, and where names repeat, as many
/// of the last folders as make them differ (`…/xiyouji/000.txt`, `…/hongloumeng/000.txt`).
pub fn distinct_names(paths: &[&str]) -> Vec<String> {
    let parts: Vec<Vec<&str>> =
        paths.iter().map(|p| p.split(['/', '\\']).filter(|c| !c.is_empty()).collect()).collect();
    let name = |i: usize, depth: usize| {
        let p = &parts[i];
        if p.is_empty() { paths[i].to_string() } else { p[p.len().saturating_sub(depth)..].join("/") }
    };
    let mut depth = vec![1usize; paths.len()];
    loop {
        let mut same: std::collections::HashMap<String, Vec<usize>> = std::collections::HashMap::new();
        for (i, &d) in depth.iter().enumerate() {
            same.entry(name(i, d)).or_default().push(i);
        }
        let mut deeper = false;
        for group in same.into_values().filter(|g| g.len() > 1) {
            for i in group {
                if depth[i] < parts[i].len() {
                    depth[i] += 1;
                    deeper = true;
                }
            }
        }
        if !deeper {
            break;
        }
    }
    (0..paths.len())
        .map(|i| {
            if depth[i] > 1 && depth[i] < parts[i].len() {
                format!("…/{}", name(i, depth[i]))
            } else {
                name(i, depth[i])
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_line_flattens_and_cuts_long_titles() {
        assert_eq!(super::one_line("Chapter II.\nTHE  SHADOW", 40), "Chapter II. THE SHADOW");
        assert_eq!(super::one_line("《西游记》第一回　灵根育孕源流出　心性修持大道生", 12), "《西游记》第一回 灵根…");
    }

    #[test]
    fn distinct_names_add_folders_only_where_file_names_repeat() {
        let paths = ["/a/xiyouji/000.txt", "/a/hongloumeng/000.txt", "/b/solo.txt", "/c/x/000.txt"];
        let names = super::distinct_names(&paths);
        assert_eq!(names, ["…/xiyouji/000.txt", "…/hongloumeng/000.txt", "solo.txt", "…/x/000.txt"]);
        // Two folders of the same name: one more level.
        let names = super::distinct_names(&["/p/one/ch/1.txt", "/p/two/ch/1.txt"]);
        assert_eq!(names, ["…/one/ch/1.txt", "…/two/ch/1.txt"]);
        // The same file twice stays as it is.
        assert_eq!(super::distinct_names(&["/a/b.txt", "/a/b.txt"]), ["a/b.txt", "a/b.txt"]);
    }
}
