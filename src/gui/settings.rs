//! Settings persisted between runs (eframe storage), kept apart from runtime state.

use super::i18n::Lang;
use crate::{CheckOptions, FingerprintParams};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Theme {
    #[default]
    Light,
    Dark,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub lang: Lang,
    pub theme: Theme,
    pub check: CheckOptions,
    /// Window and step for the store (applied by re-fingerprinting it).
    pub fingerprint: FingerprintParams,
    /// Store location chosen in the settings; `None` means the default (or `--db`).
    pub store: Option<PathBuf>,
    pub link_scrolling: bool,
    /// Use the in-app file dialog; set when the native one could not open.
    pub builtin_dialogs: bool,
    /// Folders files were last picked from or dropped from, most recent first.
    pub recent_folders: Vec<PathBuf>,
    /// Seconds between two requests to one web site.
    pub crawl_delay: f64,
    /// A proxy for web pages (`http://host:port`); empty: the environment's.
    pub proxy: String,
    /// The RFC 3161 time-stamping authority evidence packages are timestamped by (its URL);
    /// empty: packages are not timestamped.
    pub tsa: String,
    /// The SearXNG instance discovery asks (empty: none set).
    pub search_url: String,
    /// Seconds between two queries to the search engine.
    pub query_interval: f64,
    /// Discovery may fetch addresses on private networks (an intranet mirror; tests).
    pub discover_private: bool,
}

/// Recent folders kept.
pub const RECENT_FOLDERS: usize = 8;

impl Settings {
    /// How the app fetches web pages.
    pub fn fetch_options(&self) -> crate::engine::web::fetch::FetchOptions {
        use crate::engine::web::fetch::{FetchOptions, ProxySetting};
        FetchOptions {
            delay: std::time::Duration::try_from_secs_f64(self.crawl_delay)
                .unwrap_or(std::time::Duration::from_secs(1)),
            proxy: ProxySetting::parse(&self.proxy),
            ..FetchOptions::default()
        }
    }

    /// Remembers where `path` came from: the path itself if it is a folder, else its parent.
    pub fn remember_folder_of(&mut self, path: &std::path::Path, is_folder: bool) {
        let folder = if is_folder { Some(path) } else { path.parent() };
        if let Some(folder) = folder.filter(|f| !f.as_os_str().is_empty()) {
            self.remember_folder(folder.to_path_buf());
        }
    }

    /// Puts `folder` first among the recent folders.
    fn remember_folder(&mut self, folder: PathBuf) {
        self.recent_folders.retain(|f| *f != folder);
        self.recent_folders.insert(0, folder);
        self.recent_folders.truncate(RECENT_FOLDERS);
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            lang: Lang::En,
            theme: Theme::Light,
            check: CheckOptions::default(),
            fingerprint: FingerprintParams::default(),
            store: None,
            link_scrolling: true,
            builtin_dialogs: false,
            recent_folders: Vec::new(),
            crawl_delay: 1.0,
            proxy: String::new(),
            tsa: String::new(),
            search_url: String::new(),
            query_interval: 2.0,
            discover_private: false,
        }
    }
}

pub const STORAGE_KEY: &str = "zhiwen.settings";
