//! The app's state, split by concern: the view the reader chose (mirrored
//! in the address), the search response derived from it, the papers
//! related by meaning, and the address bar itself; and the actions
//! components call.

mod address;
mod related;
mod search;

use explorer_core::view::shared_list::{self, Shared};
use explorer_core::view::topic_map::Region;
use explorer_core::{Engine, ExtraCounts, Selection, Sort};
use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsValue;

use crate::url_state::ViewState;
pub use address::{location_fragment, page_address};
use address::{location_shared, opening_search, Address};
pub use related::Related;
pub use search::Search;

/// The app's state and actions, shared by every component (a context).
#[derive(Clone, Copy)]
pub struct Explorer {
    pub engine: &'static Engine,
    /// What the reader chose to see.
    pub view: View,
    /// The matches for it.
    pub search: Search,
    /// The papers related by meaning.
    pub related: Related,
    /// The address bar, written behind the view.
    address: Address,
}

/// What the reader chose to see: the view state the address mirrors, and
/// what the page opened with (a paper or a shared list in the fragment).
#[derive(Clone, Copy)]
pub struct View {
    pub state: ReadSignal<ViewState>,
    set_state: WriteSignal<ViewState>,
    /// The facet selection alone, so that checkboxes and chips do not
    /// re-render on every keystroke in the search field.
    selection: Memo<Selection>,
    /// The region drawn on the topic map, and the papers inside it.
    pub region: Memo<Option<Region>>,
    pub region_docs: Memo<Vec<u32>>,
    /// Whether the papers' places are in (a long list's come in a file of
    /// their own, fetched for the map: [`View::fetch_map`]).
    pub map_in: RwSignal<bool>,
    /// The map's file is on its way.
    map_asked: StoredValue<bool>,
    /// The paper named by the URL fragment, opened and scrolled to.
    pub open: ReadSignal<Option<String>>,
    set_open: WriteSignal<Option<String>>,
    /// The reading list someone shared in the link that opened the page
    /// (`#shared=…`): while set, only its papers are shown.
    pub shared: ReadSignal<Option<Shared>>,
    set_shared: WriteSignal<Option<Shared>>,
    /// Whether the next URL update adds a history entry (facet clicks, sort)
    /// or replaces the current one (typing).
    push_history: StoredValue<bool>,
    /// Notified when the query changes from outside the search field (back,
    /// forward, “clear”): the field then shows the new query. Typing never
    /// writes back into the field, so no keystroke can be overwritten.
    pub query_replaced: Trigger,
}

impl View {
    /// The view the address names.
    fn new(engine: &'static Engine) -> View {
        let (state, set_state) = signal(ViewState::from_query_string(
            &opening_search(),
            &engine.corpus,
        ));
        let region = Memo::new(move |_| state.with(|s| s.region));
        let map_in = RwSignal::new(engine.has_map());
        let region_docs = Memo::new(move |_| {
            map_in.track();
            region
                .get()
                .map_or_else(Vec::new, |r| engine.region_docs(r))
        });
        let (shared, set_shared) = signal(location_shared(engine));
        let (open, set_open) = signal(location_fragment());
        View {
            state,
            set_state,
            selection: Memo::new(move |_| state.with(|s| s.selection.clone())),
            region,
            region_docs,
            map_in,
            map_asked: StoredValue::new(false),
            open,
            set_open,
            shared,
            set_shared,
            push_history: StoredValue::new(false),
            query_replaced: Trigger::new(),
        }
    }

    /// Fetches the papers' places if they are not in and not on their way;
    /// [`View::map_in`] says when they are. A failed fetch (offline) is
    /// tried again the next time the map is opened.
    pub fn fetch_map(&self) {
        let (map_in, asked) = (self.map_in, self.map_asked);
        if map_in.get_untracked() || asked.get_value() {
            return;
        }
        asked.set_value(true);
        leptos::task::spawn_local(async move {
            match crate::load::fetch_map().await {
                Ok(()) => map_in.set(true),
                Err(e) => leptos::logging::warn!("{e}"),
            }
            asked.set_value(false);
        });
    }
}

impl Explorer {
    /// `starred`: the papers on the reader's reading list, a facet of their
    /// own.
    pub fn new(engine: &'static Engine, starred: Memo<Vec<u32>>) -> Explorer {
        let view = View::new(engine);
        let search = Search::new(engine, view, starred);
        let related = Related::new(engine, view, search, starred);
        let address = Address::mirror(engine, view);
        // The lists of paper vectors the rankings by meaning wanted (a
        // long list's), once the matches or the related list are made.
        Effect::new(move |_| {
            search.response.track();
            related.list.track();
            search.fetch_vectors();
        });
        let x = Explorer {
            engine,
            view,
            search,
            related,
            address,
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
            self.view.set_shared.set(Some(shared));
            return;
        }
        let id = location_fragment();
        let doc = id.as_ref().and_then(|id| self.engine.doc_of(id));
        if let Some(doc) = doc {
            let hidden = self
                .search
                .response
                .with_untracked(|r| !r.hits.contains(doc));
            if hidden {
                self.reset();
            }
        }
        self.view.set_open.set(id);
    }

    /// The engine's index has been opened: a query waiting for it runs.
    pub fn index_opened(&self) {
        self.search.index_ready.set(true);
    }

    /// Whether the search index is open (reactive).
    pub fn has_index(&self) -> bool {
        self.search.index_ready.get()
    }

