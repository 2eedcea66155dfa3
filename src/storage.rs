//! The one way to this browser's `localStorage` (and the tab's
//! `sessionStorage`): gloo-storage reaches them, behind a check that
//! storage exists at all (gloo's own accessor throws where `localStorage`
//! does: sandboxed frames, blocked site data; these functions answer "not
//! available" instead).
//!
//! Values are stored as JSON text, read with the browser's own parser
//! (`JSON.parse`, `JSON.stringify`) and turned into their Rust types by
//! serde-wasm-bindgen, which the page already carries for its messages.
//! gloo-storage's typed `get` and `set` would bring serde_json into the
//! module every visitor downloads for these few values (its parser, its
//! writer and a copy of each type's decoder); serde_json comes only in the
//! chunks that need its line-and-column errors (a reading-list file read).

use gloo_storage::{LocalStorage, SessionStorage, Storage};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::said;

/// Why a stored value was not read.
#[derive(Debug, Clone, PartialEq)]
pub enum Unread {
    /// Nothing is stored under the key, or storage cannot be reached.
    Missing,
    /// What is stored is not a value of the type asked for: why.
    Unreadable(String),
}

/// Why a value was not stored: storage cannot be reached, is full, or
/// refused the write (the browser's reason).
#[derive(Debug, Clone, PartialEq)]
pub struct Unwritten(pub String);

impl std::fmt::Display for Unwritten {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Whether this page may keep data: reading `localStorage` throws in
/// sandboxed frames and when site data is blocked, and writing when it is
/// full or in some private modes. `probe` names a key free to overwrite.
pub fn writable(probe: &str) -> bool {
    if !available() {
        return false;
    }
    let ok = LocalStorage::raw().set_item(probe, "1").is_ok();
    LocalStorage::delete(probe);
    ok
}

/// Whether `localStorage` can be reached at all.
fn available() -> bool {
    matches!(leptos::prelude::window().local_storage(), Ok(Some(_)))
}

/// The value under `key`: [`Unread::Missing`] also where storage cannot be
/// reached.
pub fn get<T: DeserializeOwned>(key: &str) -> Result<T, Unread> {
    from_json(&get_raw(key).ok_or(Unread::Missing)?).map_err(Unread::Unreadable)
}

/// The text stored under `key`, as stored (for keeping an unreadable value
/// aside).
pub fn get_raw(key: &str) -> Option<String> {
    available()
        .then(|| LocalStorage::raw().get_item(key).ok().flatten())
        .flatten()
}

/// Stores text under `key` as it is; false when it could not be written.
pub fn set_raw(key: &str, value: &str) -> bool {
    available() && LocalStorage::raw().set_item(key, value).is_ok()
}

/// Stores `value` under `key` (as JSON).
pub fn set<T: Serialize>(key: &str, value: &T) -> Result<(), Unwritten> {
    if !available() {
        return Err(Unwritten("this page may not keep data here".into()));
    }
    let text = to_json(value).map_err(Unwritten)?;
    LocalStorage::raw()
        .set_item(key, &text)
        .map_err(|e| Unwritten(said(&e)))
}

/// A value from JSON text: the browser parses it, serde-wasm-bindgen
/// gives it its type.
fn from_json<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    let value = js_sys::JSON::parse(text).map_err(|e| said(&e))?;
    serde_wasm_bindgen::from_value(value).map_err(|e| e.to_string())
}

/// A value as JSON text: serde-wasm-bindgen makes it a plain JavaScript
/// value (objects for maps and structs, `null` for `None`, numbers for
/// integers: what serde_json wrote before), the browser writes it.
fn to_json<T: Serialize>(value: &T) -> Result<String, String> {
    let value = value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| e.to_string())?;
    js_sys::JSON::stringify(&value)
        .map(String::from)
        .map_err(|e| said(&e))
}

/// A short choice (a theme, a language) under `key`: stored as JSON, read
/// as JSON or as the bare word earlier versions wrote.
pub fn get_choice(key: &str) -> Option<String> {
    get::<String>(key).ok().or_else(|| get_raw(key))
}

/// Stores a short choice, or removes it with `None`.
pub fn set_choice(key: &str, value: Option<&str>) {
    match value {
        Some(v) => {
            let _ = set(key, &v);
        }
        None if available() => LocalStorage::delete(key),
        None => {}
    }
}

/// Whether this tab's `sessionStorage` can be reached.
fn session_available() -> bool {
    matches!(leptos::prelude::window().session_storage(), Ok(Some(_)))
}

/// Forgets `key` in this tab's `sessionStorage` (where the gate script
/// notes a start it retried), where there is one.
pub fn forget_in_session(key: &str) {
    if session_available() {
        SessionStorage::delete(key);
    }
}

/// Keeps `value` under `key` in this tab's `sessionStorage`, for the page
/// that opens next in this tab (a reload); nothing where there is none.
pub fn keep_in_session<T: Serialize>(key: &str, value: &T) {
    if let (true, Ok(text)) = (session_available(), to_json(value)) {
        let _ = SessionStorage::raw().set_item(key, &text);
    }
}

/// Takes the value kept under `key` in this tab's `sessionStorage`: read
/// once, then forgotten.
pub fn take_from_session<T: DeserializeOwned>(key: &str) -> Option<T> {
    if !session_available() {
        return None;
    }
    let text = SessionStorage::raw().get_item(key).ok().flatten();
    SessionStorage::delete(key);
    from_json(&text?).ok()
}
