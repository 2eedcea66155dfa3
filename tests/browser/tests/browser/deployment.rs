//! How the built app is deployed and used: from a sub-path of a wiki, on a
//! phone-sized screen, and without a single request leaving its origin.

use browser_tests::{all_titles, engine, expected_titles, Browser};
use fantoccini::Locator;

#[tokio::test]
async fn works_from_a_sub_path() {
    let b = Browser::launch("/wiki/tools/iclr/", (1280, 900)).await;
    assert!(b.server.base.ends_with("/wiki/tools/iclr/"));
    b.open("?q=unlearning").await;
    b.wait_for_titles(&expected_titles("unlearning")).await;
    b.type_query(" -video").await;
    b.wait_for_titles(&expected_titles("unlearning -video"))
        .await;
    // Every asset was fetched from inside the folder.
    let reqs = b.server.requests.lock().unwrap().clone();
    assert!(reqs.iter().any(|r| r.ends_with(".wasm")));
    assert!(
        reqs.iter().all(|r| r.starts_with("/wiki/tools/iclr/")),
        "{reqs:?}"
    );
    assert!(b
        .client
        .current_url()
        .await
        .unwrap()
        .path()
        .starts_with("/wiki/tools/iclr/"));
    b.close().await;
}

#[tokio::test]
async fn nothing_is_requested_from_another_origin() {
    let b = Browser::start().await;
    b.open("?q=diffusion").await;
    b.wait_for_titles(&expected_titles("diffusion")).await;
    // Expand a paper with links and formulas, and use the help popover.
    b.click(".results article.paper .expand").await;
    b.click(".help summary").await;
    let origins = b
        .js("return [location.href, ...performance.getEntriesByType('resource').map(e => e.name)].map(u => new URL(u).origin)")
        .await;
    let origins = browser_tests::strings(origins);
    assert!(origins.len() > 3, "{origins:?}");
    assert!(
        origins.iter().all(|o| *o == origins[0]),
        "a request left the origin: {origins:?}"
    );
    b.close().await;
}

#[tokio::test]
async fn installs_under_the_corpus_name_with_png_icons() {
    let b = Browser::start().await;
    b.open("").await;
    // What an install prompt reads: the manifest the page links, and every
    // icon it lists, decoded.
    let m = b
        .js("return (async () => {
            const href = document.querySelector('link[rel=manifest]').href;
            const m = await (await fetch(href)).json();
            const icons = await Promise.all(m.icons.map(async (i) => {
                const r = await fetch(new URL(i.src, href));
                const size = i.type === 'image/png'
                    ? await createImageBitmap(await r.blob()).then((b) => b.width + 'x' + b.height)
                    : i.sizes;
                return i.src + ' ' + r.status + ' ' + size;
            }));
            return { name: m.name, short: m.short_name, start: m.start_url, icons };
        })()")
        .await;
    assert_eq!(m["name"], engine().corpus.title());
    assert_eq!(m["short"], engine().corpus.lists[0].name);
    assert_eq!(m["start"], "./");
    assert_eq!(
        browser_tests::strings(m["icons"].clone()),
        [
            "icon.svg 200 any",
            "icon-192.png 200 192x192",
            "icon-512.png 200 512x512"
        ]
    );
    b.close().await;
}