    /// Whether the meaning file is open (reactive).
    pub fn has_meaning(&self) -> bool {
        self.search.meaning_ready.get()
    }

    /// The meaning file is open: related papers can be listed.
    pub fn meaning_opened(&self) {
        self.search.meaning_ready.set(true);
    }

    /// Applies a host page's `set` message as the reader's own action: a
    /// history entry, the search field showing the new query, the paper
    /// opened through the fragment as a link would.
    pub fn apply_host(&self, change: explorer_core::view::embed::Change) {
        if change.query.is_some() {
            self.view.query_replaced.notify();
        }
        self.view.push_history.set_value(true);
        self.view.set_state.update(|s| {
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
        self.view.set_shared.set(None);
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
        let view = near.then(|| self.view.state.get_untracked());
        if self.related.near.with_untracked(|n| *n != view) {
            self.related.near.set(view);
        }
    }

    /// An input event that leaves the text as it was (a composition
    /// step, a repeated event) changes nothing and so searches nothing.
    pub fn set_query(&self, q: String) {
        self.view.set_state.maybe_update(|s| {
            let changed = s.query != q;
            if changed {
                s.query = q;
            }
            changed
        });
    }

    /// Empties the search field (Esc), keeping the facet selection.
    pub fn clear_query(&self) {
        self.view.query_replaced.notify();
        self.view.set_state.update(|s| s.query.clear());
    }

    pub fn toggle(&self, facet: usize, value: u32) {
        self.view.push_history.set_value(true);
        self.view.set_state.update(|s| s.toggle(facet, value));
    }

    /// Shows only the starred papers, or every paper again.
    pub fn toggle_starred(&self) {
        self.view.push_history.set_value(true);
        self.view.set_state.update(|s| s.starred = !s.starred);
    }

    /// Lists the papers most like the starred ones below the results, or
    /// stops.
    pub fn toggle_like_starred(&self) {
        self.view.push_history.set_value(true);
        self.view
            .set_state
            .update(|s| s.like_starred = !s.like_starred);
    }

    /// Shows only the papers in a region of the map (or all, with `None`).
    pub fn set_region(&self, region: Option<Region>) {
        self.view.push_history.set_value(true);
        self.view.set_state.update(|s| s.region = region);
    }

    /// Whether the filters count the related papers, not the matches (the
    /// query matches nothing; papers close in meaning are listed instead).
    pub fn counts_related(&self) -> bool {
        self.related.counted.get()
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
            self.related.list.with(|set| of(&set.counts))
        } else {
            self.search.response.with(|r| of(&r.counts))
        }
    }

    /// Whether the facet counts are not known yet: the query narrowed the
    /// list before a long list's tags came (reactive).
    pub fn counts_pending(&self) -> bool {
        if self.counts_related() {
            !self.search.tags_ready.get()
        } else {
            self.search.response.with(|r| r.counts_pending)
        }
    }

    /// How many papers the filters count.
    pub fn counted(&self) -> usize {
        if self.counts_related() {
            self.related.list.with(|set| set.total)
        } else {
            self.search.response.with(|r| r.hits.len())
        }
    }

    /// The reader's own filters' counts among the papers the filters count.
    fn extra_counts(&self) -> ExtraCounts {
        if self.counts_related() {
            self.related.list.with(|set| set.extra_counts)
        } else {
            self.search.response.with(|r| r.extra_counts)
        }
    }

    /// How many starred papers are among the results of the query and the
    /// other filters.
    pub fn starred_count(&self) -> u32 {
        self.extra_counts().starred
    }

    pub fn set_sort(&self, sort: Sort) {
        self.view.push_history.set_value(true);
        self.view.set_state.update(|s| s.sort = sort);
    }

    pub fn clear(&self) {
        self.view.push_history.set_value(true);
        self.reset();
    }

    /// Empties the query and the facet selection, keeping the sort and the
    /// layout.
    fn reset(&self) {
        self.view.query_replaced.notify();
        let empty = ViewState::empty(&self.engine.corpus);
        self.view.set_state.update(|s| {
            *s = ViewState {
                sort: s.sort,
                embed: s.embed,
                list: s.list.take(),
                ..empty
            }
        });
    }

    /// The link to the current view, as it would be pasted elsewhere (never
    /// the embed layout): origin, folder, query string and fragment.
    pub fn share_url(&self, embed: bool) -> String {
        let qs = self
            .view
            .state
            .with(|s| ViewState { embed, ..s.clone() }.to_query_string(&self.engine.corpus));
        let hash = window().location().hash().unwrap_or_default();
        format!("{}{qs}{hash}", page_address())
    }

    /// The facet selection (reactive).
    pub fn selection_now(&self) -> Selection {
        self.view.selection.get()
    }

    /// Runs `f` on the facet selection, outside the reactive graph.
    pub fn selection_untracked<T>(&self, f: impl FnOnce(&Selection) -> T) -> T {
        self.view.selection.with_untracked(f)
    }

    /// The values of `facet` selected (tracked: the selection).
    pub fn selected(&self, facet: usize) -> Vec<u32> {
        self.view
            .selection
            .with(|s| s.get(facet).cloned().unwrap_or_default())
    }

    pub fn is_selected(&self, facet: usize, value: u32) -> bool {
        self.view
            .selection
            .with(|s| s.get(facet).is_some_and(|v| v.contains(&value)))
    }
}
