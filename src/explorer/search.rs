//! The search: the engine's response to the view, recomputed on every
//! change of it.

use explorer_core::view::shared_list::Shared;
use explorer_core::{Engine, Extra, Extras, Response};
use leptos::prelude::*;

use crate::load::{Apart, Priority};
use crate::url_state::ViewState;

use super::View;

/// The engine's answer to the view, and whether the index it needs is in.
#[derive(Clone, Copy)]
pub struct Search {
    /// Recomputed synchronously on every change: search, facet counts and
    /// highlight inputs for this corpus take well under a frame. An answer
    /// that needs packs of postings not in yet names them; they are
    /// fetched, and the view searched again.
    pub response: Memo<Response>,
    /// Set once the search index, fetched after the first results, is open.
    pub(super) index_ready: RwSignal<bool>,
    /// Set once the meaning file, fetched when the reader first types, is
    /// open: the best matches are then ordered by meaning too, and papers
    /// related by meaning can be listed.
    pub(super) meaning_ready: RwSignal<bool>,
    /// Counts the lists of a long list's paper vectors come in (fetched
    /// when a ranking by meaning first reads them: [`Search::fetch_vectors`]);
    /// what ranks by meaning ranks again.
    pub(super) vectors_in: RwSignal<u32>,
    /// Set when a pack of postings the query reads could not be fetched
    /// (offline, never fetched before); cleared when packs come in.
    pub packs_failed: RwSignal<bool>,
    /// Set once every paper's tags are in (a long list's come in a file
    /// of their own, fetched when a count or a filter first needs them:
    /// [`Search::want_tags`]).
    pub tags_ready: RwSignal<bool>,
    /// Set when the tags' file could not be fetched; cleared on the next
    /// try.
    pub tags_failed: RwSignal<bool>,
    /// How many times an answer's counts have asked for the tags: the
    /// ask waits for the view to rest ([`Search::want_tags_at_rest`]).
    tag_asks: StoredValue<u32>,
    /// Set when the papers' title order (a long list's comes in a file of
    /// its own, fetched when the results are first sorted by title) could
    /// not be fetched; cleared on the next try.
    pub title_order_failed: RwSignal<bool>,
}

impl Search {
    /// `starred`: the papers on the reader's reading list.
    pub fn new(engine: &'static Engine, view: View, starred: Memo<Vec<u32>>) -> Search {
        let View {
            state,
            region_docs,
            shared,
            ..
        } = view;
        // The index arrives after the first results (`App` fetches it).
        let index_ready = RwSignal::new(engine.has_index());
        let meaning_ready = RwSignal::new(engine.has_meaning());
        let vectors_in = RwSignal::new(0u32);
        let packs_in = RwSignal::new(0u32);
        let packs_failed = RwSignal::new(false);
        let tags_ready = RwSignal::new(engine.has_tags());
        let tags_failed = RwSignal::new(false);
        // Set once the title order is in.
        let title_order_ready = RwSignal::new(engine.has_title_order());
        let title_order_failed = RwSignal::new(false);
        let response = Memo::new(move |shown: Option<&Response>| {
            index_ready.track();
            tags_ready.track();
            title_order_ready.track();
            meaning_ready.track();
            vectors_in.track();
            packs_in.track();
            let answer = shared.with(|shared| {
                starred.with(|starred| {
                    region_docs.with(|inside| {
                        state.with(|s| {
                            engine.search_with(
                                &s.query,
                                &s.selection,
                                extras(s, starred, inside, shared.as_ref()),
                                s.sort,
                            )
                        })
                    })
                })
            });
            shown_while_waiting(answer, shown)
        });
        fetch_lacking_packs(engine, response, index_ready, packs_in, packs_failed);
        let search = Search {
            response,
            index_ready,
            meaning_ready,
            vectors_in,
            packs_failed,
            tags_ready,
            tags_failed,
            tag_asks: StoredValue::new(0),
            title_order_failed,
        };
        // The title order, once a sort by title needs it.
        Effect::new(move |_| {
            if response.with(|r| r.waiting_for_titles) {
                let settle = settled(title_order_ready, title_order_failed);
                crate::load::fetch_apart_once(Apart::TitleOrder, Priority::Now, settle);
            }
        });
        // The tags, once a filter needs them (it waits), or an answer's
        // counts do: then once the reader pauses ([`TAGS_PAUSE`]) and the
        // answer's cards have their titles and abstracts, which a long
        // list's 1.7 MB of tags at 100,000 papers would otherwise share the
        // link with.
        Effect::new(move |_| {
            let (waits, counts) = response.with(|r| (r.waiting_for_tags, r.counts_pending));
            if waits {
                search.want_tags();
            } else if counts {
                search.want_tags_at_rest();
            }
        });
        search
    }

    /// Fetches the lists of the papers' vectors that the rankings by
    /// meaning just made wanted (the outside world: called from an
    /// Effect after them); once in, they rank again.
    pub fn fetch_vectors(&self) {
        let vectors_in = self.vectors_in;
        crate::load::fetch_wanted_vectors(move |result| match result {
            Ok(()) => vectors_in.update(|n| *n += 1),
            Err(e) => web_sys::console::warn_1(&e.to_string().into()),
        });
    }

