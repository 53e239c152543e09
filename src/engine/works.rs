//! What work an imported file belongs to ([`WorkHint`]), inferred at import:
//!
//! - a file found by walking a folder is a chapter of the folder's work, named by the folder,
//!   or by a `metadata.json` in it or a `manifest.tsv` in it or its parent (formats below);
//! - a book file (EPUB, MOBI/AZW3, DOCX, ODT) whose metadata has a title is a work of its own,
//!   with the metadata's title, creators and language;
//! - a file named on its own is a work of its own named by its title line, unless a
//!   `metadata.json` or `manifest.tsv` beside it lists it.
//!
//! `metadata.json` (in the chapters' folder): `{"title": "西游记", "authors": ["吴承恩"],
//! "language": "zh", "holder": "…", "chapters": ["001.txt", "002.txt"]}`; every key is
//! optional, `"author": "…"` is read as one author, `chapters` gives the order.
//!
//! `manifest.tsv` (in the chapters' folder, or in its parent for a folder of such folders, as in
//! the zh-classics data): tab-separated with a header row; the columns read are `file` (needed:
//! the chapter's file name), `slug` or `folder` (the sub-folder holding the file, when the
//! manifest is in the parent), `title`, `book` or `work` (the work's title), `author` or
//! `authors` (several separated by `;` or `、`), `language`, `holder`; others are ignored. A
//! row's place gives its chapter's place in the work. When the rows of one folder name
//! several titles, each title is a work of its own (a folder of several books' chapters).
//!
//! Invariant: inference reads only the files' folders and bytes; what a person edited in the
//! store is never changed by it (see `store/works.rs`).

use crate::engine::decode::BookMetadata;
use crate::engine::store::WorkHint;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What a folder's `metadata.json` and `manifest.tsv` say about the work its files form.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FolderMetadata {
    pub title: Option<String>,
    pub authors: Vec<String>,
    pub language: Option<String>,
    pub holder: Option<String>,
    /// File name → chapter place, for the files the metadata lists.
    pub order: HashMap<String, i64>,
    /// File name → its manifest row's work, when the rows of this folder name several works
    /// (a folder holding chapters of several books).
    pub row_works: HashMap<String, RowWork>,
}

/// The work a manifest row names, when a folder's rows name several.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RowWork {
    pub title: String,
    pub authors: Vec<String>,
    pub language: Option<String>,
    pub holder: Option<String>,
}

/// A metadata file that could not be read: its path and the problem.
pub type MetadataError = (PathBuf, String);

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct MetadataJson {
    title: Option<String>,
    author: Option<String>,
    authors: Option<Vec<String>>,
    language: Option<String>,
    holder: Option<String>,
    chapters: Option<Vec<String>>,
}

fn non_empty(s: Option<&str>) -> Option<String> {
    s.map(str::trim).filter(|s| !s.is_empty()).map(str::to_string)
}

/// Splits an authors field: `吴承恩; 李卓吾` or `吴承恩、李卓吾`.
fn split_authors(field: &str) -> Vec<String> {
    field.split([';', '、', '；']).map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect()
}

/// Reads the metadata for the files of `folder` (canonical). `Ok(None)` when there is none;
/// each metadata file that exists but cannot be read is one error (the others still count).
pub fn folder_metadata(folder: &Path) -> (Option<FolderMetadata>, Vec<MetadataError>) {
    let mut errors = Vec::new();
    let mut meta = FolderMetadata::default();
    let mut found = false;
    let json_path = folder.join("metadata.json");
    if json_path.is_file() {
        match read_json(&json_path) {
            Ok(json) => {
                found = true;
                meta.title = non_empty(json.title.as_deref());
                meta.authors = json.authors.unwrap_or_default().iter().filter_map(|a| non_empty(Some(a))).collect();
                meta.authors.extend(json.author.as_deref().map(split_authors).unwrap_or_default());
                meta.language = non_empty(json.language.as_deref());
                meta.holder = non_empty(json.holder.as_deref());
                for (i, name) in json.chapters.unwrap_or_default().into_iter().enumerate() {
                    meta.order.entry(name).or_insert(i as i64);
                }
            }
            Err(reason) => errors.push((json_path, reason)),
        }
    }
    let manifests =
        [Some((folder.to_path_buf(), None)), folder.parent().map(|p| (p.to_path_buf(), folder.file_name()))];
    for (dir, slug) in manifests.into_iter().flatten() {
        let path = dir.join("manifest.tsv");
        if !path.is_file() {
            continue;
        }
        match read_manifest(&path, slug.and_then(|s| s.to_str())) {
            Ok(Some(rows)) => {
                found = true;
                meta.title = meta.title.or(rows.title);
                if meta.authors.is_empty() {
                    meta.authors = rows.authors;
                }
                meta.language = meta.language.or(rows.language);
                meta.holder = meta.holder.or(rows.holder);
                if meta.order.is_empty() {
                    meta.order = rows.order;
                }
                meta.row_works = rows.row_works;
                break;
            }
            Ok(None) => {}
            Err(reason) => errors.push((path, reason)),
        }
    }
    (found.then_some(meta), errors)
}

