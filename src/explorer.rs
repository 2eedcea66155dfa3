//! The app's state: the view state (mirrored in the URL), the search response
//! derived from it, and the actions components call.

use explorer_core::view::shared_list::{self, Shared};
use explorer_core::view::topic_map::Region;
use explorer_core::{
    Engine, Extra, ExtraCounts, Extras, RelatedSet, Response, Selection, Sort, RELATED,
};
use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsValue;

use crate::url_state::ViewState;

#[derive(Clone, Copy)]
pub struct Explorer {
    pub engine: &'static Engine,
    pub state: ReadSignal<ViewState>,
    set_state: WriteSignal<ViewState>,
    /// Recomputed synchronously on every change: search, facet counts and
    /// highlight inputs for this corpus take well under a frame.
    pub response: Memo<Response>,
    /// The facet selection alone, so that checkboxes and chips do not
    /// re-render on every keystroke in the search field.
    selection: Memo<Selection>,
    /// The region drawn on the topic map, and the papers inside it.
    pub region: Memo<Option<Region>>,
    pub region_docs: Memo<Vec<u32>>,
    /// The paper named by the URL fragment, opened and scrolled to.
    pub open: ReadSignal<Option<String>>,
    set_open: WriteSignal<Option<String>>,
    /// Whether the next URL update adds a history entry (facet clicks, sort)
    /// or replaces the current one (typing).
    push_history: StoredValue<bool>,
    /// The address bar, written behind the state.
    address: Address,
    /// Notified when the query changes from outside the search field (back,
    /// forward, “clear”): the field then shows the new query. Typing never
    /// writes back into the field, so no keystroke can be overwritten.
    pub query_replaced: Trigger,
    /// Set once the search index, fetched after the first results, is open.
    index_ready: RwSignal<bool>,
    /// Set once the meaning file, fetched after the index, is open.
    meaning_ready: RwSignal<bool>,
    /// The view for which the related list's place was last seen on screen
    /// or near it. The list is made once its place is seen near for the
    /// view shown (the observer reports after the view's first paint), not
    /// in the keystroke, so that typing neither computes a list no one can
    /// see (at 20,000 papers most of a keystroke's search) nor waits for
    /// one below the matches it shows; a query that matches nothing makes
    /// it at once. Below a few matches, the list of the view before stays
    /// until then, less the papers now matched: it does not vanish for a
    /// frame.
    related_near: RwSignal<Option<ViewState>>,
    /// The reading list someone shared in the link that opened the page
    /// (`#shared=…`): while set, only its papers are shown.
    pub shared: ReadSignal<Option<Shared>>,
    set_shared: WriteSignal<Option<Shared>>,
    /// Papers close in meaning to the query that it does not match, under
    /// the same filters, with their counts (empty until the meaning file is
    /// open, and while their place is far off screen).
    pub related: Memo<RelatedSet>,
    /// The filters count the related papers: the query matches nothing
    /// and papers close in meaning are listed in place of the matches.
    counts_related: Memo<bool>,
}

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
struct Address {
    /// What the current entry is to hold, not yet written (typing).
    current: StoredValue<Option<String>>,
    /// A new entry to follow it, not yet written (a click).
    next: StoredValue<Option<String>>,
    /// Changes so far: a write waits for a pause in them.
    changes: StoredValue<u32>,
}

impl Address {
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

    /// Nothing to write: the address already shows the state.
    fn forget(self) {
        self.current.set_value(None);
        self.next.set_value(None);
    }

    /// Writes what waits once nothing has changed for [`ADDRESS_PAUSE`].
    fn schedule(self) {
        let change = self.changes.get_value().wrapping_add(1);
        self.changes.set_value(change);
        set_timeout(
            move || {
                if self.changes.get_value() == change {
                    self.flush();
                }
            },
            ADDRESS_PAUSE,
        );
    }

    /// Writes what is waiting now, in order (also when the page is hidden:
    /// a reload must not lose the last quarter second of typing).
    fn flush(self) {
        if let Some(qs) = self.current.try_update_value(Option::take).flatten() {
            write_address(&qs, false);
        }
        if let Some(qs) = self.next.try_update_value(Option::take).flatten() {
            write_address(&qs, true);
        }
    }
}

