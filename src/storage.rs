//! The one way to this browser's `localStorage` (and the tab's
//! `sessionStorage`): gloo-storage (typed values
//! through serde, errors that tell a missing key from a corrupt value),
//! behind a check that storage exists at all. gloo's own accessor throws
//! where `localStorage` does (sandboxed frames, blocked site data); these
//! functions answer "not available" instead.

use gloo_storage::errors::StorageError;
use gloo_storage::{LocalStorage, SessionStorage, Storage};
use serde::de::DeserializeOwned;
use serde::Serialize;

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

/// The value under `key`; [`StorageError::KeyNotFound`] also where storage
/// cannot be reached.
pub fn get<T: DeserializeOwned>(key: &str) -> Result<T, StorageError> {
    if !available() {
        return Err(StorageError::KeyNotFound(key.to_string()));
    }
    LocalStorage::get(key)
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
pub fn set<T: Serialize>(key: &str, value: &T) -> Result<(), StorageError> {
    if !available() {
        return Err(StorageError::KeyNotFound(key.to_string()));
    }
    LocalStorage::set(key, value)
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
    if session_available() {
        let _ = SessionStorage::set(key, value);
    }
}

/// Takes the value kept under `key` in this tab's `sessionStorage`: read
/// once, then forgotten.
pub fn take_from_session<T: DeserializeOwned>(key: &str) -> Option<T> {
    if !session_available() {
        return None;
    }
    let value = SessionStorage::get(key).ok();
    SessionStorage::delete(key);
    value
}
