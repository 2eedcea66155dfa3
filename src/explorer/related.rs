//! Papers related by meaning: below the matches, or in their place when
//! the query matches nothing.

use explorer_core::{Engine, RelatedSet, RELATED};
use leptos::prelude::*;

use crate::url_state::ViewState;

use super::search::{extras, Search};
use super::View;

/// Up to this many matches, the related list's place is on the screen or
/// just below it: the list is made in the keystroke, with the matches.
const RELATED_WITH_MATCHES: usize = 10;

/// The related list and what it waits for.
#[derive(Clone, Copy)]
pub struct Related {
    /// Papers close in meaning to the query that it does not match, under
    /// the same filters, with their counts (empty until the meaning file is
    /// open, and while their place is far off screen).
    pub list: Memo<RelatedSet>,
    /// The view for which the related list's place was last seen on screen
    /// or near it. Below many matches, the list is made once its place is
    /// seen near for the view shown (the observer reports after the view's
    /// first paint), not in the keystroke, so that typing neither computes
    /// a list no one can see (at 20,000 papers most of a keystroke's
    /// search) nor waits for one below the matches it shows. Below a few
    /// matches ([`RELATED_WITH_MATCHES`]) or none, it is made at once: its
    /// place is on screen, and a list written a frame after the matches
    /// was the last change of most of the seeds' keystrokes.
    pub(super) near: RwSignal<Option<ViewState>>,
    /// The filters count the related papers: the query matches nothing
    /// and papers close in meaning are listed in place of the matches.
    pub(super) counted: Memo<bool>,
}

impl Related {
    /// `starred`: the papers on the reader's reading list ("more like my
    /// reading list" lists the papers most like them). Long because the
    /// list's memo is one closure with its cases in order: the reading
    /// list's, not made yet, made for this view.
    pub fn new(
        engine: &'static Engine,
        view: View,
        search: Search,
        starred: Memo<Vec<u32>>,
    ) -> Related {
        let View {
            state,
            region_docs,
            shared,
            ..
        } = view;
        let response = search.response;
        let (meaning_ready, vectors_in) = (search.meaning_ready, search.vectors_in);
        let related_near = RwSignal::new(None::<ViewState>);
        // Below many matches, the related list is made when its place is
        // near the screen for this view (the observer's report, which comes
        // after the view's first paint), not in the keystroke: made in
        // every keystroke, it doubled the seeds' median time to the layout
        // (`BENCH_QUICK=1`, three interleaved runs). A query with a few
        // matches or none makes it at once (with none, it stands in the
        // matches' place, and the filters count it).
        let related = Memo::new(move |_| {
            if !meaning_ready.get() {
                return RelatedSet::default();
            }
            vectors_in.track();
            if state.with(|s| s.like_starred) {
                let papers = starred.with(|starred| engine.like_these(starred, RELATED));
                return RelatedSet {
                    total: papers.len(),
                    papers,
                    ..RelatedSet::default()
                };
            }
            let few = response.with(|r| r.hits.len() <= RELATED_WITH_MATCHES);
            // Read only below many matches: a few are not made again when
            // the observer reports.
            if !few && !related_near.with(|n| state.with(|s| n.as_ref() == Some(s))) {
                return RelatedSet::default();
            }
            let shown: Vec<u32> =
                response.with(|r| r.hits.any_order().iter().map(|h| h.doc).collect());
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
        Related {
            list: related,
            near: related_near,
            counted: counts_related,
        }
    }
}
