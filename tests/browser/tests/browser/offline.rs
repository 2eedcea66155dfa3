//! Offline after the first load, and clean updates: the service worker
//! generated at build time precaches the build, and keeps the files fetched
//! on first use (the meaning file, the packs of postings a query reads)
//! once they are.

use std::sync::atomic::Ordering;

use browser_tests::{expected_titles, Browser};
use fantoccini::Locator;

/// The files of a build, each with its size.
fn build_files(dist: &std::path::Path) -> Vec<(String, u64)> {
    std::fs::read_dir(dist)
        .unwrap()
        .map(|f| f.unwrap())
        .map(|f| {
            let size = f.metadata().unwrap().len();
            (f.file_name().to_string_lossy().into_owned(), size)
        })
        .collect()
}

/// The real list's build (as records) opened, once its service worker
/// has taken control.
async fn open_real_list_controlled() -> (&'static browser_tests::RealBuild, Browser) {
    let build = &browser_tests::real_builds()[0];
    let b = Browser::launch_dist(&build.dist, "/", (1280, 900), true).await;
    b.open("").await;
    b.wait_for_service_worker().await;
    (build, b)
}

#[tokio::test]
async fn searches_offline_after_one_visit() {
    let b = Browser::start().await;
    b.open("").await;
    b.wait_for_service_worker().await;
    // One query online: the meaning file, fetched on first use, is kept.
    b.type_query("wiping recollections").await;
    b.wait_for(
        "document.querySelector('.related .related-list .related-title') !== null",
        "papers related by meaning, online",
    )
    .await;

    // The network goes away; the page reloads and searches as before.
    b.server.offline.store(true, Ordering::SeqCst);
    b.client
        .goto(&format!("{}?q=unlearning", b.server.base))
        .await
        .unwrap();
    b.wait_for(
        "document.querySelector('.status[role=status]') !== null",
        "the app, offline",
    )
    .await;
    b.wait_for_titles(&expected_titles("unlearning")).await;
    b.type_query(" OR diffusion").await;
    b.wait_for_titles(&expected_titles("unlearning OR diffusion"))
        .await;
    assert!(!b.marks(".abstract").await.is_empty());
    // Meaning search too: its file, fetched on first use, was kept.
    b.clear_query().await;
    b.type_query("wiping recollections").await;
    b.wait_for(
        "[...document.querySelectorAll('.related .related-title')].some(t => t.textContent.startsWith('REM:'))",
        "papers related by meaning, offline",
    )
    .await;
    b.close().await;
}

#[tokio::test]
async fn a_new_build_waits_for_the_users_click() {
    let b = Browser::start().await;
    b.open("").await;
    b.wait_for_service_worker().await;
    let caches = "return caches.keys()";
    let first = browser_tests::strings(b.js(caches).await);
    assert_eq!(first.len(), 1, "{first:?}");
    assert!(b.client.find(Locator::Css(".update-banner")).await.is_err());

    // A new deploy: the worker script changes. The page keeps running the
    // old build and offers the new one.
    *b.server.next_build.lock().unwrap() = "next".into();
    b.client.refresh().await.unwrap();
    b.wait_for(
        "document.querySelector('.update-banner') !== null",
        "the update notice",
    )
    .await;
    assert_eq!(
        b.js("return document.querySelector('.update-banner').getAttribute('role')")
            .await,
        "status"
    );

    b.click(".update-banner button").await;
    // The page reloads under the new worker; no notice, still one build cached.
    b.wait_for(
        "document.querySelector('.status[role=status]') !== null && document.querySelector('.update-banner') === null && performance.getEntriesByType('navigation')[0].type === 'reload'",
        "the reload into the new version",
    )
    .await;
    // The new build's cache replaced the old one.
    b.wait_for_one_build_cache(caches, "paper-explorer-next-")
        .await;
    b.close().await;
}

