//! The address bar: what the view state writes into it (behind the view,
//! once changes pause), and what it says when the page opens or the reader
//! goes back.

use explorer_core::view::shared_list::{self, Shared};
use explorer_core::Engine;
use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsValue;

use crate::storage;
use crate::url_state::ViewState;

use super::View;

/// The address is written once the view has not changed for this long:
/// changes closer together share one write.
const ADDRESS_PAUSE: std::time::Duration = std::time::Duration::from_millis(250);

/// The address bar, written behind the view state, off the task that
/// changed it, once changes pause for [`ADDRESS_PAUSE`]. A history write
/// (`pushState`, `replaceState`) takes 1.5-3 ms in Chromium and slows the
/// interaction after it too. With an entry written a frame after each
/// facet click (as first built), the bench's clicks (24 a round, a frame
/// apart, each timed to laid out) took 10.3 ms at p95 on the seeds and
/// 15.8 at 20k; with clicks less than 250 ms apart written as one, 5.1
/// and 6.9 ms (the median of 24 and 18 rounds' p95, the two builds
/// alternating in one-off runs outside the repo). So a click starts a new
/// history entry, and what changes before the pause (another click,
/// typing) joins it: Back undoes such a burst at once, as with
/// InstantSearch's router and its write delay. Order is kept: what was
/// typed before a click stays in the entry the click leaves, and what is
/// typed after it goes in the click's entry.
#[derive(Clone, Copy, Default)]
pub struct Address {
    /// What the current entry is to hold, not yet written (typing).
    current: StoredValue<Option<String>>,
    /// A new entry to follow it, not yet written (a click).
    next: StoredValue<Option<String>>,
    /// Changes so far: a write waits for a pause in them.
    changes: StoredValue<u32>,
}

impl Address {
    /// The address that mirrors `view` (the outside world, hence an
    /// Effect), and the view that follows it back and forward.
    pub fn mirror(engine: &'static Engine, view: View) -> Address {
        let View {
            state,
            set_state,
            set_open,
            push_history,
            query_replaced,
            ..
        } = view;
        let address = Address::default();
        Effect::new(move |_| {
            let qs = state.with(|s| s.to_query_string(&engine.corpus));
            let push = push_history.get_value();
            push_history.set_value(false);
            if location_search() == qs {
                // Back where the address already is: nothing left to write.
                address.forget();
            } else if push {
                address.push(qs);
            } else {
                address.replace(qs);
            }
        });
        // Back and forward restore the state.
        let handle = window_event_listener(ev::popstate, move |_| {
            query_replaced.notify();
            set_state.set(ViewState::from_query_string(
                &location_search(),
                &engine.corpus,
            ));
            set_open.set(location_fragment());
        });
        on_cleanup(move || handle.remove());
        // A reload or a tab closed before the pause: what waits is written
        // now. A reload has already chosen its address when the page is
        // hidden: the new page takes what waited from the session
        // ([`opening_search`]).
        let handle = window_event_listener(ev::pagehide, move |_| address.flush());
        // Back to this page from the browser's cache: its address is
        // written, nothing is handed on.
        let shown = window_event_listener(ev::pageshow, move |ev| {
            if ev.persisted() {
                storage::forget_in_session(HANDED_ON);
            }
        });
        on_cleanup(move || {
            handle.remove();
            shown.remove();
        });
        address
    }

    /// A new history entry for `qs`, or the one not yet written.
    fn push(self, qs: String) {
        self.next.set_value(Some(qs));
        self.schedule();
    }

    /// `qs` in place of the current entry (the one not yet written, if a
    /// click's is waiting).
    fn replace(self, qs: String) {
        if self.next.with_value(Option::is_some) {
            self.next.set_value(Some(qs));
        } else {
            self.current.set_value(Some(qs));
        }
        self.schedule();
    }

    /// Nothing to write: the address already shows the state (also after
    /// Back), and nothing is handed on.
    fn forget(self) {
        self.current.set_value(None);
        self.next.set_value(None);
        storage::forget_in_session(HANDED_ON);
    }

