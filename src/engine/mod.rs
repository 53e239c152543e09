//! The detection engine. Invariant: nothing here imports egui, clap or indicatif;
//! progress and cancellation are plain data ([`progress`]) that frontends render.

pub mod check;
pub mod cluster;
pub mod corpus;
pub mod decode;
pub mod import;
pub mod index;
pub mod normalize;
pub mod params;
pub mod progress;
pub mod rarity;
pub mod signature;
pub mod simhash;
pub mod store;
pub mod time;
pub mod translation;
pub mod web;
pub mod window;
pub mod works;

/// Where data files installed beside Zhiwen are looked for (the OCR models in `ocr`, the
/// sentence encoder in `e5`), first found wins: the folder `$ENV` names; `NAME` beside the
/// executable (the Windows zip); `../share/zhiwen/NAME` from it (the .deb and the tarball);
/// the user's data folder (`~/.local/share/zhiwen/NAME`, where the `tools/` scripts put them).
pub fn installed_dirs(env: &str, name: &str) -> Vec<std::path::PathBuf> {
    use std::path::PathBuf;
    let mut dirs = Vec::new();
    if let Some(dir) = std::env::var_os(env) {
        dirs.push(PathBuf::from(dir));
    }
    if let Some(bin) = std::env::current_exe().ok().and_then(|exe| exe.parent().map(PathBuf::from)) {
        dirs.push(bin.join(name));
        dirs.push(bin.join("../share/zhiwen").join(name));
    }
    if let Some(data) = directories::BaseDirs::new().map(|d| d.data_dir().join("zhiwen").join(name)) {
        dirs.push(data);
    }
    dirs
}

/// Texts the engine's unit tests share.
#[cfg(test)]
pub(crate) mod test_texts {
    /// `han` with an English word after each of its characters: runs of one-unit initials
    /// and three-unit words mixed, so a text cut into pieces anywhere is cut inside both.
    pub fn han_with_words(han: &str) -> String {
        let words = "It was the best of times it was the worst of times";
        han.chars().zip(words.split(' ').cycle()).flat_map(|(c, w)| [c.to_string(), format!(" {w} ")]).collect()
    }
}
