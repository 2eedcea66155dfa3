use leptos::prelude::*;

use crate::i18n::use_i18n;
use crate::Explorer;

/// A paper's most similar papers (computed at build time), behind a toggle:
/// each a link to the paper with the terms the two share most.
#[component]
pub fn SimilarPapers(doc: u32) -> impl IntoView {
    let x = expect_context::<Explorer>();
    let tr = use_i18n();
    let corpus = &x.engine.corpus;
    let paper = &corpus.papers[doc as usize];
    let (open, set_open) = signal(false);
    let list_id = format!("{}-similar", paper.id);
    (!paper.similar.is_empty()).then(|| {
        view! {
            <div class="similar">
                <button
                    type="button"
                    class="similar-toggle"
                    aria-expanded=move || open.get().to_string()
                    aria-controls=list_id.clone()
                    on:click=move |_| set_open.update(|o| *o = !*o)
                >
                    {move || tr.get().similar_papers}
                </button>
                <Show when=move || open.get()>
                    <ol class="similar-list" id=list_id.clone()>
                        {paper
                            .similar
                            .iter()
                            .map(|s| {
                                let other = &corpus.papers[s.doc as usize];
                                let shared = corpus.shared_terms(s).collect::<Vec<_>>().join(", ");
                                view! {
                                    <li>
                                        <a href=format!("#{}", other.id)>{other.title.clone()}</a>
                                        {(!shared.is_empty())
                                            .then(|| view! { <span class="similar-why">{move || tr.get().shares} {shared}</span> })}
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ol>
                </Show>
            </div>
        }
    })
}
