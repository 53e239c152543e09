//! The desktop app (feature `gui`): a thin layer over the engine's `Corpus`.
//!
//! Layout after egui's demo app and rerun: [`app::ZhiwenApp`] holds persisted
//! [`settings::Settings`] next to runtime state, `ui()` draws the panels (one file each
//! under `panels/`), panels push [`app::Action`]s that are applied at the end of the
//! frame, and all engine work runs in the background ([`jobs`]) and is polled each frame.

pub mod app;
mod drag_pointer;
pub mod i18n;
pub mod jobs;
pub mod panels;
pub mod settings;
mod text_view;

pub use app::{Action, ZhiwenApp};

use eframe::egui;
use std::path::PathBuf;

/// The shipped CJK font: Noto Sans CJK SC cut to the CJK Unified Ideographs block
/// (every character of GBK and Big5; SIL OFL, see assets/fonts/OFL.txt). Rarer
/// characters fall back to system fonts (eframe's `system_fonts`, through fontconfig).
pub const CJK_FONT: &[u8] = include_bytes!("../../assets/fonts/NotoSansSC-Zhiwen.otf");
/// The pictographs the in-app file dialog (egui_file) puts in its title and file list,
/// which egui's fonts lack (cut from Symbola; assets/fonts/SymbolaIcons-LICENSE.txt).
pub const ICONS_FONT: &[u8] = include_bytes!("../../assets/fonts/SymbolaIcons.ttf");
pub const ICON_PNG: &[u8] = include_bytes!("../../assets/icons/zhiwen.png");

/// Adds the CJK font and the dialog's pictographs after egui's own fonts, for both families.
pub fn install_fonts(ctx: &egui::Context) {
    for (name, data) in [("noto-sans-sc-subset", CJK_FONT), ("symbola-icons", ICONS_FONT)] {
        ctx.add_font(egui::epaint::text::FontInsert::new(
            name,
            egui::FontData::from_static(data),
            vec![
                egui::epaint::text::InsertFontFamily {
                    family: egui::FontFamily::Proportional,
                    priority: egui::epaint::text::FontPriority::Lowest,
                },
                egui::epaint::text::InsertFontFamily {
                    family: egui::FontFamily::Monospace,
                    priority: egui::epaint::text::FontPriority::Lowest,
                },
            ],
        ));
    }
}

/// Opens the window on the store at `db` (the settings' store location wins if set) and
/// checks `suspects`, if any.
pub fn run(db: PathBuf, suspects: Vec<PathBuf>) -> anyhow::Result<()> {
    let mut viewport = egui::ViewportBuilder::default()
        .with_title("Zhiwen 指纹")
        .with_inner_size([1280.0, 800.0])
        .with_min_inner_size([720.0, 480.0])
        .with_drag_and_drop(true);
    if let Ok(icon) = eframe::icon_data::from_png_bytes(ICON_PNG) {
        viewport = viewport.with_icon(icon);
    }
    let options = eframe::NativeOptions { viewport, ..Default::default() };
    eframe::run_native(
        "zhiwen",
        options,
        Box::new(move |cc| {
            install_fonts(&cc.egui_ctx);
            let settings: settings::Settings =
                cc.storage.and_then(|s| eframe::get_value(s, settings::STORAGE_KEY)).unwrap_or_default();
            let db = settings.store.clone().unwrap_or(db);
            let mut app = ZhiwenApp::new(&cc.egui_ctx, db, settings);
            if !suspects.is_empty() {
                app.actions.push(Action::Check(suspects));
            }
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| anyhow::anyhow!("cannot open the window: {e}"))
}