fn read_json(path: &Path) -> Result<MetadataJson, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    serde_json::from_slice(&bytes).map_err(|e| format!("not a work's metadata.json ({e})"))
}

/// The rows of a manifest for one folder: `slug` is the folder's name when the manifest is in
/// its parent (only rows naming it count), `None` when the manifest is in the folder itself.
fn read_manifest(path: &Path, slug: Option<&str>) -> Result<Option<FolderMetadata>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read it as UTF-8 text ({e})"))?;
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<String> = lines
        .next()
        .ok_or("the manifest is empty (a header row with a `file` column is needed)")?
        .split('\t')
        .map(|h| h.trim().trim_start_matches('\u{feff}').to_ascii_lowercase())
        .collect();
    let column = |names: &[&str]| header.iter().position(|h| names.contains(&h.as_str()));
    let file = column(&["file"]).ok_or("the manifest has no `file` column in its header row")?;
    let folder_col = column(&["slug", "folder"]);
    let (title, authors) = (column(&["title", "book", "work"]), column(&["author", "authors"]));
    let (language, holder) = (column(&["language"]), column(&["holder"]));
    // A manifest in the parent without a folder column describes the parent's own files.
    if slug.is_some() && folder_col.is_none() {
        return Ok(None);
    }
    let mut meta = FolderMetadata::default();
    let mut any = false;
    let mut rows_works: Vec<(String, RowWork)> = Vec::new();
    for (row, line) in lines.enumerate() {
        let cells: Vec<&str> = line.split('\t').map(str::trim).collect();
        let cell = |c: Option<usize>| c.and_then(|c| cells.get(c).copied()).filter(|s| !s.is_empty());
        if let Some(slug) = slug
            && cell(folder_col) != Some(slug)
        {
            continue;
        }
        let Some(name) = cell(Some(file)) else { continue };
        any = true;
        meta.order.entry(name.to_string()).or_insert(row as i64);
        meta.title = meta.title.or_else(|| non_empty(cell(title)));
        if meta.authors.is_empty() {
            meta.authors = cell(authors).map(split_authors).unwrap_or_default();
        }
        meta.language = meta.language.or_else(|| non_empty(cell(language)));
        meta.holder = meta.holder.or_else(|| non_empty(cell(holder)));
        if let Some(title) = non_empty(cell(title)) {
            let work = RowWork {
                title,
                authors: cell(authors).map(split_authors).unwrap_or_default(),
                language: non_empty(cell(language)),
                holder: non_empty(cell(holder)),
            };
            rows_works.push((name.to_string(), work));
        }
    }
    let titles: std::collections::HashSet<&str> = rows_works.iter().map(|(_, w)| w.title.as_str()).collect();
    if titles.len() > 1 {
        meta.row_works = rows_works.into_iter().collect();
    }
    Ok(any.then_some(meta))
}

