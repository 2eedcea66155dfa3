use leptos::prelude::*;

use crate::i18n::use_i18n;
use crate::reading_list::Stars;
use crate::Explorer;

/// Above the results while a shared list is open (`#shared=…`): how many
/// papers it has, which of its ids this explorer lacks, **Add to my list**
/// (merged as an import is, never overwriting) and **Show all papers**.
#[component]
pub fn SharedListNotice() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let stars = expect_context::<Stars>();
    let tr = use_i18n();
    let added = RwSignal::new(None);
    // A long list's titles come in packs: the entries get theirs (the
    // reading list keeps them, for its export) once they are in.
    let add = move |_| {
        if let Some(shared) = x.view.shared.get_untracked() {
            crate::load::when_titles_in(shared.docs.clone(), move |_| {
                let mut list = shared.list;
                for e in list.entries.iter_mut().filter(|e| e.title.is_empty()) {
                    if let Some(title) = x.engine.doc_of(&e.id).and_then(|d| x.engine.title(d)) {
                        e.title = title.to_string();
                    }
                }
                added.set(Some(stars.merge(list)));
            });
        }
    };
    let len = move || {
        x.view
            .shared
            .with(|s| s.as_ref().map_or(0, |s| s.list.len()))
    };
    let stale = move || {
        x.view.shared.with(|s| {
            let stale = &s.as_ref()?.stale;
            (!stale.is_empty()).then(|| (tr.get().shared_stale)(stale.len(), &stale.join(", ")))
        })
    };
    view! {
        <Show when=move || x.view.shared.with(Option::is_some)>
            <section class="shared-list" aria-labelledby="shared-list-heading">
                <h2 id="shared-list-heading">{move || (tr.get().shared_heading)(len())}</h2>
                <p class="shared-list-stale">{stale}</p>
                <div class="shared-list-actions">
                    <button type="button" class="button primary add-shared" on:click=add>
                        {move || tr.get().add_to_my_list}
                    </button>
                    <button type="button" class="button close-shared" on:click=move |_| x.close_shared()>
                        {move || tr.get().show_all_papers}
                    </button>
                </div>
                <p class="shared-list-added" role="status">
                    {move || added.get().map(|m: explorer_core::view::Merged| {
                        (tr.get().shared_added)(m.added, m.notes_joined, stars.len())
                    })}
                </p>
            </section>
        </Show>
    }
}
