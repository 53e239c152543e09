//! Works: what a rights holder owns and thinks in (a novel of 120 chapters, a column of
//! articles), each with its documents in order.
//!
//! Tables (schema 7): `works` (title, authors as a JSON array, language, rights holder,
//! `edited` once a person changed it), `work_origins` (the folders or files import made a work
//! from, so importing them again finds it; a merge moves them) and `work_documents` (one row
//! per document: its work and its `position`, NULL for "in file-name order").
//!
//! Invariants:
//! - every document belongs to exactly one work, written in the same transaction as the
//!   document (a document written without a [`WorkHint`] is a work of its own);
//! - a work has at least one document: a work left empty by a removal, a move or a merge is
//!   deleted with its origins in the same transaction;
//! - a work's chapter order is its documents with no `position` in the natural order of their
//!   paths (`2.txt` before `10.txt`), then those with one by `position` (a manifest's row, or
//!   after the work's last chapter for documents moved or merged in);
//! - import never overwrites a work a person edited (`works set`, merge target): it only adds
//!   new chapters to it. A document imported again at the same path keeps its work and place.

use super::Store;
use crate::{Error, Result};
use rusqlite::{OptionalExtension, Transaction, params};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::HashMap;

/// A work with its documents in chapter order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Work {
    pub id: u32,
    pub title: String,
    pub authors: Vec<String>,
    /// A language tag (`zh`, `en`, …) or empty when unknown.
    pub language: String,
    /// Who holds the rights (for notices); empty when not said.
    pub holder: String,
    /// Document ids in chapter order.
    pub documents: Vec<u32>,
}

impl Work {
    /// The work as a report names it.
    pub fn to_ref(&self) -> WorkRef {
        WorkRef { id: self.id, title: self.title.clone(), authors: self.authors.clone() }
    }
}

/// A work as reports and results name it: `《title》` and its authors.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WorkRef {
    pub id: u32,
    pub title: String,
    pub authors: Vec<String>,
}

impl WorkRef {
    /// `《西游记》第一回 …`: the work's title in title marks, then the chapter's title (left out
    /// when it is the work's title, as for a single-file work).
    pub fn label(&self, chapter_title: &str) -> String {
        let chapter = chapter_title.trim();
        if chapter.is_empty() || chapter == self.title {
            format!("《{}》", self.title)
        } else {
            format!("《{}》{chapter}", self.title)
        }
    }
}

/// What import infers about a document's work (see `engine::works`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkHint {
    /// The folder or file the work is made from (canonical path): documents with the same
    /// origin are one work, and importing it again finds the work.
    pub origin: String,
    pub title: String,
    pub authors: Vec<String>,
    pub language: String,
    pub holder: String,
    /// The chapter's place when a manifest gives one (its row); `None`: file-name order.
    pub position: Option<i64>,
}

/// Changes to a work's fields; `None` leaves a field as it is.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkEdit {
    pub title: Option<String>,
    pub authors: Option<Vec<String>>,
    pub language: Option<String>,
    pub holder: Option<String>,
}

/// Where [`Store::move_documents`] puts documents.
#[derive(Clone, Debug, PartialEq)]
pub enum MoveTarget {
    Work(u32),
    /// A new work with this title (and otherwise the first moved document's work's fields).
    NewWork(String),
}

/// Compares paths as a person orders chapter files: runs of digits by their number
/// (`2.txt` < `10.txt`, `009` < `010`), the rest character by character.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a, b);
    loop {
        match (a.chars().next(), b.chars().next()) {
            (None, None) => return Ordering::Equal,
            (None, _) => return Ordering::Less,
            (_, None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let da = a.find(|c: char| !c.is_ascii_digit()).unwrap_or(a.len());
                let db = b.find(|c: char| !c.is_ascii_digit()).unwrap_or(b.len());
                let (na, nb) = (a[..da].trim_start_matches('0'), b[..db].trim_start_matches('0'));
                let by_number = na.len().cmp(&nb.len()).then_with(|| na.cmp(nb));
                // Equal numbers: fewer leading zeros first, so the order is total.
                let ord = by_number.then_with(|| da.cmp(&db));
                if ord != Ordering::Equal {
                    return ord;
                }
                (a, b) = (&a[da..], &b[db..]);
            }
            (Some(x), Some(y)) => {
                if x != y {
                    return x.cmp(&y);
                }
                (a, b) = (&a[x.len_utf8()..], &b[y.len_utf8()..]);
            }
        }
    }
}

