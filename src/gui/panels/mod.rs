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
