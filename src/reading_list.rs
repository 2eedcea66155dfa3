//! The reading list in this browser: kept in `localStorage`
//! ([`crate::storage`]), in the format `explorer_core::view::ReadingList`
//! defines.
//!
//! Storage can be missing (a sandboxed frame, blocked site data), full, or
//! hold a value this build cannot read. None of these loses a star: without
//! storage the list lives in memory with a notice saying so, and a value
//! that cannot be read is copied aside under its own key before anything
//! is written.

use explorer_core::view::{ImportError, Merged, ReadingList};
use explorer_core::Engine;

use crate::chunks::Unfetched;
use crate::storage;
use leptos::prelude::*;

/// Where the list is stored.
pub const KEY: &str = "paper-explorer-reading-list";

/// What the reader should know about their reading list.
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    /// No storage: stars last until the page is closed.
    InMemory,
    /// The stored value could not be read; it was copied to `aside`.
    KeptAside {
        aside: String,
        error: String,
    },
    Imported {
        merged: Merged,
        /// Papers of the file this corpus does not have (kept all the same).
        elsewhere: usize,
    },
    ImportFailed(ImportProblem),
    /// The chunk that writes reading-list files could not be fetched.
    ExportUnfetched,
}

/// Why an import changed nothing: the file could not be read, or it is
/// not a reading list (said in the interface's language when shown).
#[derive(Clone, Debug, PartialEq)]
pub enum ImportProblem {
    Unreadable,
    Invalid(ImportError),
    /// The chunk that reads reading-list files could not be fetched.
    Unfetched,
}

#[derive(Clone, Copy)]
pub struct Stars {
    list: RwSignal<ReadingList>,
    /// The starred papers this corpus has, in starring order.
    pub docs: Memo<Vec<u32>>,
    pub notice: RwSignal<Option<Notice>>,
}

/// Reads the stored list. A value that cannot be read is copied aside
/// (false when even that failed: then nothing may be written).
fn load() -> (ReadingList, Option<Notice>, bool) {
    match storage::get::<ReadingList>(KEY) {
        Ok(list) => (list, None, true),
        Err(storage::Unread::Missing) => (ReadingList::default(), None, true),
        Err(storage::Unread::Unreadable(error)) => {
            let raw = storage::get_raw(KEY);
            let aside = format!("{KEY}.unreadable-{}", js_sys::Date::now() as u64);
            let kept = raw.is_some_and(|v| storage::set_raw(&aside, &v));
            let notice = if kept {
                Notice::KeptAside { aside, error }
            } else {
                Notice::InMemory
            };
            (ReadingList::default(), Some(notice), kept)
        }
    }
}

impl Stars {
    pub fn new(engine: &'static Engine) -> Stars {
        let (initial, notice, writable) = if storage::writable(&format!("{KEY}.probe")) {
            load()
        } else {
            (ReadingList::default(), Some(Notice::InMemory), false)
        };
        let list = RwSignal::new(initial);
        let docs = Memo::new(move |_| list.with(|l| l.docs(engine)));
        let persistent = StoredValue::new(writable);
        let notice = RwSignal::new(notice);
        let stars = Stars { list, docs, notice };
        // Every change is written at once (storage is the outside world).
        Effect::new(move |first: Option<()>| {
            list.track();
            if first.is_some() && persistent.get_value() {
                let saved = list.with_untracked(|l| storage::set(KEY, l));
                if saved.is_err() {
                    persistent.set_value(false);
                    notice.set(Some(Notice::InMemory));
                }
            }
        });
        // Another tab changed the list.
        if writable {
            let handle = window_event_listener(leptos::ev::storage, move |ev| {
                if ev.key().as_deref() == Some(KEY) {
                    if let Ok(l) = storage::get::<ReadingList>(KEY) {
                        if list.with_untracked(|cur| *cur != l) {
                            list.set(l);
                        }
                    }
                }
            });
            on_cleanup(move || handle.remove());
        }
        stars
    }

    pub fn toggle(&self, id: &str, title: &str) {
        self.list.update(|l| l.toggle(id, title));
    }

    /// Whether the paper is starred, outside the reactive graph.
    pub fn is_starred_now(&self, id: &str) -> bool {
        self.list.with_untracked(|l| l.contains(id))
    }

    /// The paper's note, outside the reactive graph.
    pub fn note_now(&self, id: &str) -> String {
        self.list
            .with_untracked(|l| l.get(id).map(|e| e.note.clone()).unwrap_or_default())
    }

    /// Subscribes the running effect to every change of the list (notes
    /// included).
    pub fn track(&self) {
        self.list.track();
    }

    pub fn set_note(&self, id: &str, note: &str) {
        self.list.update(|l| {
            l.set_note(id, note);
        });
    }

    pub fn len(&self) -> usize {
        self.list.with(ReadingList::len)
    }

    /// The list in its file format ([`ReadingList::to_json`]), written in
    /// its chunk of the module.
    pub async fn json(self) -> Result<String, Unfetched> {
        write_in_chunk(self.list.get_untracked()).await
    }

    /// The list as it is now (for a share link).
    pub fn snapshot(&self) -> ReadingList {
        self.list.get()
    }

    /// Adds another list's papers and notes (a shared list), never
    /// overwriting: what it did.
    pub fn merge(&self, other: ReadingList) -> Merged {
        let mut merged = Merged::default();
        self.list.update(|l| merged = l.merge(other));
        merged
    }

    /// Merges a reading-list file into the list, saying what it did.
    pub async fn import(self, json: String, engine: &Engine) {
        let notice = match read_in_chunk(json).await {
            Ok(Ok(other)) => {
                let elsewhere = other.len() - other.docs(engine).len();
                let mut merged = Merged::default();
                self.list.update(|l| merged = l.merge(other));
                Notice::Imported { merged, elsewhere }
            }
            Ok(Err(e)) => Notice::ImportFailed(ImportProblem::Invalid(e)),
            Err(Unfetched) => Notice::ImportFailed(ImportProblem::Unfetched),
        };
        self.notice.set(Some(notice));
    }
}

/// A reading-list file read ([`ReadingList::from_json`]), in a chunk of
/// the module ([`crate::chunks`]) with its writer below: their JSON code
/// (serde_json's, which names the line and column of a bad file) comes to
/// the readers who import or export a list, not to every visitor.
#[leptos::wasm_split::wasm_split(
    reading_list_file,
    fallible,
    wasm_split_path = ::leptos::wasm_split
)]
fn read_in_chunk(json: String) -> Result<Result<ReadingList, ImportError>, Unfetched> {
    Ok(ReadingList::from_json(&json))
}

/// The list written as its file ([`ReadingList::to_json`]), in the chunk
/// of [`read_in_chunk`].
#[leptos::wasm_split::wasm_split(
    reading_list_file,
    fallible,
    wasm_split_path = ::leptos::wasm_split
)]
fn write_in_chunk(list: ReadingList) -> Result<String, Unfetched> {
    Ok(list.to_json())
}
