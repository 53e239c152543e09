//! Import progress on a terminal (indicatif), drawn from the engine's plain `Progress`.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use zhiwen::{Progress, Stage};

pub struct Bar {
    bar: Option<Mutex<ProgressBar>>,
}

impl Bar {
    /// A bar on stderr if it is a terminal and not `quiet`; otherwise nothing is drawn.
    pub fn new(quiet: bool) -> Bar {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let pb = ProgressBar::new(0);
            pb.set_style(
                ProgressStyle::with_template(
                    "{spinner} {msg:>9} [{bar:30}] {pos}/{len} files  {binary_bytes_per_sec}  eta {eta}  {prefix}",
                )
                .expect("valid template")
                .progress_chars("=> "),
            );
            Mutex::new(pb)
        });
        Bar { bar }
    }

    pub fn update(&self, p: &Progress) {
        let Some(bar) = &self.bar else { return };
        let bar = bar.lock().unwrap();
        match p.stage {
            Stage::Scanning => bar.set_message("scanning"),
            Stage::Importing => {
                bar.set_message("importing");
                bar.set_length(p.files_total as u64);
                bar.set_position(p.files_done as u64);
                if let Some(name) = p.current.as_ref().and_then(|c| c.file_name()) {
                    bar.set_prefix(name.to_string_lossy().into_owned());
                }
            }
            Stage::Indexing => bar.set_message("indexing"),
            Stage::Checking => bar.set_message("checking"),
            Stage::Exporting => {
                bar.set_message("exporting");
                bar.set_length(p.files_total as u64);
                bar.set_position(p.files_done as u64);
            }
            Stage::Done => bar.finish_and_clear(),
        }
    }
}
