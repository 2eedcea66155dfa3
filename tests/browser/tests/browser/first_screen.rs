//! The first screen the build writes into the page: the first papers,
//! shown before the WebAssembly has arrived, where the app will show the
//! same; what the reader types into it is kept when the app takes over.

use browser_tests::{all_titles, engine, expected_titles, strings, Browser};
use fantoccini::Locator;

/// What the gate script decided for a page (its mark on the document
/// stays when the app takes over). Each page's app starts before the
/// next page is opened: in full CI runs on two cores, WebKit twice let one
/// of these eight quick navigations outlast the 20 s page-load deadline
/// (never when this file ran alone), likeliest because pages left before
/// their WebAssembly had compiled piled up work.
async fn first_screen_state(b: &Browser, path: &str) -> String {
    b.client
        .goto(&format!("{}{path}", b.server.base))
        .await
        .unwrap();
    b.wait_for(
        "document.documentElement.dataset.firstScreen !== undefined && window.__started !== undefined",
        "the first screen's gate and the app's start",
    )
    .await;
    let state = b
        .js("return document.documentElement.dataset.firstScreen")
        .await;
    state.as_str().unwrap().to_string()
}

/// The cards of a list, each as its HTML with the clamped abstract's text
/// left out, that text, and the abstract's height.
const CARDS: &str = "return [...document.querySelectorAll(arguments[0] + ' > li')].map(li => { \
     const c = li.cloneNode(true), a = c.querySelector('.abstract.clamped'); \
     const text = a ? a.textContent : ''; if (a) a.textContent = ''; \
     return [c.outerHTML, text, li.querySelector('.abstract').offsetHeight]; })";

/// A list's cards as [`CARDS`] reads them.
async fn cards(b: &Browser, list: &str) -> Vec<(String, String, u64)> {
    serde_json::from_value(b.js_with(CARDS, vec![serde_json::json!(list)]).await).unwrap()
}

#[tokio::test]
async fn before_the_module_arrives_the_first_papers_are_shown_as_the_app_will_show_them() {
    let b = Browser::start().await;
    b.server.hold("_bg.wasm");
    b.client.goto(&b.server.base).await.unwrap();
    b.wait_for(
        "document.documentElement.dataset.firstScreen === 'shown' \
         && document.querySelector('#first-screen article.paper').offsetHeight > 0",
        "the first screen, shown",
    )
    .await;
    let titles = strings(
        b.js("return [...document.querySelectorAll('#first-screen .paper-title')].map(e => e.textContent)")
            .await,
    );
    assert_eq!(titles, all_titles()[..12]);
    let written = cards(&b, "#first-screen .first-results").await;
    // The app, once there, draws the same cards where they were; a clamped
    // abstract (hidden past its fourth line) came only as far as the first
    // screen shows it, as tall as the whole one clamped.
    b.server.release();
    b.wait_for(
        "document.querySelector('.status[role=status]') !== null \
         && document.getElementById('first-screen') === null",
        "the app, in place of the first screen",
    )
    .await;
    b.wait_for_titles(&all_titles()).await;
    let drawn = cards(&b, ".results").await;
    let mut cut = 0;
    for ((html, text, height), (html0, text0, height0)) in drawn[..12].iter().zip(&written) {
        assert_eq!((html, height), (html0, height0));
        assert!(text.starts_with(text0.as_str()), "{text0}");
        assert!(
            text.is_empty() || text0.len() >= 500,
            "enough for four lines: {text0}"
        );
        cut += usize::from(text0.len() < text.len());
    }
    assert!(
        cut > 0,
        "the seeds' long abstracts come cut on the first screen"
    );
    b.close().await;
}

#[tokio::test]
async fn what_is_typed_before_the_app_starts_is_searched_when_it_does() {
    let b = Browser::start().await;
    b.server.hold("_bg.wasm");
    b.client.goto(&b.server.base).await.unwrap();
    b.wait_for(
        "document.documentElement.dataset.firstScreen === 'shown'",
        "the first screen",
    )
    .await;
    let field = b.client.find(Locator::Css("#q0")).await.unwrap();
    field.click().await.unwrap();
    field.send_keys("diffusion").await.unwrap();
    b.server.release();
    b.wait_for(
        "document.querySelector('.status[role=status]') !== null",
        "the app to start",
    )
    .await;
    b.wait_for_titles(&expected_titles("diffusion")).await;
    let field = b
        .js("const q = document.getElementById('q'); return [q.value, document.activeElement === q]")
        .await;
    assert_eq!(field, serde_json::json!(["diffusion", true]));
    // And it is in the address, as typing in the app's own field would be.
    b.wait_for("location.search === '?q=diffusion'", "the query in the URL")
        .await;
    b.close().await;
}

#[tokio::test]
async fn the_first_screen_is_shown_only_where_the_app_shows_the_same() {
    let b = Browser::start().await;
    let id = &engine().corpus.papers[3].id;
    assert_eq!(first_screen_state(&b, "").await, "shown");
    for path in [
        "?q=diffusion".to_string(),
        "?topic=Agents".to_string(),
        format!("#{id}"),
        "?embed=1".to_string(),
    ] {
        assert_eq!(first_screen_state(&b, &path).await, "hidden", "{path}");
    }
    // A reader who chose Chinese, or who has a reading list.
    for (key, value) in [
        ("paper-explorer-lang", "\"zh\""),
        ("paper-explorer-reading-list", "{\"papers\":[]}"),
    ] {
        b.js_with(
            "localStorage.clear(); localStorage.setItem(arguments[0], arguments[1]); return 0",
            vec![serde_json::json!(key), serde_json::json!(value)],
        )
        .await;
        assert_eq!(first_screen_state(&b, "").await, "hidden", "{key}");
    }
    b.js("localStorage.clear(); return 0").await;
    assert_eq!(first_screen_state(&b, "").await, "shown");
    b.close().await;
}
