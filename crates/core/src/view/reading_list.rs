//! The reader's reading list: starred papers, in the order they were
//! starred, each with a private note. Kept in the browser's storage and
//! exchanged as a JSON file, both in the one format defined here.
//!
//! Papers are named by their stable id, with the title alongside so that a
//! list stays readable, and entries for papers this corpus does not have
//! (another list, an older build) are kept, never dropped.

use serde::{Deserialize, Serialize};

/// Names the file format, so that another JSON file is refused by name.
pub const FORMAT: &str = "paper-explorer/reading-list";
/// Raised when the format changes in a way older builds cannot read.
pub const VERSION: u32 = 1;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Wire", into = "Wire")]
/// The reader's starred papers with their notes, in the order starred.
pub struct ReadingList {
    /// The entries.
    pub entries: Vec<Entry>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
/// One starred paper.
pub struct Entry {
    /// The paper's stable id.
    pub id: String,
    #[serde(default)]
    /// Its title when starred (shown if the paper leaves the corpus).
    pub title: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    /// The reader's note (may be empty).
    pub note: String,
}

/// The format as written: `{"format": …, "version": 1, "papers": […]}`.
#[derive(Serialize, Deserialize)]
struct Wire {
    format: String,
    version: u32,
    papers: Vec<Entry>,
}

/// Why a file is not a reading list this page can import: a type, so that
/// the interface says it in its own language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportError {
    /// Not JSON at all; where the parser stopped (1-based).
    NotJson {
        /// The line.
        line: usize,
        /// The column.
        column: usize,
    },
    /// JSON, but not shaped as a reading list (a field missing or of the
    /// wrong type); where.
    Shape {
        /// The line.
        line: usize,
        /// The column.
        column: usize,
    },
    /// Another kind of JSON file: the `format` it names.
    OtherFormat(String),
    /// A reading list written by a newer version of the format.
    Newer(u32),
    /// A paper without an id.
    MissingId,
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImportError::NotJson { line, column } => {
                write!(f, "not valid JSON (line {line}, column {column})")
            }
            ImportError::Shape { line, column } => write!(
                f,
                "not shaped as a reading list (line {line}, column {column})"
            ),
            ImportError::OtherFormat(format) => write!(
                f,
                "this is not a reading list (its format is “{format}”, not “{FORMAT}”)"
            ),
            ImportError::Newer(v) => write!(
                f,
                "this reading list was written by a newer version (format {v}; this page reads {VERSION})"
            ),
            ImportError::MissingId => write!(f, "a paper in the reading list has no id"),
        }
    }
}

impl std::error::Error for ImportError {}

impl TryFrom<Wire> for ReadingList {
    type Error = ImportError;

    fn try_from(w: Wire) -> Result<ReadingList, ImportError> {
        if w.format != FORMAT {
            return Err(ImportError::OtherFormat(w.format));
        }
        if w.version > VERSION {
            return Err(ImportError::Newer(w.version));
        }
        let mut list = ReadingList::default();
        for e in w.papers {
            if e.id.is_empty() {
                return Err(ImportError::MissingId);
            }
            list.add(e);
        }
        Ok(list)
    }
}

impl From<ReadingList> for Wire {
    fn from(list: ReadingList) -> Wire {
        Wire {
            format: FORMAT.into(),
            version: VERSION,
            papers: list.entries,
        }
    }
}

/// What an import changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Merged {
    /// Papers starred that were not.
    pub added: usize,
    /// Papers already starred whose imported note differed from ours.
    pub notes_joined: usize,
}

impl ReadingList {
    /// Reads the JSON format, saying what is wrong and where.
    pub fn from_json(json: &str) -> Result<ReadingList, ImportError> {
        let wire: Wire = serde_json::from_str(json).map_err(|e| {
            let (line, column) = (e.line(), e.column());
            match e.classify() {
                serde_json::error::Category::Data => ImportError::Shape { line, column },
                _ => ImportError::NotJson { line, column },
            }
        })?;
        ReadingList::try_from(wire)
    }