#[tokio::test]
async fn fits_a_phone_screen() {
    let b = Browser::launch("/", (375, 812)).await;
    b.open("").await;
    let width = b.js("return innerWidth").await.as_u64().unwrap();
    assert!(width <= 400, "viewport is {width}px wide");
    b.wait_for_titles(&all_titles()).await;
    // Nothing scrolls sideways.
    let overflow = b
        .js("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        .await;
    assert_eq!(overflow, 0);
    // The facets start collapsed behind a button that opens them.
    let shown = "getComputedStyle(document.querySelector('.facet-groups')).display !== 'none'";
    assert_eq!(b.js(&format!("return {shown}")).await, false);
    let toggle = b.client.find(Locator::Css(".facets-toggle")).await.unwrap();
    assert_eq!(
        toggle.attr("aria-expanded").await.unwrap().as_deref(),
        Some("false")
    );
    toggle.click().await.unwrap();
    b.wait_for(shown, "the facets to open").await;
    assert_eq!(
        toggle.attr("aria-expanded").await.unwrap().as_deref(),
        Some("true")
    );
    let overflow = b
        .js("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        .await;
    assert_eq!(overflow, 0);
    b.close().await;
}

#[tokio::test]
async fn without_javascript_every_paper_is_still_listed() {
    let b = Browser::launch_with("/", (1280, 900), false).await;
    b.client.goto(&b.server.base).await.unwrap();
    let note = b.text_of(".noscript-note").await;
    assert!(note.contains("JavaScript and WebAssembly"), "{note}");
    assert_eq!(b.client.title().await.unwrap(), engine().corpus.title());
    // The explorer's page links to a plain one with every paper.
    b.follow(".noscript-note a").await;
    let titles = b.texts_of(".noscript article h2").await;
    let want: Vec<String> = engine()
        .corpus
        .papers
        .iter()
        .map(|p| p.title.clone())
        .collect();
    assert_eq!(titles, want);
    // The abstracts are there with their links, as text a crawler can read.
    let links = b
        .client
        .find_all(Locator::Css(".noscript article a[href^='https://']"))
        .await
        .unwrap();
    assert!(links.len() >= 5);
    assert_eq!(b.client.title().await.unwrap(), engine().corpus.title());
}

#[tokio::test]
async fn the_single_file_build_opens_from_disk() {
    let file = browser_tests::dist_dir().join("explorer-single-file.html");
    assert!(
        file.is_file(),
        "the release build writes {}",
        file.display()
    );
    // Alone in a folder of its own: nothing beside it to lean on.
    let dir = std::env::temp_dir().join(format!("explorer-single-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join("iclr-papers.html");
    std::fs::copy(&file, &copy).unwrap();

    let b = Browser::start().await;
    b.client
        .goto(&format!("file://{}", copy.display()))
        .await
        .unwrap();
    b.wait_for(
        "document.querySelector('.status[role=status]') !== null",
        "the app from file://",
    )
    .await;
    b.wait_for_titles(&all_titles()).await;
    b.type_query("\"catastrophic forgetting\"").await;
    b.wait_for_titles(&expected_titles("\"catastrophic forgetting\""))
        .await;
    assert!(!b.marks(".abstract").await.is_empty());
    let resources = b
        .js("return performance.getEntriesByType('resource').map(e => e.name)")
        .await;
    assert_eq!(
        resources,
        serde_json::json!([]),
        "a single file loads nothing else"
    );
    // Exporting, whose code is a chunk of the module fetched on first use,
    // works from the one file too: the chunk is in it.
    b.capture_downloads().await;
    b.click(".export summary").await;
    b.click(".export button[data-format=\"bib\"]").await;
    let bib = b.downloads(1).await.remove(0);
    let shown = expected_titles("\"catastrophic forgetting\"");
    assert_eq!(bib.matches("@misc{").count(), shown.len(), "{bib}");
    // A shared list's link works there too (here arriving as a new fragment).
    let papers = &engine().corpus.papers;
    let list = explorer_core::view::ReadingList {
        entries: [7, 3]
            .iter()
            .map(|&i: &usize| explorer_core::view::Entry {
                id: papers[i].id.clone(),
                title: String::new(),
                note: String::new(),
            })
            .collect(),
    };
    let fragment = explorer_core::view::shared_list::to_fragment(&list, false);
    b.clear_query().await;
    b.client
        .goto(&format!("file://{}#{fragment}", copy.display()))
        .await
        .unwrap();
    let want: Vec<String> = all_titles()
        .into_iter()
        .filter(|t| *t == papers[3].title || *t == papers[7].title)
        .collect();
    b.wait_for_titles(&want).await;
    drop(b);
    std::fs::remove_dir_all(&dir).unwrap();
}
