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
    window.heights.push(e.data.height);
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
    b.wait_for(
        "location.search.includes('embed=1')",
        "embed=1 in the address",
    )
    .await;
    b.client.enter_parent_frame().await.unwrap();

    // The frame is as tall as what it shows: no inner scrollbar.
    b.wait_for(
        &format!("window.heights[window.heights.length - 1] === {inner}"),
        "the new height",
    )
    .await;
    let frame_h = b
        .js("return document.getElementById('explorer').getBoundingClientRect().height")
        .await
        .as_f64()
        .unwrap();
    assert_eq!(frame_h.round() as u64, inner);
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
