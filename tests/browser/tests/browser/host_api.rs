//! A lab wiki drives the explorer: a page under a strict Content-Security-
//! Policy loads `embed.js` and places two `<paper-explorer>` elements. Set
//! through the element, one frame shows the query and facet asked for and
//! tells the page its state; opening a paper tells the page which; the
//! other element's frame is untouched; a malformed message is ignored.

use browser_tests::{engine, Browser, STRICT_CSP};
use explorer_core::{FacetKind, Sort};
use fantoccini::Locator;
use serde_json::Value;

const WIKI: &str = r#"<!doctype html><html><head><title>Lab wiki: topics</title>
<script src="/wiki/tools/iclr/embed.js" defer></script></head><body>
<h1>Topics</h1>
<paper-explorer id="one" src="/wiki/tools/iclr/" query="unlearning"></paper-explorer>
<paper-explorer id="two" src="/wiki/tools/iclr/"></paper-explorer>
</body></html>"#;

/// The titles the seed engine shows for `query` with one topic selected.
fn expected(query: &str, topic: u32) -> Vec<String> {
    let e = engine();
    let mut selection = e.no_selection();
    selection[e.corpus.facet_index(FacetKind::Topic).unwrap()].push(topic);
    e.search(query, &selection, Sort::Relevance)
        .docs()
        .into_iter()
        .map(|d| e.corpus.papers[d as usize].title.clone())
        .collect()
}

/// Switches into the frame of the element with this id.
async fn enter(b: &Browser, element: &str) {
    b.client
        .find(Locator::Css(&format!("#{element} iframe")))
        .await
        .unwrap()
        .enter_frame()
        .await
        .unwrap();
}

/// The first seed paper on diffusion's topic, by its label, and the titles
/// the seed engine shows for `diffusion` with that topic selected.
fn diffusion_topic() -> (String, Vec<String>) {
    let e = engine();
    let topic_facet = e.corpus.facet_index(FacetKind::Topic).unwrap();
    let first = e
        .search("diffusion", &e.no_selection(), Sort::Relevance)
        .docs()[0];
    let topic = e.corpus.papers[first as usize]
        .tags
        .iter()
        .find(|t| t.facet as usize == topic_facet)
        .expect("the paper has a topic")
        .value;
    let label = e.corpus.facets[topic_facet].values[topic as usize].clone();
    let want = expected("diffusion", topic);
    assert!(!want.is_empty());
    (label, want)
}

/// The wiki sets element `one` to `diffusion` in topic `label`: the page
/// hears the state, the element reflects it, and the frame shows `want`
/// as a reader's own action would (left inside the frame).
async fn set_and_hear_the_state(b: &Browser, label: &str, want: &[String]) {
    b.js_with(
        "document.getElementById('one').set({query: 'diffusion', facets: {topic: [arguments[0]]}}); return 0",
        vec![Value::String(label.to_string())],
    )
    .await;
    b.wait_for(
        "window.__events.some(([id, t, d]) => id === 'one' && t === 'state' && d.query === 'diffusion')",
        "the state after the set",
    )
    .await;
    let state = b
        .js("return window.__events.filter(([id, t, d]) => id === 'one' && t === 'state' && d.query === 'diffusion').pop()[2]")
        .await;
    assert_eq!(state["type"], "paper-explorer:state");
    assert_eq!(state["version"], 2);
    assert_eq!(state["facets"], serde_json::json!({ "topic": [label] }));
    assert_eq!(state["shown"], want.len());
    assert_eq!(state["total"], engine().corpus.papers.len());
    let url = state["url"].as_str().unwrap();
    assert!(
        url.starts_with(&b.server.base) && url.contains("q=diffusion") && !url.contains("embed"),
        "{url}"
    );
    // The element keeps its attributes in step.
    assert_eq!(
        b.js("return document.getElementById('one').getAttribute('facets')")
            .await,
        format!("topic:{label}")
    );

    // The frame shows what was asked for, as a reader's own action would.
    enter(b, "one").await;
    b.wait_for_titles(want).await;
    assert_eq!(
        b.js("return document.querySelector('input[type=search]').value")
            .await,
        "diffusion"
    );
    b.wait_for(
        "location.search.includes('q=diffusion')",
        "q=diffusion in the address",
    )
    .await;
}

