use leptos::prelude::*;

use super::copy_field::CopyField;
use crate::i18n::use_i18n;
use crate::Explorer;

/// “Share / embed”: the link to the current view, a ready `<iframe>`
/// snippet for a wiki page and the `<paper-explorer>` element, each with a
/// copy button.
#[component]
pub fn SharePanel() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let tr = use_i18n();
    let title = StoredValue::new(x.engine.corpus.title());
    // Read when the panel is opened or the view changes while it is open.
    let (open, set_open) = signal(false);
    let link = move || {
        x.view.state.track();
        if open.get() {
            x.share_url(false)
        } else {
            String::new()
        }
    };
    let snippet = move || {
        x.view.state.track();
        if !open.get() {
            return String::new();
        }
        let src = html_escape::encode_double_quoted_attribute(&x.share_url(true)).into_owned();
        let title =
            title.with_value(|t| html_escape::encode_double_quoted_attribute(t).into_owned());
        format!(
            "<iframe src=\"{src}\" title=\"{title}\" style=\"width:100%;height:80vh;border:0\" loading=\"lazy\"></iframe>\n\
             <script>addEventListener('message',function(e){{if(e.data&&e.data.type==='{message}'){{\
             document.querySelectorAll('iframe').forEach(function(f){{if(f.contentWindow===e.source)f.style.height=Math.min(e.data.height,innerHeight)+'px'}})}}}});</script>",
            message = crate::embed::HEIGHT_MESSAGE,
        )
    };
    // The drop-in element: embed.js beside the app, the view as attributes.
    let element = move || {
        x.view.state.track();
        if !open.get() {
            return String::new();
        }
        let base = crate::explorer::page_address();
        let attr = |v: &str| html_escape::encode_double_quoted_attribute(v).into_owned();
        let mut attrs = format!("src=\"{}\"", attr(&base));
        x.view.state.with(|s| {
            if !s.query.is_empty() {
                attrs += &format!(" query=\"{}\"", attr(&s.query));
            }
            let facets = x.engine.corpus.selection_pairs(&s.selection);
            if !facets.is_empty() {
                attrs += &format!(" facets=\"{}\"", attr(&facets.join(";")));
            }
            if s.sort != explorer_core::Sort::Relevance {
                attrs += &format!(" sort=\"{}\"", s.sort.key());
            }
        });
        format!(
            "<script src=\"{}embed.js\" defer></script>\n<paper-explorer {attrs}></paper-explorer>",
            attr(&base)
        )
    };
    view! {
        <details class="share" on:toggle:target=move |ev| set_open.set(ev.target().open())>
            <summary>{move || tr.get().share}</summary>
            <div class="share-body">
                <label for="share-link">{move || tr.get().link_to_view}</label>
                <CopyField id="share-link" text=Signal::derive(link) button=|t| t.copy />
                <label for="share-embed">{move || tr.get().embed_in_wiki}</label>
                <CopyField id="share-embed" rows=5 text=Signal::derive(snippet) button=|t| t.copy_snippet />
                <p class="share-note">{move || tr.get().embed_note}</p>
                <label for="share-element">{move || tr.get().embed_element}</label>
                <CopyField id="share-element" rows=3 text=Signal::derive(element) button=|t| t.copy_snippet />
                <p class="share-note">{move || tr.get().embed_element_note}</p>
            </div>
        </details>
    }
}
