//! The host API: what an embedded explorer and the page around it tell each
//! other, as types. The app turns them into JavaScript objects and back with
//! serde-wasm-bindgen (no JSON text in between); a host sends and reads them
//! with `postMessage` and `message` events. docs/guide.md, "Host API
//! (protocol version 2)", is the protocol's description.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{Corpus, FacetKind, Selection, Sort};

/// The `type` of the height message, which a host page listens for.
pub const HEIGHT: &str = "paper-explorer:height";

/// “Make my frame this tall”: sent to the parent whenever it changes, so
/// the host can size the frame without scroll bars while the content fits
/// on a screen. A longer content (a long list's results) is capped at the
/// screen's height: beyond it the explorer scrolls inside its frame, as on
/// its own page, and draws the cards its own scrolling shows (in a frame
/// as tall as its content it would draw the cards at the frame's top,
/// wherever the host page is scrolled).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Height {
    #[serde(rename = "type")]
    /// The message's type tag ([`HEIGHT`]).
    pub kind: &'static str,
    /// CSS pixels: the content's height, at most the cap.
    pub height: i32,
    /// CSS pixels: the content's whole height, for a host that sizes the
    /// frame otherwise.
    #[serde(rename = "contentHeight")]
    pub content_height: i32,
}

impl Height {
    /// The message for a document `content` CSS pixels tall, on a screen
    /// `screen` CSS pixels tall (the frame's cap: never under 320).
    pub fn new(content: i32, screen: i32) -> Height {
        Height {
            kind: HEIGHT,
            height: content.min(screen.max(320)),
            content_height: content,
        }
    }
}

/// The host API's version: every message carries it, and a `set` of a
/// version this explorer does not know is refused (never half
/// understood). Version 2 added `list` to `set`.
pub const VERSION: u32 = 2;

/// The oldest version whose `set` is still read: a version 1 host's
/// messages mean what they meant.
pub const OLDEST_VERSION: u32 = 1;

/// The `type` of the message a host sends to change the view.
pub const SET: &str = "paper-explorer:set";
/// The `type` of the message the explorer sends after every change.
pub const STATE: &str = "paper-explorer:state";
/// The `type` of the message the explorer sends when a paper is opened.
pub const OPENED: &str = "paper-explorer:opened";

/// Host → explorer: `{type: "paper-explorer:set", version: 2, list?,
/// query?, facets?, sort?, open?}`. Each field given replaces that part of
/// the view, as if the reader had done it; `facets` replaces the whole
/// facet selection (`{}` clears it); `list` (version 2) opens another
/// list, as `?source=URL` does, and the rest is then ignored. Fields this
/// version does not know are ignored, so a newer host can talk to an
/// older explorer.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
pub struct Set {
    /// The message's type tag ([`SET`]).
    #[serde(rename = "type")]
    pub kind: String,
    /// The protocol version the host speaks ([`VERSION`]).
    pub version: u32,
    /// The search, as typed in the search field.
    #[serde(default)]
    pub query: Option<String>,
    /// Facet key (`topic`, `author`, …) → the values to select.
    #[serde(default)]
    pub facets: Option<BTreeMap<String, Vec<String>>>,
    /// `relevance`, `list` or `title`.
    #[serde(default)]
    pub sort: Option<String>,
    /// The id of a paper to open (and scroll to).
    #[serde(default)]
    pub open: Option<String>,
    /// A list to open instead of the one in view: an absolute http or
    /// https URL of a file in any format the explorer reads.
    #[serde(default)]
    pub list: Option<String>,
}

/// Why a message from the host was not applied, or part of it ignored: the
/// explorer says so once on the console and goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Not an object with a `type` this explorer knows.
    Unknown(String),
    /// A `set` of another protocol version.
    Version(u32),
    /// A `set` whose fields have the wrong shape.
    Malformed(String),
    /// A facet key no facet of this corpus has (the rest is applied).
    Facet(String),
    /// A value the facet does not have (the rest is applied).
    Value(String, String),
    /// A sort order that does not exist (the rest is applied).
    Sort(String),
    /// A paper id this corpus does not have (the rest is applied).
    Paper(String),
    /// A `list` that is not an absolute http or https URL (nothing is
    /// applied).
    List(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Unknown(what) => write!(f, "ignored a message that is not {SET}: {what}"),
            Refusal::Version(v) => {
                write!(
                    f,
                    "ignored a {SET} of version {v} (this explorer speaks {OLDEST_VERSION} to {VERSION})"
                )
            }
            Refusal::Malformed(why) => write!(f, "ignored a malformed {SET}: {why}"),
            Refusal::Facet(key) => write!(f, "{SET}: no facet {key:?} (ignored)"),
            Refusal::Value(key, value) => {
                write!(f, "{SET}: facet {key:?} has no value {value:?} (ignored)")
            }
            Refusal::Sort(s) => write!(f, "{SET}: no sort order {s:?} (ignored)"),
            Refusal::Paper(id) => write!(f, "{SET}: no paper {id:?} (ignored)"),
            Refusal::List(url) => write!(
                f,
                "ignored a {SET} whose list {url:?} is not an absolute http or https URL"
            ),
        }
    }
}

