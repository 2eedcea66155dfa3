//! Embedding in a lab wiki: a page of the test suite's own hosts the app in
//! an iframe under a sub-path, searches inside it, and sizes the frame from
//! the height the app reports.

use browser_tests::{expected_titles, Browser};

const HOST: &str = r#"<!doctype html><html><head><title>Lab wiki</title></head><body>
<h1>Reading group</h1>
<iframe id="explorer" src="/wiki/tools/iclr/?embed=1" title="ICLR explorer" style="width:900px;height:300px;border:0"></iframe>
<script>
window.heights = [];
addEventListener('message', function (e) {
  if (e.data && e.data.type === 'paper-explorer:height') {
    window.heights.push(e.data);
    document.getElementById('explorer').style.height = e.data.height + 'px';
  }
});
</script></body></html>"#;

#[tokio::test]
async fn a_wiki_page_embeds_and_sizes_the_explorer() {
    let b = Browser::launch("/wiki/tools/iclr/", (1280, 900)).await;
    b.open_host_page("/lab/reading-group.html", HOST).await;
    b.wait_for(
        "window.heights.length > 0",
        "a height message from the frame",
    )
    .await;

    // Search inside the frame.
    b.client.enter_frame(Some(0)).await.unwrap();
    b.wait_for(
        "document.querySelector('.status[role=status]') !== null",
        "the app in the frame",
    )
    .await;
    assert_eq!(
        b.js("return document.documentElement.classList.contains('embedded')")
            .await,
        true
    );
    b.type_query("unlearning").await;
    b.wait_for_titles(&expected_titles("unlearning")).await;
    let inner = b
        .js("return document.documentElement.scrollHeight")
        .await
        .as_u64()
        .unwrap();
    let screen = b.js("return screen.availHeight").await.as_u64().unwrap();
    b.wait_for(
        "location.search.includes('embed=1')",
        "embed=1 in the address",
    )
    .await;
    b.client.enter_parent_frame().await.unwrap();

    // The frame is as tall as what it shows, up to the screen's height:
    // no inner scrollbar while it fits.
    b.wait_for(
        &format!("window.heights[window.heights.length - 1].contentHeight === {inner}"),
        "the new height",
    )
    .await;
    let frame_h = b
        .js("return document.getElementById('explorer').getBoundingClientRect().height")
        .await
        .as_f64()
        .unwrap();
    assert_eq!(frame_h.round() as u64, inner.min(screen.max(320)));
    b.close().await;
}

#[tokio::test]
async fn the_share_panel_gives_a_link_and_a_snippet() {
    let b = Browser::start().await;
    b.open("?q=diffusion").await;
    b.click(".share summary").await;
    b.wait_for(
        "document.getElementById('share-link').value !== ''",
        "the link",
    )
    .await;
    let link = b
        .js("return document.getElementById('share-link').value")
        .await;
    assert_eq!(
        link.as_str().unwrap(),
        format!("{}?q=diffusion", b.server.base)
    );
    let snippet = b
        .js("return document.getElementById('share-embed').value")
        .await;
    let snippet = snippet.as_str().unwrap();
    assert!(
        snippet.starts_with(&format!(
            "<iframe src=\"{}?q=diffusion&amp;embed=1\"",
            b.server.base
        )),
        "{snippet}"
    );
    assert!(snippet.contains("paper-explorer:height"));
    // And the drop-in element, with the view as its attributes.
    let element = b
        .js("return document.getElementById('share-element').value")
        .await;
    assert_eq!(
        element.as_str().unwrap(),
        format!(
            "<script src=\"{0}embed.js\" defer></script>\n<paper-explorer src=\"{0}\" query=\"diffusion\"></paper-explorer>",
            b.server.base
        )
    );
    // The link follows the view.
    b.type_query(" models").await;
    b.wait_for(
        "document.getElementById('share-link').value.endsWith('?q=diffusion+models')",
        "the link to follow",
    )
    .await;
    b.close().await;
}

/// What a wiki page adds to hear the explorer's height messages.
const HEARD: &str = "<script>window.heights = []; addEventListener('message', function (e) { \
    if (e.data && e.data.type === 'paper-explorer:height') window.heights.push(e.data); });</script>";

