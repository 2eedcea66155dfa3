use explorer_core::Sort;
use leptos::prelude::*;

use super::export_menu::ExportMenu;
use crate::i18n::{use_i18n, Strings};
use crate::Explorer;

/// A string of the interface, picked from the language in use.
type Label = fn(&Strings) -> &'static str;

/// “N of M papers” (a live region), the sort order, and the empty state.
#[component]
pub fn StatusBar() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let tr = use_i18n();
    let total = x.engine.len();
    let shown = move || x.search.response.with(|r| r.hits.len());
    let parts = move || x.search.response.with(|r| (r.all_words, r.best_matches()));
    let waiting = move || x.search.response.with(|r| r.waiting_for_index);
    let for_tags = move || x.search.response.with(|r| r.waiting_for_tags);
    let for_titles = move || x.search.response.with(|r| r.waiting_for_titles);
    let by_meaning = move || x.related.list.with(|r| !r.papers.is_empty());
    let sort_options: [(Sort, Label); 3] = [
        (Sort::Relevance, |t| t.sort_relevance),
        (Sort::ListOrder, |t| t.sort_list),
        (Sort::Title, |t| t.sort_title),
    ];
    view! {
        <div class="status-bar">
            <p class="status" role="status" aria-live="polite" aria-atomic="true">
                {move || {
                    let t = tr.get();
                    match parts() {
                        _ if for_tags() && x.search.tags_failed.get() => t.tags_failed.to_string(),
                        _ if for_tags() => t.tags_loading.to_string(),
                        _ if for_titles() && x.search.title_order_failed.get() => {
                            t.title_order_failed.to_string()
                        }
                        _ if for_titles() => t.title_order_loading.to_string(),
                        _ if waiting() && x.search.packs_failed.get() => {
                            t.index_part_failed.to_string()
                        }
                        _ if waiting() => t.index_loading.to_string(),
                        (all, 0) => (t.status)(all, total),
                        (all, some) => (t.status_best)(all, some, total),
                    }
                }}
            </p>
            <label class="sort">
                {move || tr.get().sort_by}
                <select on:change:target=move |ev| {
                    if let Some(s) = Sort::from_key(&ev.target().value()) {
                        x.set_sort(s);
                    }
                }>
                    {sort_options
                        .into_iter()
                        .map(|(s, label)| {
                            view! {
                                <option value=s.key() selected=move || x.view.state.with(|st| st.sort == s)>
                                    {move || label(tr.get())}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            <ExportMenu />
        </div>
        // Never "no papers" above papers: when meaning finds some the
        // words do not, a line says so instead of the empty box.
        <Show when=move || shown() == 0 && !waiting()>
            <div class="empty-state" class:by-meaning-only=by_meaning>
                <p>
                    {move || {
                        let t = tr.get();
                        if by_meaning() { t.no_words_but_meaning } else { t.no_results }
                    }}
                </p>
                <button type="button" class="button primary" on:click=move |_| x.clear()>
                    {move || tr.get().clear_all}
                </button>
            </div>
        </Show>
    }
}
