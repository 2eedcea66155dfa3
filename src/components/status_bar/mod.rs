use explorer_core::Sort;
use leptos::prelude::*;

use super::export_menu::ExportMenu;
use crate::Explorer;

/// “N of M papers” (a live region), the sort order, and the empty state.
#[component]
pub fn StatusBar() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let total = x.engine.len();
    let shown = move || x.response.with(|r| r.hits.len());
    let sort_options = [
        (Sort::Relevance, "Relevance"),
        (Sort::ListOrder, "List order"),
        (Sort::Title, "Title (A–Z)"),
    ];
    view! {
        <div class="status-bar">
            <p class="status" role="status" aria-live="polite" aria-atomic="true">
                {move || format!("{} of {total} papers", shown())}
            </p>
            <label class="sort">
                "Sort by "
                <select on:change:target=move |ev| {
                    if let Some(s) = Sort::from_key(&ev.target().value()) {
                        x.set_sort(s);
                    }
                }>
                    {sort_options
                        .into_iter()
                        .map(|(s, label)| {
                            view! {
                                <option value=s.key() selected=move || x.state.with(|st| st.sort == s)>
                                    {label}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            <ExportMenu />
        </div>
        <Show when=move || shown() == 0>
            <div class="empty-state">
                <p>"No papers match this search."</p>
                <button type="button" on:click=move |_| x.clear()>
                    "Clear search and filters"
                </button>
            </div>
        </Show>
    }
}