    /// The list in its file format (pretty-printed JSON).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a reading list always serializes")
    }

    /// How many papers are starred.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no paper is starred.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry of a paper.
    pub fn get(&self, id: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.id == id)
    }

    /// Whether a paper is starred.
    pub fn contains(&self, id: &str) -> bool {
        self.get(id).is_some()
    }

    /// Stars or unstars a paper. Unstarring drops its note too: the
    /// interface says so before it happens.
    pub fn toggle(&mut self, id: &str, title: &str) {
        match self.entries.iter().position(|e| e.id == id) {
            Some(i) => {
                self.entries.remove(i);
            }
            None => self.entries.push(Entry {
                id: id.into(),
                title: title.into(),
                note: String::new(),
            }),
        }
    }

    /// Sets the note of a starred paper; false when it is not starred.
    pub fn set_note(&mut self, id: &str, note: &str) -> bool {
        match self.entries.iter_mut().find(|e| e.id == id) {
            Some(e) => {
                e.note = note.into();
                true
            }
            None => false,
        }
    }

    /// Adds an entry, or joins it with the one already there.
    fn add(&mut self, e: Entry) -> Merged {
        let mut merged = Merged::default();
        match self.entries.iter_mut().find(|x| x.id == e.id) {
            None => {
                self.entries.push(e);
                merged.added = 1;
            }
            Some(x) => {
                if x.title.is_empty() {
                    x.title = e.title;
                }
                let note = e.note.trim();
                if !note.is_empty() && !x.note.contains(note) {
                    if x.note.trim().is_empty() {
                        x.note = e.note;
                    } else {
                        x.note = format!("{}\n\n{}", x.note.trim_end(), note);
                        merged.notes_joined = 1;
                    }
                }
            }
        }
        merged
    }

    /// Imports another list into this one: new papers are appended in their
    /// order, notes that differ are joined, nothing is dropped.
    pub fn merge(&mut self, other: ReadingList) -> Merged {
        let mut total = Merged::default();
        for e in other.entries {
            let m = self.add(e);
            total.added += m.added;
            total.notes_joined += m.notes_joined;
        }
        total
    }

    /// The starred papers this corpus has, in starring order.
    pub fn docs(&self, engine: &crate::Engine) -> Vec<u32> {
        self.entries
            .iter()
            .filter_map(|e| engine.doc_of(&e.id))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, note: &str) -> Entry {
        Entry {
            id: id.into(),
            title: format!("Title of {id}"),
            note: note.into(),
        }
    }

    #[test]
    fn round_trips_through_json() {
        let mut list = ReadingList::default();
        list.toggle("b", "Bee");
        list.toggle("a", "Ay \"quoted\" — ünïcode");
        assert!(list.set_note("a", "line one\nline two"));
        assert!(!list.set_note("zzz", "no such star"));
        let json = list.to_json();
        assert!(json.contains("\"format\": \"paper-explorer/reading-list\""));
        assert_eq!(ReadingList::from_json(&json).unwrap(), list);
        list.toggle("b", "");
        assert_eq!(list.entries.len(), 1);
        assert_eq!(list.entries[0].id, "a");
    }

    #[test]
    fn refuses_other_files_by_name() {
        // Where the parser stopped: the line is what a reader looks for.
        let at_line = |e: ImportError| match e {
            ImportError::NotJson { line, .. } => ("not JSON", line),
            ImportError::Shape { line, .. } => ("shape", line),
            other => panic!("{other}"),
        };
        assert_eq!(
            at_line(ReadingList::from_json("{not json").unwrap_err()),
            ("not JSON", 1)
        );
        assert_eq!(
            at_line(ReadingList::from_json("").unwrap_err()),
            ("not JSON", 1)
        );
        assert_eq!(
            at_line(ReadingList::from_json("[1,2]").unwrap_err()),
            ("shape", 1)
        );
        assert_eq!(
            at_line(
                ReadingList::from_json(
                    "{\"format\":\"paper-explorer/reading-list\",\n\"version\":1}"
                )
                .unwrap_err()
            ),
            ("shape", 2)
        );
        for (json, says) in [
            (
                r#"{"format":"x","version":1,"papers":[]}"#,
                ImportError::OtherFormat("x".into()),
            ),
            (
                r#"{"format":"paper-explorer/reading-list","version":99,"papers":[]}"#,
                ImportError::Newer(99),
            ),
            (
                r#"{"format":"paper-explorer/reading-list","version":1,"papers":[{"id":""}]}"#,
                ImportError::MissingId,
            ),
        ] {
            assert_eq!(ReadingList::from_json(json).unwrap_err(), says, "{json:?}");
        }
    }

    #[test]
    fn merging_adds_and_joins_without_losing_anything() {
        let mut ours = ReadingList {
            entries: vec![entry("a", "mine"), entry("b", "")],
        };
        let theirs = ReadingList {
            entries: vec![
                entry("b", "their note"),
                entry("c", "new"),
                entry("a", "theirs"),
                entry("a", "mine"),
            ],
        };
        let m = ours.merge(theirs);
        assert_eq!(
            m,
            Merged {
                added: 1,
                notes_joined: 1
            }
        );
        let ids: Vec<&str> = ours.entries.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "c"]);
        assert_eq!(ours.get("a").unwrap().note, "mine\n\ntheirs");
        assert_eq!(ours.get("b").unwrap().note, "their note");
        // Importing the same file twice changes nothing more.
        let again = ours.clone();
        assert_eq!(ours.merge(again.clone()), Merged::default());
        assert_eq!(ours, again);
    }

    #[test]
    fn duplicate_ids_in_a_file_collapse() {
        let json = r#"{"format":"paper-explorer/reading-list","version":1,
            "papers":[{"id":"a","note":"x"},{"id":"a","note":"y"}]}"#;
        let list = ReadingList::from_json(json).unwrap();
        assert_eq!(list.entries.len(), 1);
        assert_eq!(list.entries[0].note, "x\n\ny");
    }
}