/// Up to this many matches, the related list's place is a screen or two
/// down: the list of the view before stays there (less the papers now
/// matched) until this view's is made, rather than vanishing for a frame.
const RELATED_WITH_MATCHES: usize = 10;

/// The reader's own filters of a view state: the starred papers and the
/// map region, each active as the state says, and a shared list's papers
/// while one is open.
fn extras<'a>(
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

fn location_search() -> String {
    window().location().search().unwrap_or_default()
}

/// The paper the fragment names (not a shared list's fragment).
fn location_fragment() -> Option<String> {
    let hash = window().location().hash().ok()?;
    let id = hash.strip_prefix('#')?;
    (!id.is_empty() && !shared_list::is_shared(id)).then(|| id.to_string())
}

/// The shared list the fragment carries, if it carries one.
fn location_shared(engine: &Engine) -> Option<Shared> {
    let hash = window().location().hash().ok()?;
    shared_list::open(&hash, engine)
}

impl Explorer {
    /// `starred`: the papers on the reader's reading list, a facet of their
    /// own.
    pub fn new(engine: &'static Engine, starred: Memo<Vec<u32>>) -> Explorer {
        let corpus = &engine.corpus;
        let (state, set_state) = signal(ViewState::from_query_string(&location_search(), corpus));
        let region = Memo::new(move |_| state.with(|s| s.region));
        let region_docs = Memo::new(move |_| {
            region
                .get()
                .map_or_else(Vec::new, |r| engine.region_docs(r))
        });
        // The index arrives after the first results (`App` fetches it).
        let index_ready = RwSignal::new(engine.has_index());
        let (shared, set_shared) = signal(location_shared(engine));
        let response = Memo::new(move |_| {
            index_ready.track();
            shared.with(|shared| {
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
            })
        });
        let meaning_ready = RwSignal::new(engine.has_meaning());
        let related_near = RwSignal::new(None::<ViewState>);
        // Whether the related list last made was the reading list's.
        let related_was_like = StoredValue::new(false);
        // The related list is made when its place is near the screen for
        // this view (the observer's report, which comes after the view's
        // first paint), not in the keystroke: on the seeds that halved a
        // keystroke's median time to its layout (`BENCH_QUICK=1`, three
        // interleaved runs). Only a query that matches nothing makes it at
        // once: it stands in the matches' place, and the filters count it.
        let related = Memo::new(move |before: Option<&RelatedSet>| {
            if !meaning_ready.get() {
                return RelatedSet::default();
            }
            let like = state.with(|s| s.like_starred);
            let was_like = related_was_like.get_value();
            related_was_like.set_value(like);
            if like {
                let papers = starred.with(|starred| engine.like_these(starred, RELATED));
                return RelatedSet {
                    total: papers.len(),
                    papers,
                    ..RelatedSet::default()
                };
            }
            let (none, few) = response.with(|r| {
                let n = r.hits.len();
                (n == 0, n <= RELATED_WITH_MATCHES)
            });
            let seen = related_near.with(|n| state.with(|s| n.as_ref() == Some(s)));
            if !(none || seen) {
                return match before {
                    Some(before) if few && !was_like => {
                        before.without(&response.with(Response::docs))
                    }
                    _ => RelatedSet::default(),
                };
            }
            let shown = response.with(Response::docs);
            // Counted only where the filters show the counts: no match.
            let counted = shown.is_empty();
            shared.with(|shared| {
                starred.with(|starred| {
                    region_docs.with(|inside| {
                        state.with(|s| {
                            let extras = extras(s, starred, inside, shared.as_ref());
                            engine
                                .related_set(
                                    &s.query,
                                    &s.selection,
                                    extras,
                                    &shown,
                                    RELATED,
                                    counted,
                                )
                                .unwrap_or_default()
                        })
                    })
                })
            })
        });
        let counts_related = Memo::new(move |_| {
            response.with(|r| r.hits.is_empty() && !r.waiting_for_index)
                && related.with(|set| !set.papers.is_empty() && !set.counts.is_empty())
        });
        let selection = Memo::new(move |_| state.with(|s| s.selection.clone()));
        let (open, set_open) = signal(location_fragment());
        let push_history = StoredValue::new(false);
        let query_replaced = Trigger::new();

        // The URL mirrors the state (the outside world, hence an Effect).
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
        // now, so the reloaded page opens where the reader was.
        let handle = window_event_listener(ev::pagehide, move |_| address.flush());
        on_cleanup(move || handle.remove());
        // Scroll to the paper named in the fragment once it is rendered
        // (cards appear over a few frames).
        fn scroll_to(id: String, tries: u32) {
            match document().get_element_by_id(&id) {
                Some(el) => el.scroll_into_view(),
                None if tries > 0 => request_animation_frame(move || scroll_to(id, tries - 1)),
                None => {}
            }
        }
        Effect::new(move |_| {
            if let Some(id) = open.get() {
                request_animation_frame(move || scroll_to(id, 30));
            }
        });

        let x = Explorer {
            engine,
            state,
            set_state,
            response,
            selection,
            region,
            region_docs,
            open,
            set_open,
            push_history,
            address,
            query_replaced,
            index_ready,
            meaning_ready,
            related_near,
            shared,
            set_shared,
            related,
            counts_related,
        };
        let handle = window_event_listener(ev::hashchange, move |_| x.follow_fragment());
        on_cleanup(move || handle.remove());
        x
    }