/// A long list framed in a wiki page (`host`, served at `path`), whose
/// frame is ready when `ready` (a script's condition in it) holds: the
/// frame is no taller than the wiki's window, and the reader, scrolling
/// inside it far down the list, sees cards drawn where they look.
pub async fn a_long_list_scrolls_inside_its_frame(
    b: &Browser,
    path: &str,
    host: &str,
    ready: &str,
) {
    b.open_host_page(path, host).await;
    // WebKit's driver finds no frame until its page has begun to load.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while let Err(e) = b.client.enter_frame(Some(0)).await {
        assert!(
            std::time::Instant::now() < deadline,
            "no frame in {path}: {e}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    b.wait_for(ready, "the list in the frame").await;
    b.client.enter_parent_frame().await.unwrap();
    b.wait_for(
        "window.heights.length > 0 && window.heights[window.heights.length - 1].contentHeight > 20 * innerHeight",
        "the frame saying its content is many screens tall",
    )
    .await;
    b.wait_for(
        "(() => { const h = document.querySelector('iframe').getBoundingClientRect().height; \
           const last = window.heights[window.heights.length - 1]; \
           return h > 200 && h <= innerHeight && Math.abs(h - Math.min(last.height, innerHeight)) < 1; })()",
        "the frame sized by the message, within the wiki's window",
    )
    .await;
    b.client.enter_frame(Some(0)).await.unwrap();
    // Half way down and near the end: far below the frame's first screen.
    for at in [0.5, 0.9] {
        let depth = b
            .js(&format!(
                "const y = Math.round(document.documentElement.scrollHeight * {at}); window.scrollTo(0, y); return y"
            ))
            .await;
        let depth = depth.as_i64().unwrap();
        assert!(depth > 20_000, "the list is long: {depth} px half way");
        let drawn = format!(
            "scrollY > {depth} / 2 && [...document.querySelectorAll('.results article.paper')]\
             .some(a => {{ const r = a.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; }})"
        );
        assert!(
            paced(b, &drawn).await,
            "cards drawn in the frame's view, {depth} px down: {}",
            b.js("return [scrollY, document.querySelectorAll('.results article.paper').length]")
                .await
        );
    }
    b.client.enter_parent_frame().await.unwrap();
}

/// Whether `expr` comes true (within 20 s), looked at four times a
/// second: in WebKit, scripts run in a frame back to back (the harness's
/// 25 ms poll) keep it from drawing the cards that follow its scroll,
/// which a reader's page draws within a frame or two.
async fn paced(b: &Browser, expr: &str) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
        if b.js(&format!("return !!({expr})")).await == serde_json::json!(true) {
            return true;
        }
    }
    false
}

/// The real list (3,891 papers) in a wiki page by the drop-in element;
/// whole with `max-height="none"`. (This test and the snippet's are not
/// run in WebKit: docs/testing.md, "Per-engine skips".)
#[tokio::test]
async fn a_long_list_embedded_by_the_element_stays_usable() {
    let build = &browser_tests::real_builds()[0];
    let b = Browser::launch_dist(&build.dist, "/wiki/tools/acl/", (1280, 900), true).await;
    let element = format!(
        "<!doctype html><title>Lab wiki</title><h1>ACL papers</h1>{HEARD}\
         <script src=\"/wiki/tools/acl/embed.js\"></script>\
         <paper-explorer src=\"/wiki/tools/acl/\"></paper-explorer>"
    );
    a_long_list_scrolls_inside_its_frame(&b, "/lab/acl-element.html", &element, REAL_READY).await;
    // A host that asks for the whole height (`max-height="none"`) gets it.
    let whole = element.replace("<paper-explorer ", "<paper-explorer max-height=\"none\" ");
    b.open_host_page("/lab/acl-whole.html", &whole).await;
    b.wait_for(
        "window.heights.length > 0 && Math.abs(document.querySelector('iframe').getBoundingClientRect().height \
           - window.heights[window.heights.length - 1].contentHeight) < 1",
        "the frame as tall as its content",
    )
    .await;
    b.close().await;
}

/// The real list framed by the share panel's snippet.
#[tokio::test]
async fn a_long_list_embedded_by_the_snippet_stays_usable() {
    let build = &browser_tests::real_builds()[0];
    let b = Browser::launch_dist(&build.dist, "/wiki/tools/acl/", (1280, 900), true).await;
    b.open("").await;
    b.click(".share summary").await;
    b.wait_for(
        "document.getElementById('share-embed').value !== ''",
        "the snippet",
    )
    .await;
    let snippet = b
        .js("return document.getElementById('share-embed').value")
        .await;
    let snippet = format!(
        "<!doctype html><title>Lab wiki</title><h1>ACL papers</h1>{HEARD}{}",
        snippet.as_str().unwrap()
    );
    a_long_list_scrolls_inside_its_frame(&b, "/lab/acl-snippet.html", &snippet, REAL_READY).await;
    b.close().await;
}

/// The real list counted whole in its frame.
const REAL_READY: &str =
    "document.querySelector('.status[role=status]')?.textContent.startsWith('3891 of 3891')";