/// A list too large to precache whole (the real list: its postings come
/// in some seventy packs, 2.5 MB) keeps the packs its reader's queries
/// fetched: such a query is answered offline as online, and a query that
/// needs a pack never fetched says so instead of finding nothing.
#[tokio::test]
async fn a_large_list_searches_offline_what_its_reader_fetched() {
    let (build, b) = open_real_list_controlled().await;
    let query = "neural machine translation";
    let want = browser_tests::ranked_titles(&build.engine, query);
    b.type_query(query).await;
    b.wait_for_titles_prefix(&want).await;
    // The reader has fetched what the first screen shows once no card on
    // it waits for its title or abstract (the first titles shown can come
    // before the rest's packs).
    let en = &explorer_core::view::EN;
    b.wait_for(
        &format!(
            "document.querySelectorAll('.results article.paper').length > 0 \
             && ![...document.querySelectorAll('.results article.paper')].some(c => \
             c.textContent.includes({:?}) || c.textContent.includes({:?}))",
            en.loading_title, en.loading_abstract
        ),
        "every card on the first screen whole",
    )
    .await;
    let packs = build_files(&build.dist)
        .iter()
        .filter(|(name, _)| name.starts_with("postings-"))
        .count();
    let fetched = b
        .js("return new Set(performance.getEntriesByType('resource').map(r => r.name).filter(n => n.includes('/postings-'))).size")
        .await
        .as_u64()
        .unwrap() as usize;
    assert!(
        fetched > 0 && fetched * 3 < packs,
        "{fetched} of {packs} packs fetched for one query"
    );

    b.server.offline.store(true, Ordering::SeqCst);
    b.client
        .goto(&format!("{}?q=neural+machine+translation", b.server.base))
        .await
        .unwrap();
    b.wait_for_titles_prefix(&want).await;
    // `sarcasm`'s words are in packs no query fetched.
    b.clear_query().await;
    b.type_query("sarcasm").await;
    let failed = explorer_core::view::EN.index_part_failed;
    b.wait_for(
        &format!("document.querySelector('.status[role=status]').textContent === {failed:?}"),
        "the status saying part of the index is not there",
    )
    .await;
    b.close().await;
}

/// What "save for offline use" fetches at most from the build in `dist`,
/// once the first screen came: every pack of postings and of the word
/// list, the meaning file and its lists of paper vectors, the map's, the
/// tags' and the title order's files, and the packs of the papers' titles
/// and bodies but the first screen's.
fn fetched_on_use(dist: &std::path::Path) -> u64 {
    let kinds = [
        "postings-",
        "words-",
        "meaning-",
        "vectors-",
        "map-",
        "tags-",
        "title-order-",
    ];
    let files: u64 = build_files(dist)
        .iter()
        .filter(|(name, _)| kinds.iter().any(|kind| name.starts_with(kind)))
        .map(|(_, size)| size)
        .sum();
    let corpus = browser_tests::build_file(dist, "corpus");
    let head = explorer_core::Corpus::from_papers_part(&std::fs::read(dist.join(corpus)).unwrap())
        .unwrap();
    assert!(
        !head.body_packs.is_empty(),
        "a list this long has its bodies in packs"
    );
    assert!(
        !head.title_packs().is_empty(),
        "a list this long has its titles in packs"
    );
    let not_first = |packs: explorer_core::model::PaperPacks,
                     of: &dyn Fn(usize) -> Option<usize>| {
        let first: std::collections::HashSet<usize> = (0..explorer_core::view::FIRST_SCREEN)
            .filter_map(of)
            .collect();
        packs
            .iter()
            .enumerate()
            .filter(|(k, _)| !first.contains(k))
            .map(|(_, r)| u64::from(r.len))
            .sum::<u64>()
    };
    files
        + not_first(head.body_packs, &|d| head.body_pack_of(d))
        + not_first(head.title_packs(), &|d| head.title_pack_of(d))
}