/// Orders one work's documents, given as (id, path, position).
fn chapter_order(mut docs: Vec<(u32, String, Option<i64>)>) -> Vec<u32> {
    docs.sort_by(|a, b| match (a.2, b.2) {
        (None, None) => natural_cmp(&a.1, &b.1).then(a.0.cmp(&b.0)),
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(x), Some(y)) => x.cmp(&y).then_with(|| natural_cmp(&a.1, &b.1)).then(a.0.cmp(&b.0)),
    });
    docs.into_iter().map(|d| d.0).collect()
}

fn authors_json(authors: &[String]) -> String {
    serde_json::to_string(authors).expect("strings serialize")
}

fn authors_of(json: &str) -> Vec<String> {
    serde_json::from_str(json).unwrap_or_default()
}

const WORK_COLUMNS: &str = "id, title, authors, language, holder";

fn work_of_row(r: &rusqlite::Row) -> rusqlite::Result<Work> {
    Ok(Work {
        id: r.get(0)?,
        title: r.get(1)?,
        authors: authors_of(&r.get::<_, String>(2)?),
        language: r.get(3)?,
        holder: r.get(4)?,
        documents: Vec::new(),
    })
}

/// Every work's documents, in chapter order, by work id.
fn documents_by_work(conn: &rusqlite::Connection, only: Option<u32>) -> Result<HashMap<u32, Vec<u32>>> {
    let mut stmt = conn.prepare_cached(
        "SELECT wd.work_id, d.id, d.path, wd.position FROM work_documents wd JOIN documents d ON d.id = wd.doc_id
         WHERE ?1 IS NULL OR wd.work_id = ?1",
    )?;
    let mut by_work: HashMap<u32, Vec<(u32, String, Option<i64>)>> = HashMap::new();
    let rows = stmt.query_map([only], |r| Ok((r.get::<_, u32>(0)?, (r.get(1)?, r.get(2)?, r.get(3)?))))?;
    for row in rows {
        let (work, doc) = row?;
        by_work.entry(work).or_default().push(doc);
    }
    Ok(by_work.into_iter().map(|(w, docs)| (w, chapter_order(docs))).collect())
}

impl Store {
    /// Every work with its documents in chapter order, by title (then id).
    pub fn works(&self) -> Result<Vec<Work>> {
        let mut docs = documents_by_work(&self.conn, None)?;
        let mut stmt = self.conn.prepare(&format!("SELECT {WORK_COLUMNS} FROM works"))?;
        let mut works: Vec<Work> = stmt.query_map([], work_of_row)?.collect::<rusqlite::Result<_>>()?;
        for w in &mut works {
            w.documents = docs.remove(&w.id).unwrap_or_default();
        }
        works.sort_by(|a, b| natural_cmp(&a.title, &b.title).then(a.id.cmp(&b.id)));
        Ok(works)
    }

    /// One work with its documents in chapter order.
    pub fn work(&self, id: u32) -> Result<Option<Work>> {
        let mut stmt = self.conn.prepare_cached(&format!("SELECT {WORK_COLUMNS} FROM works WHERE id = ?1"))?;
        let Some(mut work) = stmt.query_row([id], work_of_row).optional()? else { return Ok(None) };
        work.documents = documents_by_work(&self.conn, Some(id))?.remove(&id).unwrap_or_default();
        Ok(Some(work))
    }

