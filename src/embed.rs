//! Embedding in a wiki: with `?embed=1`, or whenever the page is inside a
//! frame, the layout is compact and the page reports its height to the
//! parent (`postMessage({type: "paper-explorer:height", height,
//! contentHeight})`, the content's height capped at the screen's:
//! [`Height`]) so the wiki can size the iframe without scrollbars while it
//! fits, and a long list scrolls inside its frame. Framed, it also speaks the
//! host API of `explorer_core::view::embed`: it takes `set` messages from its
//! parent (and no one else), and tells the parent the view's `state` after
//! every change and which paper was `opened`. The reader's stars, notes and
//! map region never leave the frame.

use explorer_core::model::opened::OPEN_PARAM;
use explorer_core::view::embed::{Height, Opened, Set, State};
use leptos::ev;
use leptos::prelude::*;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::explorer::page_address;
use crate::url_state::ViewState;
use crate::Explorer;

/// The message type a parent page listens for.
pub const HEIGHT_MESSAGE: &str = explorer_core::view::embed::HEIGHT;

fn framed() -> bool {
    let win = window();
    match win.top() {
        Ok(Some(top)) => !js_sys::Object::is(&top, &win),
        // A cross-origin top that cannot even be named: framed.
        _ => true,
    }
}

/// Sets up embed mode if asked for or framed; returns whether it is on.
pub fn start(x: Explorer) -> bool {
    let asked = x.view.state.with_untracked(|s| s.embed);
    let framed = framed();
    if !(asked || framed) {
        return false;
    }
    if let Some(root) = document().document_element() {
        let _ = root.class_list().add_1("embedded");
    }
    if framed {
        report_height();
        take_messages(x);
        report_state(x);
        report_opened(x);
    }
    true
}

/// Sends a message to the parent window. Nothing in it is private (the
/// view's query and filters, a paper's id), so any embedding page may read
/// it: the frame cannot know its host's origin.
fn post(message: &impl Serialize) {
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    let Ok(msg) = message.serialize(&serializer) else {
        return;
    };
    if let Ok(Some(parent)) = window().parent() {
        let _ = parent.post_message(&msg, "*");
    }
}

fn warn(what: impl std::fmt::Display) {
    web_sys::console::warn_1(&format!("paper explorer: {what}").into());
}

/// `set` messages from the parent window, applied as the reader's action.
/// Messages from any other window are not looked at; a malformed or
/// unknown one is ignored with a warning on the console.
fn take_messages(x: Explorer) {
    let handle = window_event_listener(ev::message, move |ev| {
        let from_parent = match (ev.source(), window().parent()) {
            (Some(source), Ok(Some(parent))) => js_sys::Object::is(&source, &parent),
            _ => false,
        };
        if !from_parent {
            return;
        }
        let set = match serde_wasm_bindgen::from_value::<Set>(ev.data()) {
            Ok(set) => set,
            Err(e) => return warn(format!("ignored a message from the host page: {e}")),
        };
        match set.change(&x.engine.corpus) {
            Ok((change, ignored)) => {
                for refusal in ignored {
                    warn(refusal);
                }
                match &change.list {
                    Some(url) => open_list(url),
                    None => x.apply_host(change),
                }
            }
            Err(refusal) => warn(refusal),
        }
    });
    on_cleanup(move || handle.remove());
}

/// Opens the list at `url` in this frame, as its address would name it
/// (`?source=URL`): kept, it reopens; else it is fetched and compiled.
fn open_list(url: &str) {
    let location = window().location();
    let path = location.pathname().unwrap_or_default();
    let search = form_urlencoded::Serializer::new(String::new())
        .append_pair("embed", "1")
        .append_pair(OPEN_PARAM, url)
        .finish();
    if let Err(e) = location.assign(&format!("{path}?{search}")) {
        warn(format!("could not open the list {url:?}: {e:?}"));
    }
}

/// The view, after every change, once its results are known: not while
/// the words wait for the search index (a host would hear "0 shown" and
/// then the real count; a CI run in Firefox caught a test reading the
/// first), and not while the reading list is what is shown (its size is
/// the reader's).
fn report_state(x: Explorer) {
    Effect::new(move |_| {
        let (shown, waiting) = x
            .search
            .response
            .with(|r| (r.hits.len(), r.waiting_for_index));
        if waiting {
            return;
        }
        x.view.state.with(|s| {
            if s.starred || s.like_starred {
                return;
            }
            let public = ViewState {
                starred: false,
                like_starred: false,
                region: None,
                embed: false,
                ..s.clone()
            };
            let url = format!(
                "{}{}",
                page_address(),
                public.to_query_string(&x.engine.corpus)
            );
            let corpus = &x.engine.corpus;
            post(&State::new(
                corpus,
                &s.query,
                &s.selection,
                s.sort,
                shown,
                url,
            ));
        });
    });
}

/// Each paper opened (its fragment set, by a click, a link or the host).
fn report_opened(x: Explorer) {
    Effect::new(move |_| {
        let Some(id) = x.view.open.get() else { return };
        let Some(doc) = x.engine.doc_of(&id) else {
            return;
        };
        // A long list's title may be on its way: the host is told once it
        // is in.
        crate::load::when_titles_in([doc], move |_| {
            let paper = &x.engine.corpus.papers[doc as usize];
            let title = x.engine.title(doc).unwrap_or_default();
            post(&Opened::new(
                paper,
                title,
                format!("{}#{id}", page_address()),
            ));
        });
    });
}

/// Posts the frame's height (the content's, at most the screen's) when
/// it changed since the last post.
fn post_height() {
    thread_local!(static LAST: std::cell::Cell<i32> = const { std::cell::Cell::new(-1) });
    let Some(root) = document().document_element() else {
        return;
    };
    let screen = window()
        .screen()
        .and_then(|s| s.avail_height())
        .unwrap_or(800);
    let height = Height::new(root.scroll_height(), screen);
    if LAST.with(|last| last.replace(height.content_height)) != height.content_height {
        post(&height);
    }
}

fn report_height() {
    // Posted in the next frame, not inside the observer's callback: the
    // host resizing the frame then changes the layout after this round of
    // observations, not during it (a "ResizeObserver loop" error otherwise).
    let on_resize = Closure::<dyn FnMut()>::new(|| request_animation_frame(post_height));
    if let Ok(observer) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
        if let Some(body) = document().body() {
            observer.observe(&body);
        }
    }
    on_resize.forget();
    post_height();
}
