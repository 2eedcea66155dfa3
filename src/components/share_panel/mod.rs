use leptos::prelude::*;

use crate::Explorer;

/// “Share / embed”: the link to the current view and a ready `<iframe>`
/// snippet for a wiki page, each with a copy button.
#[component]
pub fn SharePanel() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let title = StoredValue::new(x.engine.corpus.title());
    // Read when the panel is opened or the view changes while it is open.
    let (open, set_open) = signal(false);
    let link = move || {
        x.state.track();
        if open.get() {
            x.share_url(false)
        } else {
            String::new()
        }
    };
    let snippet = move || {
        x.state.track();
        if !open.get() {
            return String::new();
        }
        let src = html_escape::encode_double_quoted_attribute(&x.share_url(true)).into_owned();
        let title =
            title.with_value(|t| html_escape::encode_double_quoted_attribute(t).into_owned());
        format!(
            "<iframe src=\"{src}\" title=\"{title}\" style=\"width:100%;height:80vh;border:0\" loading=\"lazy\"></iframe>\n\
             <script>addEventListener('message',function(e){{if(e.data&&e.data.type==='paper-explorer:height'){{\
             document.querySelectorAll('iframe').forEach(function(f){{if(f.contentWindow===e.source)f.style.height=e.data.height+'px'}})}}}});</script>"
        )
    };
    let copy = |text: String| {
        let _ = window().navigator().clipboard().write_text(&text);
    };
    view! {
        <details class="share" on:toggle:target=move |ev| set_open.set(ev.target().open())>
            <summary>"Share / embed"</summary>
            <div class="share-body">
                <label for="share-link">"Link to this view"</label>
                <div class="share-row">
                    <input id="share-link" type="text" readonly prop:value=link on:focus:target=move |ev| ev.target().select() />
                    <button type="button" on:click=move |_| copy(link())>"Copy"</button>
                </div>
                <label for="share-embed">"Embed in a wiki page"</label>
                <textarea id="share-embed" readonly rows="5" prop:value=snippet on:focus:target=move |ev| ev.target().select()></textarea>
                <button type="button" on:click=move |_| copy(snippet())>"Copy snippet"</button>
                <p class="share-note">"The script line sizes the frame to its content; leave it out where scripts are not allowed."</p>
            </div>
        </details>
    }
}
