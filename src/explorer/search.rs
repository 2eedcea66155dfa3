//! The search: the engine's response to the view, recomputed on every
//! change of it.

use explorer_core::view::shared_list::Shared;
use explorer_core::{Engine, Extra, Extras, Response};
use leptos::prelude::*;

use crate::url_state::ViewState;

use super::View;

/// The engine's answer to the view, and whether the index it needs is in.
#[derive(Clone, Copy)]
pub struct Search {
    /// Recomputed synchronously on every change: search, facet counts and
    /// highlight inputs for this corpus take well under a frame.
    pub response: Memo<Response>,
    /// Set once the search index, fetched after the first results, is open.
    pub(super) index_ready: RwSignal<bool>,
    /// Set once the meaning file, fetched when the reader first types, is
    /// open: the best matches are then ordered by meaning too, and papers
    /// related by meaning can be listed.
    pub(super) meaning_ready: RwSignal<bool>,
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
        let response = Memo::new(move |_| {
            index_ready.track();
            meaning_ready.track();
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
        Search {
            response,
            index_ready,
            meaning_ready,
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
