//! Keyboard shortcuts (the outside world: one listener on the window).
//! `/` goes to the search field, `Esc` clears it (or closes the list of
//! shortcuts), `j` / `k` move to the next / previous paper, `Enter` on a
//! paper's title opens it (it is a link), `s` stars the paper in focus, `?`
//! shows the list.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::Explorer;

/// Every shortcut's key, as the help lists them (what each does is in
/// `i18n::Strings::shortcut_actions`, in this order).
pub const KEYS: [&str; 7] = ["/", "Esc", "j", "k", "Enter", "s", "?"];

/// Listens for the shortcuts while the app is mounted. `help` is whether
/// the list of shortcuts is shown.
pub fn listen(x: Explorer, help: RwSignal<bool>) {
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() || ev.default_prevented() {
            return;
        }
        let target = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let in_search = target
            .as_ref()
            .is_some_and(|t| t.matches("input[type=search]").unwrap_or(false));
        // Letters typed into a field are text, not shortcuts.
        let typing = target.as_ref().is_some_and(|t| {
            t.closest("input, textarea, select, [contenteditable]")
                .ok()
                .flatten()
                .is_some()
        });
        let handled = match ev.key().as_str() {
            "Escape" if help.get_untracked() => {
                help.set(false);
                true
            }
            "Escape" if in_search => {
                x.clear_query();
                true
            }
            _ if typing => false,
            "/" => search_field().map(|f| f.focus()).is_some(),
            "j" => move_between_papers(true),
            "k" => move_between_papers(false),
            "s" => star_focused_paper(),
            "?" => {
                help.update(|h| *h = !*h);
                true
            }
            _ => false,
        };
        if handled {
            ev.prevent_default();
        }
    });
    on_cleanup(move || handle.remove());
}

fn search_field() -> Option<web_sys::HtmlElement> {
    document()
        .query_selector("input[type=search]")
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into().ok())
}

/// Focuses the next (or previous) paper's title link after the focused
/// one; from anywhere else, the first paper.
fn move_between_papers(forward: bool) -> bool {
    let Ok(links) = document().query_selector_all(".results .paper-title a") else {
        return false;
    };
    let n = links.length();
    if n == 0 {
        return false;
    }
    let active = document().active_element();
    let current = (0..n).find(|&i| {
        let link = links.item(i);
        active.as_ref().zip(link.as_ref()).is_some_and(|(a, l)| {
            let a: &web_sys::Node = a;
            a.is_same_node(Some(l))
        })
    });
    let next = match current {
        None => 0,
        Some(i) if forward => (i + 1).min(n - 1),
        Some(i) => i.saturating_sub(1),
    };
    links
        .item(next)
        .and_then(|l| l.dyn_into::<web_sys::HtmlElement>().ok())
        .map(|l| l.focus())
        .is_some()
}

/// Clicks the star of the paper that has the focus (its title after `j`).
fn star_focused_paper() -> bool {
    document()
        .active_element()
        .and_then(|a| a.closest("article.paper").ok().flatten())
        .and_then(|card| card.query_selector(".star-button").ok().flatten())
        .and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok())
        .map(|b| b.click())
        .is_some()
}