    /// Opens the paper the fragment names. When the search or filters hide
    /// it (a link from “Similar papers”), they are cleared, in place of the
    /// current history entry, so that it can be shown.
    fn follow_fragment(&self) {
        if let Some(shared) = location_shared(self.engine) {
            self.set_shared.set(Some(shared));
            return;
        }
        let id = location_fragment();
        let doc = id.as_ref().and_then(|id| self.engine.doc_of(id));
        if let Some(doc) = doc {
            let hidden = self
                .response
                .with_untracked(|r| !r.hits.iter().any(|h| h.doc == doc));
            if hidden {
                self.reset();
            }
        }
        self.set_open.set(id);
    }

    /// The engine's index has been opened: a query waiting for it runs.
    pub fn index_opened(&self) {
        self.index_ready.set(true);
    }

    /// Whether the meaning file is open (reactive).
    pub fn has_meaning(&self) -> bool {
        self.meaning_ready.get()
    }

    /// The meaning file is open: related papers can be listed.
    pub fn meaning_opened(&self) {
        self.meaning_ready.set(true);
    }

    /// Applies a host page's `set` message as the reader's own action: a
    /// history entry, the search field showing the new query, the paper
    /// opened through the fragment as a link would.
    pub fn apply_host(&self, change: explorer_core::view::embed::Change) {
        if change.query.is_some() {
            self.query_replaced.notify();
        }
        self.push_history.set_value(true);
        self.set_state.update(|s| {
            if let Some(q) = change.query {
                s.query = q;
            }
            if let Some(selection) = change.selection {
                s.selection = selection;
            }
            if let Some(sort) = change.sort {
                s.sort = sort;
            }
        });
        if let Some(id) = change.open {
            // The view's entry first, then the paper's.
            self.address.flush();
            let _ = window().location().set_hash(&id);
        }
    }

    /// Leaves a shared list's view: every paper again, and the list's
    /// fragment gone from the address (in place of this history entry).
    pub fn close_shared(&self) {
        self.set_shared.set(None);
        let loc = window().location();
        let url = format!(
            "{}{}",
            loc.pathname().unwrap_or_default(),
            loc.search().unwrap_or_default()
        );
        if let Ok(history) = window().history() {
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
        }
    }

    /// A link that opens the reader's list for whoever follows it.
    pub fn share_list_url(&self, list: &explorer_core::view::ReadingList, notes: bool) -> String {
        format!(
            "{}#{}",
            page_address(),
            shared_list::to_fragment(list, notes)
        )
    }

    /// The related list's place came near the screen, or left it.
    pub fn related_place_near(&self, near: bool) {
        let view = near.then(|| self.state.get_untracked());
        if self.related_near.with_untracked(|n| *n != view) {
            self.related_near.set(view);
        }
    }

    /// An input event that leaves the text as it was (a composition
    /// step, a repeated event) changes nothing and so searches nothing.
    pub fn set_query(&self, q: String) {
        self.set_state.maybe_update(|s| {
            let changed = s.query != q;
            if changed {
                s.query = q;
            }
            changed
        });
    }