/// What a [`Set`] changes, in the corpus's own terms.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Change {
    /// The new query, if the host gave one.
    pub query: Option<String>,
    /// The new facet selection (one list of value indexes per facet).
    pub selection: Option<Selection>,
    /// The new order.
    pub sort: Option<Sort>,
    /// The paper to open.
    pub open: Option<String>,
    /// The list to open in place of this one (the rest is then empty).
    pub list: Option<String>,
}

impl Set {
    /// Checks the message against the protocol and the corpus: the change
    /// to make, and what was ignored. A wrong `type` or version changes
    /// nothing.
    pub fn change(&self, corpus: &Corpus) -> Result<(Change, Vec<Refusal>), Refusal> {
        if self.kind != SET {
            return Err(Refusal::Unknown(format!("type {:?}", self.kind)));
        }
        if !(OLDEST_VERSION..=VERSION).contains(&self.version) {
            return Err(Refusal::Version(self.version));
        }
        if let Some(url) = &self.list {
            if !crate::model::is_web_url(url) {
                return Err(Refusal::List(url.clone()));
            }
            // Another list: its facets and papers are not this one's.
            let change = Change {
                list: Some(url.clone()),
                ..Change::default()
            };
            return Ok((change, Vec::new()));
        }
        let mut ignored = Vec::new();
        let selection = self.facets.as_ref().map(|facets| {
            let mut selection: Selection = vec![Vec::new(); corpus.facets.len()];
            for (key, values) in facets {
                let Some(f) = FacetKind::from_key(key).and_then(|k| corpus.facet_index(k)) else {
                    ignored.push(Refusal::Facet(key.clone()));
                    continue;
                };
                for value in values {
                    match corpus.facets[f].values.iter().position(|v| v == value) {
                        Some(v) if !selection[f].contains(&(v as u32)) => {
                            selection[f].push(v as u32)
                        }
                        Some(_) => {}
                        None => ignored.push(Refusal::Value(key.clone(), value.clone())),
                    }
                }
            }
            selection
        });
        let sort = self.sort.as_ref().and_then(|s| {
            let sort = Sort::from_key(s);
            if sort.is_none() {
                ignored.push(Refusal::Sort(s.clone()));
            }
            sort
        });
        let open = self.open.as_ref().and_then(|id| {
            let known = corpus.papers.iter().any(|p| &p.id == id);
            if !known {
                ignored.push(Refusal::Paper(id.clone()));
            }
            known.then(|| id.clone())
        });
        let change = Change {
            query: self.query.clone(),
            selection,
            sort,
            open,
            list: None,
        };
        Ok((change, ignored))
    }
}

/// Explorer → host, after every change of the view: `{type:
/// "paper-explorer:state", version: 2, query, facets, sort, shown, total,
/// url}`. The reader's own filters (stars, the map region) are not in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct State {
    /// [`STATE`].
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// [`VERSION`].
    pub version: u32,
    /// The search field's text.
    pub query: String,
    /// Facet key → the selected values' labels, facets with a selection only.
    pub facets: BTreeMap<String, Vec<String>>,
    /// The order's key.
    pub sort: &'static str,
    /// How many papers the view shows.
    pub shown: usize,
    /// How many papers the list has.
    pub total: usize,
    /// A link to this view.
    pub url: String,
}

impl State {
    /// The message for a view of `corpus`.
    pub fn new(
        corpus: &Corpus,
        query: &str,
        selection: &Selection,
        sort: Sort,
        shown: usize,
        url: String,
    ) -> State {
        let mut facets: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (kind, label) in corpus.selected(selection) {
            facets
                .entry(kind.key().to_string())
                .or_default()
                .push(label.to_string());
        }
        State {
            kind: STATE,
            version: VERSION,
            query: query.to_string(),
            facets,
            sort: sort.key(),
            shown,
            total: corpus.papers.len(),
            url,
        }
    }
}

/// Explorer → host, when the reader (or the host) opens a paper:
/// `{type: "paper-explorer:opened", version: 2, id, title, url}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Opened {
    /// [`OPENED`].
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// [`VERSION`].
    pub version: u32,
    /// The paper's id (its URL fragment).
    pub id: String,
    /// Its title.
    pub title: String,
    /// A link to it.
    pub url: String,
}

impl Opened {
    /// The message for opening `paper`, titled `title`, whose link is `url`.
    pub fn new(paper: &crate::model::Paper, title: &str, url: String) -> Opened {
        Opened {
            kind: OPENED,
            version: VERSION,
            id: paper.id.clone(),
            title: title.to_string(),
            url,
        }
    }
}