/// A language tag guessed from a text's start: `zh` when Han characters outnumber Latin
/// letters, `en` for Latin text with common English words, else empty (unknown).
pub fn guess_language(text: &str) -> String {
    let start: String = text.chars().take(4000).collect();
    let han = start.chars().filter(|c| ('\u{4e00}'..='\u{9fff}').contains(c)).count();
    let latin = start.chars().filter(char::is_ascii_alphabetic).count();
    if han > 0 && han * 3 >= latin {
        return "zh".into();
    }
    let lower = start.to_ascii_lowercase();
    let english =
        lower.split(|c: char| !c.is_ascii_alphabetic()).filter(|w| matches!(*w, "the" | "and" | "of")).count();
    if latin > 0 && english * 50 >= lower.split_whitespace().count().min(2000) { "en".into() } else { String::new() }
}

/// How a file came to be imported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// Named on its own.
    Named,
    /// Found by walking a folder.
    InFolder,
}

/// The work of a chapter of `folder` (canonical), named by its metadata or its name.
pub fn folder_hint(folder: &Path, file_name: &str, meta: Option<&FolderMetadata>) -> WorkHint {
    if let Some(row) = meta.and_then(|m| m.row_works.get(file_name)) {
        return WorkHint {
            origin: format!("{}#{}", folder.display(), row.title),
            title: row.title.clone(),
            authors: row.authors.clone(),
            language: row.language.clone().unwrap_or_default(),
            holder: row.holder.clone().unwrap_or_default(),
            position: meta.and_then(|m| m.order.get(file_name).copied()),
        };
    }
    let name = folder.file_name().map_or_else(|| folder.display().to_string(), |n| n.to_string_lossy().into_owned());
    WorkHint {
        origin: folder.to_string_lossy().into_owned(),
        title: meta.and_then(|m| m.title.clone()).unwrap_or(name),
        authors: meta.map(|m| m.authors.clone()).unwrap_or_default(),
        language: meta.and_then(|m| m.language.clone()).unwrap_or_default(),
        holder: meta.and_then(|m| m.holder.clone()).unwrap_or_default(),
        position: meta.and_then(|m| m.order.get(file_name).copied()),
    }
}

/// Whether a file belongs to its folder's work (see the module header), decided before its
/// text is read. `book`: the file's own metadata.
pub fn in_folder_work(
    found: Found,
    file_name: &str,
    folder: Option<&FolderMetadata>,
    book: Option<&BookMetadata>,
) -> bool {
    if book.is_some_and(|b| !b.title.is_empty()) {
        return false;
    }
    match found {
        Found::InFolder => true,
        Found::Named => folder.is_some_and(|m| m.order.contains_key(file_name)),
    }
}

