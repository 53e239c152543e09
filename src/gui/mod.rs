//! The desktop app (feature `gui`). Placeholder until the GUI issue lands: a window that
//! says what the app will be and points to the CLI.

use std::path::PathBuf;

pub fn run(db: PathBuf) -> anyhow::Result<()> {
    let options = eframe::NativeOptions::default();
    eframe::run_native("Zhiwen 指纹", options, Box::new(move |_cc| Ok(Box::new(Placeholder { db }))))
        .map_err(|e| anyhow::anyhow!("cannot open the window: {e}"))
}

struct Placeholder {
    db: PathBuf,
}

impl eframe::App for Placeholder {
    fn ui(&mut self, ui: &mut eframe::egui::Ui, _frame: &mut eframe::Frame) {
        eframe::egui::CentralPanel::default().show(ui, |ui| {
            ui.heading("Zhiwen");
            ui.label("The desktop app is not built yet. Use the command line: zhiwen import, zhiwen check.");
            ui.label(format!("Store: {}", self.db.display()));
        });
    }
}