    /// Fetches the papers' tags if they are not in and not on their way;
    /// [`Search::tags_ready`] says when they are (and the view is searched
    /// again). A failed fetch (offline) is tried again when next wanted.
    pub fn want_tags(&self) {
        let (ready, failed) = (self.tags_ready, self.tags_failed);
        if ready.get_untracked() {
            return;
        }
        crate::load::fetch_apart_once(Apart::Tags, Priority::Now, settled(ready, failed));
    }

    /// What a fetch of the tags tells their signals
    /// ([`Search::tags_ready`], [`Search::tags_failed`]).
    pub fn tags_settle(&self) -> impl FnOnce(Result<(), crate::load::LoadError>) + 'static {
        settled(self.tags_ready, self.tags_failed)
    }

    /// [`Search::want_tags`] once the cards this paint writes have their
    /// titles and abstracts: what does not wait for the tags (pending
    /// counts, the meaning file after them) lets the answer's cards come
    /// first on the link (the tags are 1.7 MB brotli at 100,000 papers).
    pub fn want_tags_after_cards(self) {
        crate::idle::after_paint(move || crate::load::when_cards_settled(move || self.want_tags()));
    }

    /// [`Search::want_tags_after_cards`] once no answer has asked for
    /// them for [`TAGS_PAUSE`]: fetched on a reader's first keystroke,
    /// a long list's tags took the link from every keystroke after it
    /// (at 100,000 papers the second letter waited 1.6 s for them).
    pub fn want_tags_at_rest(self) {
        if self.tags_ready.get_untracked() {
            return;
        }
        let ask = self.tag_asks.get_value().wrapping_add(1);
        self.tag_asks.set_value(ask);
        let asked_last = move || self.tag_asks.get_value() == ask;
        set_timeout(
            move || {
                if asked_last() {
                    self.want_tags_after_cards();
                }
            },
            TAGS_PAUSE,
        );
    }

    /// Whether the tags are in, or could not come (reactive): what waits
    /// for them (the meaning file, on the link after them) goes ahead.
    pub fn tags_settled(&self) -> bool {
        self.tags_ready.get() || self.tags_failed.get()
    }
}

/// How long the view must rest after an answer whose counts wait for a
/// long list's tags before they are fetched ([`Search::want_tags_at_rest`]):
/// longer than a reader's pause between letters, shorter than the
/// meaning file's wait, which comes after the tags.
const TAGS_PAUSE: std::time::Duration = std::time::Duration::from_millis(500);

/// While the packs of postings a new query reads are on their way, the
/// results shown stay, marked waiting (the status bar says the index is
/// loading), rather than blinking empty. So too while the papers' tags a
/// filter needs are, or the title order a sort by title needs.
fn shown_while_waiting(answer: Response, shown: Option<&Response>) -> Response {
    let waits =
        !answer.missing_packs.is_empty() || answer.waiting_for_tags || answer.waiting_for_titles;
    match shown {
        Some(shown) if waits && !shown.hits.is_empty() => Response {
            waiting_for_index: true,
            missing_packs: answer.missing_packs,
            waiting_for_tags: answer.waiting_for_tags,
            waiting_for_titles: answer.waiting_for_titles,
            ..shown.clone()
        },
        _ => answer,
    }
}

/// The packs an answer lacks are fetched (the outside world), or all of a
/// small list's once its index is in; once in (`packs_in` counts them),
/// the view is searched again; a failure sets `packs_failed`.
fn fetch_lacking_packs(
    engine: &'static Engine,
    response: Memo<Response>,
    index_ready: RwSignal<bool>,
    packs_in: RwSignal<u32>,
    packs_failed: RwSignal<bool>,
) {
    Effect::new(move |_| {
        let all: Vec<u32> = if index_ready.get() && engine.packs_are_few() {
            (0..engine.pack_count() as u32).collect()
        } else {
            Vec::new()
        };
        response.with(|r| {
            let wanted = if all.is_empty() {
                &r.missing_packs
            } else {
                &all
            };
            crate::load::fetch_packs(wanted, Priority::Now, move |result| match result {
                Ok(()) => {
                    packs_failed.set(false);
                    packs_in.update(|n| *n += 1);
                }
                Err(e) => {
                    web_sys::console::warn_1(&e.to_string().into());
                    packs_failed.set(true);
                }
            });
        })
    });
}

/// What a fetch of a file apart tells its signals: in (`ready`), or failed
/// (`failed`, cleared by the next that comes).
fn settled(
    ready: RwSignal<bool>,
    failed: RwSignal<bool>,
) -> impl FnOnce(Result<(), crate::load::LoadError>) + 'static {
    move |result| match result {
        Ok(()) => {
            failed.set(false);
            ready.set(true);
        }
        Err(e) => {
            web_sys::console::warn_1(&e.to_string().into());
            failed.set(true);
        }
    }
}

/// The reader's own filters of a view state: the starred papers and the
/// map region, each active as the state says, and a shared list's papers
/// while one is open.
pub fn extras<'a>(
    s: &ViewState,
    starred: &'a [u32],
    inside: &'a [u32],
    shared: Option<&'a Shared>,
) -> Extras<'a> {
    Extras {
        shared: Extra {
            docs: shared.map_or(&[], |sh| &sh.docs),
            active: shared.is_some(),
        },
        starred: Extra {
            docs: starred,
            active: s.starred,
        },
        region: Extra {
            docs: inside,
            active: s.region.is_some(),
        },
    }
}