/// The work of one imported file. `canonical`: its stored path; `title` and `text`: its title
/// line and text; `folder`: its folder's metadata.
pub fn hint_for(
    canonical: &Path,
    found: Found,
    folder: Option<&FolderMetadata>,
    book: Option<&BookMetadata>,
    title: &str,
    text: &str,
) -> WorkHint {
    let file_name = canonical.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut hint = match canonical.parent() {
        Some(dir) if in_folder_work(found, &file_name, folder, book) => folder_hint(dir, &file_name, folder),
        _ => {
            let mut own = WorkHint::single(&canonical.to_string_lossy(), title);
            if let Some(b) = book {
                if !b.title.is_empty() {
                    own.title = b.title.clone();
                }
                own.authors = b.authors.clone();
                own.language = b.language.clone();
            }
            own
        }
    };
    if hint.language.is_empty() {
        hint.language = guess_language(text);
    }
    hint
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parent_manifest_names_each_folder_and_orders_its_chapters() {
        let dir = tempfile::tempdir().unwrap();
        let book = dir.path().join("xiyouji");
        std::fs::create_dir(&book).unwrap();
        std::fs::write(
            dir.path().join("manifest.tsv"),
            "group\tslug\tbook\tfile\tchapter_title\tauthor\n\
             core\thongloumeng\t红楼梦\t000.txt\t第一回\t曹雪芹\n\
             core\txiyouji\t西游记\t001.txt\t第二回\t吴承恩\n\
             core\txiyouji\t西游记\t000.txt\t第一回\t吴承恩\n",
        )
        .unwrap();
        let (meta, errors) = folder_metadata(&book);
        assert!(errors.is_empty());
        let meta = meta.unwrap();
        assert_eq!(meta.title.as_deref(), Some("西游记"));
        assert_eq!(meta.authors, ["吴承恩"]);
        assert!(meta.order["001.txt"] < meta.order["000.txt"]);
        // A folder the manifest does not name has no metadata.
        let other = dir.path().join("other");
        std::fs::create_dir(&other).unwrap();
        assert_eq!(folder_metadata(&other), (None, vec![]));
    }

    #[test]
    fn a_folder_whose_rows_name_several_books_makes_one_work_per_book() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("manifest.tsv"),
            "file\ttitle\tauthor\nxyj_1.txt\t西游记\t吴承恩\nsg_1.txt\t三国演义\t罗贯中\nxyj_2.txt\t西游记\t吴承恩\n",
        )
        .unwrap();
        let meta = folder_metadata(dir.path()).0.unwrap();
        let (a, b, c) = (
            folder_hint(dir.path(), "xyj_1.txt", Some(&meta)),
            folder_hint(dir.path(), "sg_1.txt", Some(&meta)),
            folder_hint(dir.path(), "xyj_2.txt", Some(&meta)),
        );
        assert_eq!((a.title.as_str(), a.authors.as_slice()), ("西游记", &["吴承恩".to_string()][..]));
        assert_eq!(b.title, "三国演义");
        assert_eq!(a.origin, c.origin);
        assert_ne!(a.origin, b.origin);
        assert_eq!((a.position, c.position), (Some(0), Some(2)));
    }

    #[test]
    fn metadata_json_comes_first_and_a_bad_one_is_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("metadata.json"),
            r#"{"title": " 聊斋志异 ", "author": "蒲松龄", "holder": "某出版社", "chapters": ["b.txt", "a.txt"]}"#,
        )
        .unwrap();
        std::fs::write(dir.path().join("manifest.tsv"), "file\ttitle\tlanguage\na.txt\tOther\tzh\n").unwrap();
        let meta = folder_metadata(dir.path()).0.unwrap();
        assert_eq!(meta.title.as_deref(), Some("聊斋志异"));
        assert_eq!(meta.authors, ["蒲松龄"]);
        assert_eq!(meta.holder.as_deref(), Some("某出版社"));
        assert_eq!(meta.language.as_deref(), Some("zh"));
        assert_eq!(meta.order["b.txt"], 0);

        std::fs::write(dir.path().join("metadata.json"), r#"{"titel": "typo"}"#).unwrap();
        let (meta, errors) = folder_metadata(dir.path());
        assert_eq!(errors.len(), 1);
        assert!(errors[0].0.ends_with("metadata.json") && errors[0].1.contains("titel"), "{errors:?}");
        assert_eq!(meta.unwrap().title.as_deref(), Some("Other"), "the manifest still counts");
    }

    #[test]
    fn book_metadata_makes_a_work_of_its_own_and_a_title_line_names_a_single_file() {
        let folder = FolderMetadata { title: Some("文集".into()), ..Default::default() };
        let book = BookMetadata { title: "西游记".into(), authors: vec!["吴承恩".into()], language: "zh".into() };
        let epub = hint_for(Path::new("/b/xyj.epub"), Found::InFolder, Some(&folder), Some(&book), "第一回", "第一回");
        assert_eq!((epub.origin.as_str(), epub.title.as_str()), ("/b/xyj.epub", "西游记"));
        assert_eq!(epub.authors, ["吴承恩"]);
        let chapter = hint_for(Path::new("/b/1.txt"), Found::InFolder, Some(&folder), None, "第一回", "第一回");
        assert_eq!((chapter.origin.as_str(), chapter.title.as_str()), ("/b", "文集"));
        let single = hint_for(
            Path::new("/b/1.txt"),
            Found::Named,
            Some(&folder),
            None,
            "Chapter One",
            "Chapter One of the sea and the sky",
        );
        assert_eq!(
            (single.origin.as_str(), single.title.as_str(), single.language.as_str()),
            ("/b/1.txt", "Chapter One", "en")
        );
    }

    #[test]
    fn languages_are_guessed_from_the_script() {
        assert_eq!(guess_language("第一回 灵根育孕源流出 with a few words"), "zh");
        assert_eq!(guess_language("It was the best of times, it was the worst of times"), "en");
        assert_eq!(guess_language("Es war einmal ein König"), "");
    }
}