/// "Save for offline use" on a list too large to precache: the offer says
/// first how much it fetches at most (every pack of postings, of the word
/// list, titles and bodies, the topic map's, the tags' and the title order's files, the
/// meaning file and its lists of paper vectors), shows its progress,
/// and then a query no one made online is answered offline, its map too.
#[tokio::test]
async fn a_large_list_saved_for_offline_use_answers_any_query_offline() {
    let (build, b) = open_real_list_controlled().await;
    let fetched_on_use = fetched_on_use(&build.dist);
    let en = &explorer_core::view::EN;
    let offer = (en.offline_save)(&format!("{:.1} MB", fetched_on_use as f64 / 1e6));
    b.wait_for(
        &format!("document.querySelector('.offline-save button')?.textContent === {offer:?}"),
        "the offer, with the size it fetches",
    )
    .await;
    b.click(".offline-save button").await;
    b.wait_for(
        &format!(
            "document.querySelector('.offline-save [role=status]')?.textContent === {:?}",
            en.offline_saved
        ),
        "saved for offline use",
    )
    .await;

    b.server.offline.store(true, Ordering::SeqCst);
    b.client
        .goto(&format!("{}?q=sarcasm+detection", b.server.base))
        .await
        .unwrap();
    let want = browser_tests::ranked_titles(&build.engine, "sarcasm detection");
    assert!(!want.is_empty());
    b.wait_for_titles_prefix(&want).await;
    b.click("#topic-map-toggle").await;
    b.wait_for(
        &format!(
            "document.querySelectorAll('svg.map .dot').length === {}",
            build.engine.len()
        ),
        "the map, offline",
    )
    .await;
    b.close().await;
}

/// A first visit downloads the papers and the WebAssembly module once: the
/// service worker precaches what the page fetched just before it from the
/// browser's HTTP cache (files named for their content cannot be stale),
/// not from the network a second time. The page itself is asked for twice
/// (its navigation, and the worker's copy, which must be this build's:
/// revalidated, as a static host answers, not downloaded again), never
/// a third time as index.html; the installed app's icons and the wiki's
/// embed.js, which nothing offline reads through the worker, are not
/// downloaded for it.
#[tokio::test]
async fn a_first_visit_downloads_the_papers_and_the_module_once() {
    let b = Browser::start().await;
    b.open("").await;
    b.wait_for_service_worker().await;
    let dist = browser_tests::dist_dir();
    let files = build_files(&dist);
    let module = |app: &str| {
        let found = files.iter().map(|(name, _)| name);
        let mut found = found.filter(|n| n.starts_with(app) && n.ends_with("_bg.wasm"));
        found.next().unwrap().clone()
    };
    let requests = b.server.requests.lock().unwrap().clone();
    let times = |file: &str| requests.iter().filter(|r| r.ends_with(file)).count();
    for file in [
        browser_tests::build_file(&dist, "corpus"),
        module("paper-explorer-"),
    ] {
        assert_eq!(times(&file), 1, "{file} downloaded: {requests:?}");
    }
    let page = (requests.iter())
        .filter(|r| r.split('?').next() == Some("/") || r.ends_with("/index.html"))
        .count();
    assert_eq!(page, 2, "the page downloaded: {requests:?}");
    let sent = b.server.sent.lock().unwrap().clone();
    let page: Vec<usize> = (sent.iter())
        .filter(|(_, _, path)| path == "/")
        .map(|&(_, bytes, _)| bytes)
        .collect();
    assert!(
        page.len() == 2 && page[1] < 1000,
        "the worker's copy of the page sent again in full: {page:?} bytes"
    );
    // An icon the browser fetches itself (Firefox reads the touch icon)
    // comes once, not again for the worker.
    for file in ["icon-192.png", "icon-512.png"] {
        assert!(times(file) <= 1, "{file} downloaded: {requests:?}");
    }
    assert_eq!(times("embed.js"), 0, "embed.js downloaded: {requests:?}");
    // The page's compiler comes only when a list is opened: a visit that
    // opens none, service worker and all, never downloads it.
    let compiler = module("compiler-");
    assert_eq!(times(&compiler), 0, "{compiler} downloaded: {requests:?}");
    // Nor the module's chunks (opening a list, exporting): each comes when
    // its feature is first used.
    let chunks = (files.iter().map(|(name, _)| name))
        .filter(|f| f.starts_with("split-") && f.ends_with(".wasm"));
    assert!(
        chunks.clone().count() >= 2,
        "the module's chunks: {files:?}"
    );
    for chunk in chunks {
        assert_eq!(times(chunk), 0, "{chunk} downloaded: {requests:?}");
    }
    b.close().await;
}
