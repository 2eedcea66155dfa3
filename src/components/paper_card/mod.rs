use leptos::prelude::*;

use super::paper_note::PaperNote;
use super::similar_papers::SimilarPapers;
use super::star_button::StarButton;
use crate::i18n::use_i18n;
use crate::Explorer;
use explorer_core::html::{abstract_html, marked_html};
use explorer_core::model::LinkKind;
use explorer_core::{DocWords, Engine, FacetKind, Highlights};

/// Abstracts longer than this many bytes are clamped until expanded.
const LONG_ABSTRACT: usize = 600;

/// How many papers' words are kept for highlighting: the cards on screen
/// and the ones that were recently (a card leaving the list and coming back
/// as the user types does not split and stem its text again).
const WORDS_KEPT: usize = 512;

thread_local! {
    static WORDS: std::cell::RefCell<std::collections::HashMap<u32, DocWords>> = Default::default();
}

/// Runs `f` on a paper's words, splitting and stemming them at most once
/// while they are kept.
fn with_words<T>(engine: &Engine, doc: u32, f: impl FnOnce(&DocWords) -> T) -> T {
    WORDS.with_borrow_mut(|kept| {
        if kept.len() >= WORDS_KEPT && !kept.contains_key(&doc) {
            kept.clear();
        }
        f(kept.entry(doc).or_insert_with(|| engine.doc_words(doc)))
    })
}

/// One paper: title, list, tag chips and the abstract, with highlights.
/// A paper `related` by meaning has none: it matched no word of the query
/// (the words it was found by are named above it).
#[component]
pub fn PaperCard(doc: u32, #[prop(optional)] related: bool) -> impl IntoView {
    let x = expect_context::<Explorer>();
    let tr = use_i18n();
    let p = &x.engine.corpus.papers[doc as usize];
    let id = p.id.as_str();
    // The card re-renders only when its highlight ranges change.
    let hl = Memo::new(move |_| {
        x.response.with(|r| {
            if related || r.matched.is_empty() {
                return Highlights::default();
            }
            with_words(x.engine, doc, |w| w.highlights(&r.matched))
        })
    });
    let toggled = RwSignal::new(None::<bool>);
    let expanded = move || {
        toggled
            .get()
            .unwrap_or_else(|| x.open.with(|o| o.as_deref() == Some(id)))
    };
    let long = p.text.len() > LONG_ABSTRACT;
    let list = &x.engine.corpus.lists[p.list as usize];
    let list_facet = x.engine.corpus.facet_index(FacetKind::List);
    let source = p
        .tags
        .iter()
        .find(|t| Some(t.facet as usize) == list_facet)
        .map(|t| x.engine.corpus.reason(t).to_string())
        .unwrap_or_default();
    let title_id = format!("{id}-title");
    let title_id2 = title_id.clone();
    let abstract_id = format!("{id}-abstract");
    view! {
        <article class="paper" id=id aria-labelledby=title_id class:target=move || x.open.with(|o| o.as_deref() == Some(id))>
            <div class="paper-head">
                <h2 class="paper-title" id=title_id2>
                    <a href=format!("#{id}") inner_html=move || hl.with(|h| marked_html(&p.title, &h.title))></a>
                </h2>
                <StarButton doc=doc />
            </div>
            {(!p.authors.is_empty()).then(|| {
                let authors = p.authors.join(", ");
                view! {
                    <p class="paper-authors" inner_html=move || hl.with(|h| marked_html(&authors, &h.authors))></p>
                }
            })}
            <p class="paper-meta">
                {p.year.map(|y| view! { <span class="paper-year">{y}</span>" · " })}
                <span class="paper-list" title=source>{list.label.clone()}</span>
                {p
                    .links
                    .iter()
                    .map(|l| {
                        view! {
                            " · "
                            <a class="paper-link" href=l.href.clone() target="_blank" rel="noopener noreferrer nofollow">
                                {move || {
                                    let labels = tr.get().link_labels;
                                    match l.kind {
                                        LinkKind::Page => labels[0],
                                        LinkKind::Pdf => labels[1],
                                        LinkKind::Code => labels[2],
                                    }
                                }}
                            </a>
                        }
                    })
                    .collect_view()}
            </p>
            <TagChips doc=doc />
            <div
                class="abstract"
                id=abstract_id.clone()
                class:clamped=move || long && !expanded()
                inner_html=move || hl.with(|h| abstract_html(p, &h.text))
            ></div>
            {long
                .then(|| {
                    view! {
                        <button
                            type="button"
                            class="expand"
                            aria-expanded=move || expanded().to_string()
                            aria-controls=abstract_id
                            on:click=move |_| toggled.set(Some(!expanded()))
                        >
                            {move || if expanded() { tr.get().show_less } else { tr.get().show_full }}
                        </button>
                    }
                })}
            <PaperNote doc=doc />
            <SimilarPapers doc=doc />
        </article>
    }
}

/// The paper's tags; clicking one toggles that facet value, hovering says why
/// the tag was given.
#[component]
fn TagChips(doc: u32) -> impl IntoView {
    let x = expect_context::<Explorer>();
    let tr = use_i18n();
    let corpus = &x.engine.corpus;
    let p = &corpus.papers[doc as usize];
    // The list, authors and year are in the card's meta line already.
    let shown_elsewhere: Vec<Option<usize>> = [FacetKind::List, FacetKind::Author, FacetKind::Year]
        .map(|k| corpus.facet_index(k))
        .into();
    let chips = p
        .tags
        .iter()
        .filter(|t| !shown_elsewhere.contains(&Some(t.facet as usize)))
        .map(|t| {
            let (f, v) = (t.facet as usize, t.value);
            let facet = &corpus.facets[f];
            let label = facet.values[v as usize].clone();
            let kind = facet.kind;
            let why = move || format!("{}: {}", (tr.get().facet_name)(kind), corpus.reason(t));
            view! {
                <li>
                    <button
                        type="button"
                        class="chip"
                        data-facet=facet.kind.key()
                        title=why
                        aria-pressed=move || x.is_selected(f, v).to_string()
                        on:click=move |_| x.toggle(f, v)
                    >
                        {label}
                    </button>
                </li>
            }
        })
        .collect_view();
    view! { <ul class="chips" aria-label="Tags">{chips}</ul> }
}