/// From inside frame `one`: a reader opens the first paper of `want` and
/// the page hears which; then the host opens the second through the
/// element's attribute (left on the host page).
async fn open_and_hear_opened(b: &Browser, want: &[String]) {
    let e = engine();
    b.click(".results article.paper .paper-title a").await;
    b.client.enter_parent_frame().await.unwrap();
    b.wait_for(
        "window.__events.some(([id, t]) => id === 'one' && t === 'opened')",
        "the opened message",
    )
    .await;
    let opened = b
        .js("return window.__events.find(([id, t]) => id === 'one' && t === 'opened')[2]")
        .await;
    let paper = e.corpus.papers.iter().find(|p| p.title == want[0]).unwrap();
    assert_eq!(opened["id"], paper.id.as_str());
    assert_eq!(opened["title"], paper.title.as_str());
    assert_eq!(opened["version"], 2);

    // The host opens another paper of the view through the attribute.
    let other = e.corpus.papers.iter().find(|p| p.title == want[1]).unwrap();
    b.js_with(
        "document.getElementById('one').setAttribute('open', arguments[0]); return 0",
        vec![Value::String(other.id.clone())],
    )
    .await;
    b.wait_for(
        &format!(
            "window.__events.some(([id, t, d]) => id === 'one' && t === 'opened' && d.id === '{}')",
            other.id
        ),
        "the host's paper opened",
    )
    .await;
}

/// A malformed message and one of another version sent to frame `one`:
/// ignored, no error in either frame, and `one` still shows `want`.
async fn bad_messages_are_ignored(b: &Browser, want: &[String]) {
    b.js(
        "const w = document.querySelector('#one iframe').contentWindow; \
          w.postMessage({type: 'paper-explorer:set', version: 1, facets: 'topic'}, '*'); \
          w.postMessage({type: 'paper-explorer:set', version: 9, query: 'nothing'}, '*'); \
          w.postMessage('hello', '*'); return 0",
    )
    .await;
    enter(b, "one").await;
    b.wait_for_titles(want).await;
    assert_eq!(b.console_errors().await, Vec::<String>::new());
    b.client.enter_parent_frame().await.unwrap();
    enter(b, "two").await;
    assert_eq!(b.console_errors().await, Vec::<String>::new());
    b.client.enter_parent_frame().await.unwrap();
}

#[tokio::test]
async fn a_wiki_page_sets_the_view_and_hears_state_and_opened() {
    let b = Browser::launch("/wiki/tools/iclr/", (1280, 900)).await;
    *b.server.csp.lock().unwrap() = Some(STRICT_CSP.into());
    b.open_host_page("/lab/topics.html", WIKI).await;
    b.js("window.__events = []; document.querySelectorAll('paper-explorer').forEach(el => \
          ['state', 'opened'].forEach(t => el.addEventListener(t, e => window.__events.push([el.id, t, e.detail])))); return 0")
        .await;
    // Each frame reports its first state; the element reflects it.
    b.wait_for(
        "document.getElementById('one').getAttribute('sort') === 'relevance' \
         && document.getElementById('two').getAttribute('sort') === 'relevance'",
        "both frames' first state",
    )
    .await;

    let (label, want) = diffusion_topic();
    set_and_hear_the_state(&b, &label, &want).await;
    open_and_hear_opened(&b, &want).await;

    // The other element heard nothing of it and still shows every paper.
    let two = b
        .js("return window.__events.filter(([id]) => id === 'two').map(([, t, d]) => [t, d.query])")
        .await;
    assert!(
        two.as_array().unwrap().iter().all(|ev| ev[1] == ""),
        "{two}"
    );

    bad_messages_are_ignored(&b, &want).await;
}
