//! Links a reader shares: a view filtered on one value of any facet,
//! reloaded, opened by a browser that never saw the page, and shown in a
//! wiki's frame, is the same papers, the ones the engine run natively
//! gives, and never a list to open (`list=` is the List facet's key; a
//! list opened in the page is `source=`).

use browser_tests::{engine, real_builds, Browser};
use explorer_core::{Engine, FacetKind, Sort};
use fantoccini::Locator;

/// Each facet the page shows (not the reading list's "Starred"), with its
/// first value and that value's count.
async fn first_values(b: &Browser) -> Vec<(String, String, u32)> {
    let v = b
        .js(
            "return [...document.querySelectorAll('fieldset[data-facet]')].flatMap(f => { \
             const l = f.querySelector('label'); \
             return l ? [[f.dataset.facet, l.querySelector('.facet-label').textContent, \
                          l.querySelector('.facet-count').textContent]] : []; })",
        )
        .await;
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let s = |i: usize| p[i].as_str().unwrap().to_string();
            (s(0), s(1), s(2).parse().unwrap())
        })
        .filter(|(key, _, _)| FacetKind::from_key(key).is_some())
        .collect()
}

/// The titles the engine ranks with one facet value picked and no query.
fn filtered_titles(e: &Engine, key: &str, label: &str) -> Vec<String> {
    let mut selection = e.no_selection();
    let kind = FacetKind::from_key(key).unwrap_or_else(|| panic!("a facet key: {key}"));
    let f = e.corpus.facet_index(kind).unwrap();
    let v = e.corpus.facets[f].values.iter().position(|v| v == label);
    selection[f].push(v.unwrap_or_else(|| panic!("{key}={label} is a value")) as u32);
    (e.search("", &selection, Sort::Relevance).docs().into_iter())
        .map(|d| e.corpus.papers[d as usize].title.clone())
        .collect()
}

/// Waits until the page (or the frame in focus) counts `count` papers and
/// shows the start of `want`.
async fn shows(b: &Browser, count: u32, want: &[String], what: &str) {
    b.wait_for(
        &format!(
            "document.querySelector('.status[role=status]')?.textContent.startsWith('{count} of ')"
        ),
        &format!("{count} papers counted, {what}"),
    )
    .await;
    b.wait_for_titles_prefix(want).await;
    // A filter, not a list to open: nothing compiling, failed or missing.
    assert_eq!(
        b.js("return document.querySelector('.open-list-error, .open-list progress') === null")
            .await,
        true,
        "{what}: a list being opened: {}",
        b.js("return document.querySelector('.open-list')?.textContent")
            .await
    );
}

/// For each facet of the page served at `prefix`: its first value ticked
/// as a reader does, then the address reloaded, opened with nothing kept
/// from before, and framed in a wiki page: each the same papers.
async fn every_facet_filter_reopens(b: &Browser, prefix: &str, e: &Engine) {
    b.open("").await;
    let facets = first_values(b).await;
    let keys: Vec<&str> = facets.iter().map(|f| f.0.as_str()).collect();
    assert!(
        keys.contains(&"list") && keys.contains(&"topic"),
        "{keys:?}"
    );
    for (key, label, count) in &facets {
        let want = filtered_titles(e, key, label);
        assert_eq!(
            want.len(),
            *count as usize,
            "{key}={label}: the page's count"
        );
        b.open("").await;
        let input = b
            .client
            .find(Locator::Css(&format!(
                "fieldset[data-facet='{key}'] label input"
            )))
            .await
            .unwrap();
        b.click_element(&input).await.unwrap();
        shows(b, *count, &want, &format!("{key}={label} ticked")).await;
        b.wait_for(
            &format!("location.search.includes('{key}=')"),
            &format!("{key}= in the address"),
        )
        .await;
        let link = b.location_search().await;

        b.open(&link).await;
        shows(b, *count, &want, &format!("{link} reloaded")).await;

        b.js("localStorage.clear(); sessionStorage.clear(); return 0")
            .await;
        b.open(&link).await;
        shows(b, *count, &want, &format!("{link} with nothing kept")).await;

        let src = format!("{prefix}{link}&embed=1");
        let host = format!(
            "<!doctype html><title>Wiki</title><iframe src=\"{}\" title=\"Papers\" \
             style=\"width:900px;height:700px;border:0\"></iframe>",
            src.replace('&', "&amp;").replace('"', "&quot;")
        );
        b.open_host_page(&format!("/lab/shared-{key}.html"), &host)
            .await;
        b.client.enter_frame(Some(0)).await.unwrap();
        shows(b, *count, &want, &format!("{link} in a frame")).await;
        b.client.enter_parent_frame().await.unwrap();
    }
}

#[tokio::test]
async fn a_filter_of_each_facet_reopens_as_shared_on_the_seed_list() {
    let b = Browser::start().await;
    every_facet_filter_reopens(&b, "/", engine()).await;
    b.close().await;
}

#[tokio::test]
async fn a_filter_of_each_facet_reopens_as_shared_on_the_real_list() {
    let build = &real_builds()[0];
    let b = Browser::launch_dist(&build.dist, "/", (1280, 900), true).await;
    every_facet_filter_reopens(&b, "/", &build.engine).await;
    b.close().await;
}