    /// Writes what waits once nothing has changed for [`ADDRESS_PAUSE`].
    fn schedule(self) {
        let change = self.changes.get_value().wrapping_add(1);
        self.changes.set_value(change);
        self.keep_for_next_page();
        set_timeout(
            move || {
                if self.changes.get_value() == change {
                    self.flush();
                }
            },
            ADDRESS_PAUSE,
        );
    }

    /// What waits to be written, kept in this tab's session for the page
    /// that opens next (a reload), with the address it replaces. Kept as it
    /// changes, not when the page is hidden: WebKit does not always hand a
    /// value stored while the page is being hidden to the next page in the
    /// tab.
    fn keep_for_next_page(self) {
        let waiting = self.next.get_value().or_else(|| self.current.get_value());
        if let Some(qs) = waiting {
            storage::keep_in_session(HANDED_ON, &(location_search(), qs));
        }
    }

    /// Writes what is waiting now, in order. What was handed on stays: a
    /// reload asked for just before may still open the address it replaces
    /// (the reload chose it before this page was gone), and the next page
    /// then takes it from the session; once the address is the one handed
    /// on, the next page ignores it.
    pub(super) fn flush(self) {
        if let Some(qs) = self.current.try_update_value(Option::take).flatten() {
            write_address(&qs, false);
        }
        if let Some(qs) = self.next.try_update_value(Option::take).flatten() {
            write_address(&qs, true);
        }
    }
}

/// The app's own address: origin and folder, without query or fragment.
pub fn page_address() -> String {
    let loc = window().location();
    format!(
        "{}{}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default()
    )
}

/// Puts `qs` (a query string, `?…` or empty) in the address bar, keeping
/// the path and the fragment, as a new history entry or in place of this one.
fn write_address(qs: &str, push: bool) {
    let loc = window().location();
    let hash = loc.hash().unwrap_or_default();
    let url = if qs.is_empty() {
        format!("{}{}", loc.pathname().unwrap_or_default(), hash)
    } else {
        format!("{qs}{hash}")
    };
    let history = window().history().expect("history");
    let _ = if push {
        history.push_state_with_url(&JsValue::NULL, "", Some(&url))
    } else {
        history.replace_state_with_url(&JsValue::NULL, "", Some(&url))
    };
}

/// The session key under which a hidden page hands on the address it had
/// not written yet.
const HANDED_ON: &str = "paper-explorer-unwritten-address";

/// The query string the page opens with: the address's, or, when this page
/// is a reload of one that had a newer address not yet written over this
/// very one, that one, written now. (Only a reload: a page opened anew at
/// the same address starts from it.)
pub fn opening_search() -> String {
    let here = location_search();
    match storage::take_from_session::<(String, String)>(HANDED_ON) {
        Some((from, qs)) if from == here && is_reload() => {
            write_address(&qs, false);
            qs
        }
        _ => here,
    }
}

/// Whether this page was opened by a reload (the navigation timing's
/// `type`).
fn is_reload() -> bool {
    window()
        .performance()
        .map(|p| p.get_entries_by_type("navigation"))
        .and_then(|entries| js_sys::Reflect::get(&entries.get(0), &JsValue::from_str("type")).ok())
        .and_then(|t| t.as_string())
        .is_some_and(|t| t == "reload")
}

pub fn location_search() -> String {
    window().location().search().unwrap_or_default()
}

/// The paper the fragment names (not a shared list's fragment).
pub fn location_fragment() -> Option<String> {
    let hash = window().location().hash().ok()?;
    let id = hash.strip_prefix('#')?;
    (!id.is_empty() && !shared_list::is_shared(id)).then(|| id.to_string())
}

/// The shared list the fragment carries, if it carries one.
pub fn location_shared(engine: &Engine) -> Option<Shared> {
    let hash = window().location().hash().ok()?;
    shared_list::open(&hash, engine)
}
