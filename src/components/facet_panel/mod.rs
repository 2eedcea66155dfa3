use leptos::prelude::*;

use super::facet_row::{bar, FacetRow};
use super::reading_list_panel::ReadingListPanel;
use crate::i18n::use_i18n;
use crate::Explorer;

/// Facets with more values than this show their most frequent values first,
/// and the rest behind “Show more”.
const LONG_FACET: usize = 20;
const SHORT_LIST: usize = 8;

/// The facet sidebar: one group of labelled checkboxes per facet, with live
/// counts. Collapsible on narrow screens.
#[component]
pub fn FacetPanel() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let tr = use_i18n();
    let (open, set_open) = signal(false);
    let selected_count = move || {
        x.view
            .state
            .with(|s| s.selection.iter().map(Vec::len).sum::<usize>())
    };
    view! {
        <aside class="facets" class:open=open aria-label=move || tr.get().filters>
            <button
                type="button"
                class="facets-toggle"
                aria-expanded=move || open.get().to_string()
                aria-controls="facet-groups"
                on:click=move |_| set_open.update(|o| *o = !*o)
            >
                {move || tr.get().filters}
                {move || match selected_count() {
                    0 => String::new(),
                    n => format!(" ({n})"),
                }}
            </button>
            <div id="facet-groups" class="facet-groups">
                <ReadingListPanel />
                {x
                    .engine
                    .corpus
                    .facets
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| !f.values.is_empty())
                    .map(|(f, _)| view! { <FacetGroup facet=f /> })
                    .collect_view()}
            </div>
        </aside>
    }
}

/// The order a facet's values are listed in, kept while the user types
/// (nothing jumps under the pointer): a short facet's own order, a long
/// one's by how many papers of the whole corpus have them, the first few
/// shown until “Show all”.
fn value_order(x: Explorer, facet: usize, long: bool) -> Vec<u32> {
    let all = x.engine.facet_totals(facet);
    let mut vs: Vec<u32> = (0..x.engine.corpus.facets[facet].values.len() as u32).collect();
    if long {
        vs.sort_unstable_by(|&a, &b| all[b as usize].cmp(&all[a as usize]).then(a.cmp(&b)));
    }
    vs
}

/// One facet's values: its first ones, the selected ones further down, and
/// “show all” for the rest.
#[component]
fn FacetGroup(facet: usize) -> impl IntoView {
    let x = expect_context::<Explorer>();
    let tr = use_i18n();
    let def = &x.engine.corpus.facets[facet];
    let long = def.values.len() > LONG_FACET;
    let (show_all, set_show_all) = signal(false);
    // A value's count among the results and its bar, read together: one
    // reactive node a row for what every keystroke changes, not two.
    let stats_of = move |v: u32| {
        let count = x.count(facet, v);
        (count, bar(count, x.counted()))
    };
    let order = value_order(x, facet, long);
    let order = StoredValue::new(order);
    let values = move || -> Vec<u32> {
        order.with_value(|vs| {
            if !long || show_all.get() {
                return vs.clone();
            }
            // The first few, and a selected value further down (a link's):
            // the selection read once, not once per value (60,000 authors
            // at 20,000 papers made a facet click wait for them).
            let selected = x.selected(facet);
            let (first, rest) = vs.split_at(SHORT_LIST.min(vs.len()));
            first
                .iter()
                .chain(rest.iter().filter(|v| selected.contains(v)))
                .copied()
                .collect()
        })
    };
    let hidden = def.values.len().saturating_sub(SHORT_LIST);
    let pending = Memo::new(move |_| x.counts_pending());
    view! {
        <fieldset class="facet" data-facet=def.kind.key() aria-busy=move || pending.get().to_string()>
            <legend>
                {move || (tr.get().facet_name)(def.kind)}
            </legend>
            <ul>
                <For
                    each=values
                    key=|v| *v
                    children=move |v| {
                        // A keystroke touches only the rows whose count or
                        // share changed, not every row of every facet.
                        let label = def.values[v as usize].clone();
                        let stats = Memo::new(move |_| stats_of(v));
                        view! {
                            <li>
                                <FacetRow
                                    label=Signal::derive(move || label.clone())
                                    count=Signal::derive(move || stats.with(|s| s.0))
                                    share=Signal::derive(move || stats.with(|s| s.1.clone()))
                                    checked=Memo::new(move |_| x.is_selected(facet, v))
                                    on_toggle=move || x.toggle(facet, v)
                                    pending=pending
                                />
                            </li>
                        }
                    }
                />
            </ul>
            <Show when=move || long>
                <button
                    type="button"
                    class="facet-more"
                    aria-expanded=move || show_all.get().to_string()
                    on:click=move |_| set_show_all.update(|s| *s = !*s)
                >
                    {move || if show_all.get() { tr.get().show_fewer.to_string() } else { (tr.get().show_more)(hidden) }}
                </button>
            </Show>
        </fieldset>
    }
}