    /// The work a document belongs to, as reports name it.
    pub fn work_of(&self, doc: u32) -> Result<Option<WorkRef>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT w.id, w.title, w.authors FROM work_documents wd JOIN works w ON w.id = wd.work_id
             WHERE wd.doc_id = ?1",
        )?;
        Ok(stmt
            .query_row([doc], |r| {
                Ok(WorkRef { id: r.get(0)?, title: r.get(1)?, authors: authors_of(&r.get::<_, String>(2)?) })
            })
            .optional()?)
    }

    /// Every document's work, by document id (for listing many documents at once).
    pub fn works_of_documents(&self) -> Result<HashMap<u32, WorkRef>> {
        let mut stmt = self.conn.prepare(
            "SELECT wd.doc_id, w.id, w.title, w.authors FROM work_documents wd JOIN works w ON w.id = wd.work_id",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((r.get(0)?, WorkRef { id: r.get(1)?, title: r.get(2)?, authors: authors_of(&r.get::<_, String>(3)?) }))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Changes a work's fields and marks it edited (import leaves it alone from then on).
    pub fn edit_work(&mut self, id: u32, edit: &WorkEdit) -> Result<()> {
        if edit.title.as_deref().is_some_and(|t| t.trim().is_empty()) {
            return Err(Error::Parameter("a work's title cannot be empty".into()));
        }
        self.write_transaction(|tx| {
            require_work(tx, id)?;
            let trimmed = |s: &Option<String>| s.as_deref().map(str::trim).map(str::to_string);
            let authors = edit.authors.as_ref().map(|a| {
                authors_json(&a.iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect::<Vec<_>>())
            });
            tx.execute(
                "UPDATE works SET title = COALESCE(?2, title), authors = COALESCE(?3, authors),
                     language = COALESCE(?4, language), holder = COALESCE(?5, holder), edited = 1
                 WHERE id = ?1",
                params![id, trimmed(&edit.title), authors, trimmed(&edit.language), trimmed(&edit.holder)],
            )?;
            Ok(())
        })
    }

    /// Moves every document (and origin) of work `from` into `into`, after its last
    /// chapter, and deletes `from`. `into` keeps its fields and counts as edited.
    pub fn merge_works(&mut self, from: u32, into: u32) -> Result<()> {
        if from == into {
            return Err(Error::Parameter(format!("cannot merge work {from} into itself")));
        }
        let moved = self.work(from)?.ok_or_else(|| no_work(from))?.documents;
        self.write_transaction(|tx| {
            require_work(tx, into)?;
            append_documents(tx, &moved, into)?;
            tx.execute("UPDATE work_origins SET work_id = ?2 WHERE work_id = ?1", params![from, into])?;
            tx.execute("UPDATE works SET edited = 1 WHERE id = ?1", [into])?;
            delete_empty_works(tx)
        })
    }

    /// Moves documents to another work (after its last chapter) or to a new one; works left
    /// empty are deleted. Returns the target work's id.
    pub fn move_documents(&mut self, docs: &[u32], to: &MoveTarget) -> Result<u32> {
        let first_work = match docs.first() {
            Some(&d) => self.work_of(d)?.ok_or_else(|| Error::Parameter(format!("no document {d}")))?,
            None => return Err(Error::Parameter("no documents to move".into())),
        };
        for &d in docs {
            if self.document(d)?.is_none() {
                return Err(Error::Parameter(format!("no document {d}")));
            }
        }
        let first_fields = self.work(first_work.id)?.ok_or_else(|| no_work(first_work.id))?;
        self.write_transaction(|tx| {
            let target = match to {
                MoveTarget::Work(id) => {
                    require_work(tx, *id)?;
                    *id
                }
                MoveTarget::NewWork(title) if title.trim().is_empty() => {
                    return Err(Error::Parameter("a work's title cannot be empty".into()));
                }
                MoveTarget::NewWork(title) => {
                    tx.execute(
                        "INSERT INTO works (title, authors, language, holder, edited) VALUES (?1, ?2, ?3, ?4, 1)",
                        params![
                            title.trim(),
                            authors_json(&first_fields.authors),
                            first_fields.language,
                            first_fields.holder
                        ],
                    )?;
                    u32::try_from(tx.last_insert_rowid()).expect("work ids fit in u32")
                }
            };
            append_documents(tx, docs, target)?;
            tx.execute("UPDATE works SET edited = 1 WHERE id = ?1", [target])?;
            delete_empty_works(tx)?;
            Ok(target)
        })
    }
}

fn no_work(id: u32) -> Error {
    Error::Parameter(format!("no work {id} (see `zhiwen works list`)"))
}

fn require_work(tx: &Transaction, id: u32) -> Result<()> {
    let exists: bool = tx.query_row("SELECT EXISTS (SELECT 1 FROM works WHERE id = ?1)", [id], |r| r.get(0))?;
    if exists { Ok(()) } else { Err(no_work(id)) }
}

/// Puts `docs` (in this order) into `work` after its last chapter.
fn append_documents(tx: &Transaction, docs: &[u32], work: u32) -> Result<()> {
    let last: Option<i64> =
        tx.query_row("SELECT MAX(position) FROM work_documents WHERE work_id = ?1", [work], |r| r.get(0))?;
    let mut put = tx.prepare_cached(
        "INSERT INTO work_documents (doc_id, work_id, position) VALUES (?1, ?2, ?3)
         ON CONFLICT (doc_id) DO UPDATE SET work_id = excluded.work_id, position = excluded.position",
    )?;
    for (position, &d) in (last.map_or(0, |p| p + 1)..).zip(docs) {
        put.execute(params![d, work, position])?;
    }
    Ok(())
}

/// Deletes works without documents (their origins go with them).
pub(super) fn delete_empty_works(tx: &rusqlite::Connection) -> Result<()> {
    tx.execute("DELETE FROM works WHERE id NOT IN (SELECT work_id FROM work_documents)", [])?;
    Ok(())
}

/// The work for `hint`: the one made from its origin (its fields refreshed from the hint
/// unless a person edited it), or a new one.
pub(super) fn work_for_hint(tx: &rusqlite::Connection, hint: &WorkHint) -> Result<u32> {
    let found: Option<(u32, bool)> = tx
        .query_row(
            "SELECT w.id, w.edited FROM work_origins o JOIN works w ON w.id = o.work_id WHERE o.origin = ?1",
            [&hint.origin],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let authors = authors_json(&hint.authors);
    match found {
        Some((id, true)) => Ok(id),
        Some((id, false)) => {
            tx.execute(
                // Fields the hint does not know (a file unchanged since: no text to guess from) stay.
                "UPDATE works SET title = ?2, authors = COALESCE(NULLIF(?3, '[]'), authors),
                     language = COALESCE(NULLIF(?4, ''), language), holder = COALESCE(NULLIF(?5, ''), holder)
                 WHERE id = ?1",
                params![id, hint.title, authors, hint.language, hint.holder],
            )?;
            Ok(id)
        }
        None => {
            tx.execute(
                "INSERT INTO works (title, authors, language, holder, edited) VALUES (?1, ?2, ?3, ?4, 0)",
                params![hint.title, authors, hint.language, hint.holder],
            )?;
            let id = u32::try_from(tx.last_insert_rowid()).expect("work ids fit in u32");
            tx.execute("INSERT INTO work_origins (origin, work_id) VALUES (?1, ?2)", params![hint.origin, id])?;
            Ok(id)
        }
    }
}

/// Records that `doc` belongs to the work of `hint`, at the hint's position.
pub(super) fn place_document(tx: &rusqlite::Connection, doc: u32, hint: &WorkHint) -> Result<()> {
    let work = work_for_hint(tx, hint)?;
    tx.execute(
        "INSERT INTO work_documents (doc_id, work_id, position) VALUES (?1, ?2, ?3)
         ON CONFLICT (doc_id) DO UPDATE SET work_id = excluded.work_id, position = excluded.position",
        params![doc, work, hint.position],
    )?;
    Ok(())
}

impl Store {
    /// Brings the works of documents imported before and unchanged since up to date with
    /// what import infers now (a manifest added beside them): a document in a work nobody
    /// edited goes to the hint's work (which takes the hint's fields unless edited); one in an
    /// edited work stays where a person put it.
    pub(crate) fn refresh_works(&mut self, hints: &[(u32, WorkHint)]) -> Result<()> {
        if hints.is_empty() {
            return Ok(());
        }
        self.write_transaction(|tx| {
            for (doc, hint) in hints {
                let edited: Option<bool> = tx
                    .query_row(
                        "SELECT w.edited FROM work_documents wd JOIN works w ON w.id = wd.work_id WHERE wd.doc_id = ?1",
                        [doc],
                        |r| r.get(0),
                    )
                    .optional()?;
                if edited != Some(true) {
                    place_document(tx, *doc, hint)?;
                }
            }
            delete_empty_works(tx)
        })
    }
}

/// The schema 6 → 7 migration's data step: documents of an older store become works. The
/// documents of one folder form a work named by the folder (in file-name order), a lone
/// document in its folder a work of its own named by its title. Importing the folders again
/// later refreshes them (a manifest beside them, book metadata) without duplicating them.
pub(super) fn group_existing_documents(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
    /// A stored document: id, path, title.
    type Stored = (u32, String, String);
    let docs: Vec<Stored> = {
        let mut stmt = conn.prepare("SELECT id, path, title FROM documents ORDER BY id")?;
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect::<rusqlite::Result<_>>()?
    };
    let mut by_folder: std::collections::BTreeMap<String, Vec<&Stored>> = Default::default();
    for d in &docs {
        let folder = std::path::Path::new(&d.1).parent().map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
        by_folder.entry(folder).or_default().push(d);
    }
    for (folder, members) in by_folder {
        let groups: Vec<(WorkHint, Vec<&Stored>)> = if members.len() > 1 {
            let title = std::path::Path::new(&folder)
                .file_name()
                .map_or_else(|| folder.clone(), |n| n.to_string_lossy().into_owned());
            vec![(WorkHint { origin: folder.clone(), title, ..WorkHint::default() }, members)]
        } else {
            members.into_iter().map(|d| (WorkHint::single(&d.1, &d.2), vec![d])).collect()
        };
        for (hint, members) in groups {
            for d in members {
                place_document(conn, d.0, &hint).map_err(|e| match e {
                    Error::Sqlite(e) => e,
                    other => rusqlite::Error::ToSqlConversionFailure(Box::new(other)),
                })?;
            }
        }
    }
    Ok(())
}

impl WorkHint {
    /// A document that is a work of its own: named by its title (or its file name).
    pub fn single(path: &str, title: &str) -> WorkHint {
        let title = if title.trim().is_empty() {
            std::path::Path::new(path)
                .file_stem()
                .map_or_else(|| path.to_string(), |s| s.to_string_lossy().into_owned())
        } else {
            title.trim().to_string()
        };
        WorkHint { origin: path.to_string(), title, ..WorkHint::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order_reads_numbers_as_numbers() {
        let mut names =
            vec!["10.txt", "2.txt", "1.txt", "009.txt", "010.txt", "b.txt", "a10b", "a9b", "第2回", "第10回"];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            names,
            ["1.txt", "2.txt", "009.txt", "10.txt", "010.txt", "a9b", "a10b", "b.txt", "第2回", "第10回"]
        );
    }

    #[test]
    fn positioned_chapters_follow_the_file_name_ordered_ones() {
        let docs = vec![
            (1, "/w/10.txt".to_string(), None),
            (2, "/w/9.txt".to_string(), None),
            (3, "/x/1.txt".to_string(), Some(5)),
            (4, "/x/2.txt".to_string(), Some(4)),
        ];
        assert_eq!(chapter_order(docs), [2, 1, 4, 3]);
    }

    #[test]
    fn labels_put_the_work_in_title_marks() {
        let w = WorkRef { id: 1, title: "西游记".into(), authors: vec!["吴承恩".into()] };
        assert_eq!(w.label("第一回 灵根育孕源流出"), "《西游记》第一回 灵根育孕源流出");
        assert_eq!(w.label("西游记"), "《西游记》");
    }
}