    /// Empties the search field (Esc), keeping the facet selection.
    pub fn clear_query(&self) {
        self.query_replaced.notify();
        self.set_state.update(|s| s.query.clear());
    }

    pub fn toggle(&self, facet: usize, value: u32) {
        self.push_history.set_value(true);
        self.set_state.update(|s| s.toggle(facet, value));
    }

    /// Shows only the starred papers, or every paper again.
    pub fn toggle_starred(&self) {
        self.push_history.set_value(true);
        self.set_state.update(|s| s.starred = !s.starred);
    }

    /// Lists the papers most like the starred ones below the results, or
    /// stops.
    pub fn toggle_like_starred(&self) {
        self.push_history.set_value(true);
        self.set_state.update(|s| s.like_starred = !s.like_starred);
    }

    /// Shows only the papers in a region of the map (or all, with `None`).
    pub fn set_region(&self, region: Option<Region>) {
        self.push_history.set_value(true);
        self.set_state.update(|s| s.region = region);
    }

    /// Whether the filters count the related papers, not the matches (the
    /// query matches nothing; papers close in meaning are listed instead).
    pub fn counts_related(&self) -> bool {
        self.counts_related.get()
    }

    /// How many of the papers the filters count have a facet's value (its
    /// own facet's selection lifted): the matches, or the related papers.
    pub fn count(&self, facet: usize, value: u32) -> u32 {
        let of = |counts: &[Vec<u32>]| {
            counts
                .get(facet)
                .and_then(|c| c.get(value as usize))
                .copied()
                .unwrap_or(0)
        };
        if self.counts_related() {
            self.related.with(|set| of(&set.counts))
        } else {
            self.response.with(|r| of(&r.counts))
        }
    }

    /// How many papers the filters count.
    pub fn counted(&self) -> usize {
        if self.counts_related() {
            self.related.with(|set| set.total)
        } else {
            self.response.with(|r| r.hits.len())
        }
    }

    /// The reader's own filters' counts among the papers the filters count.
    fn extra_counts(&self) -> ExtraCounts {
        if self.counts_related() {
            self.related.with(|set| set.extra_counts)
        } else {
            self.response.with(|r| r.extra_counts)
        }
    }

    /// How many starred papers are among the results of the query and the
    /// other filters.
    pub fn starred_count(&self) -> u32 {
        self.extra_counts().starred
    }

    pub fn set_sort(&self, sort: Sort) {
        self.push_history.set_value(true);
        self.set_state.update(|s| s.sort = sort);
    }

    pub fn clear(&self) {
        self.push_history.set_value(true);
        self.reset();
    }

    /// Empties the query and the facet selection, keeping the sort and the
    /// layout.
    fn reset(&self) {
        self.query_replaced.notify();
        let empty = ViewState::empty(&self.engine.corpus);
        self.set_state.update(|s| {
            *s = ViewState {
                sort: s.sort,
                embed: s.embed,
                ..empty
            }
        });
    }

    /// The link to the current view, as it would be pasted elsewhere (never
    /// the embed layout): origin, folder, query string and fragment.
    pub fn share_url(&self, embed: bool) -> String {
        let qs = self
            .state
            .with(|s| ViewState { embed, ..s.clone() }.to_query_string(&self.engine.corpus));
        let hash = window().location().hash().unwrap_or_default();
        format!("{}{qs}{hash}", page_address())
    }

    /// The facet selection (reactive).
    pub fn selection_now(&self) -> Selection {
        self.selection.get()
    }

    /// Runs `f` on the facet selection, outside the reactive graph.
    pub fn selection_untracked<T>(&self, f: impl FnOnce(&Selection) -> T) -> T {
        self.selection.with_untracked(f)
    }

    /// The values of `facet` selected (tracked: the selection).
    pub fn selected(&self, facet: usize) -> Vec<u32> {
        self.selection
            .with(|s| s.get(facet).cloned().unwrap_or_default())
    }

    pub fn is_selected(&self, facet: usize, value: u32) -> bool {
        self.selection
            .with(|s| s.get(facet).is_some_and(|v| v.contains(&value)))
    }
}
