//! Find by meaning in the page: a query in other words than the abstracts'
//! lists the paper it means under "Related by meaning", with the words that
//! bring it, and without highlights it did not earn.

use browser_tests::{engine, strings, Browser};

/// No paper has either word: the page lists papers close in meaning.
const QUERY: &str = "wiping recollections";

/// Whether the page has asked the server for a path containing `what`.
fn fetched(b: &Browser, what: &str) -> bool {
    b.server
        .requests
        .lock()
        .unwrap()
        .iter()
        .any(|r| r.contains(what))
}

/// Opens the page on [`QUERY`] and waits for its related papers.
async fn open_paraphrase(b: &Browser) {
    b.open(&format!("?q={}", QUERY.replace(' ', "+"))).await;
    b.wait_for(
        "document.querySelector('.related .related-list .related-title') !== null",
        "the related papers",
    )
    .await;
}

/// Waits until the related list shows exactly these titles, in order.
async fn wait_for_related(b: &Browser, want: &[String], what: &str) {
    b.wait_for(
        &format!(
            "JSON.stringify([...document.querySelectorAll('.related .related-title')].map(e => e.textContent)) === {:?}",
            serde_json::to_string(want).unwrap()
        ),
        what,
    )
    .await;
}

/// The papers the engine matches for `q`, nothing selected.
fn matches(q: &str) -> Vec<u32> {
    let e = engine();
    e.search(q, &e.no_selection(), Default::default()).docs()
}

/// The titles the engine lists as related to `q`, nothing selected, below
/// its matches.
fn related_titles(q: &str) -> Vec<String> {
    let e = engine();
    e.related(q, &e.no_selection(), Default::default(), &matches(q), 10)
        .iter()
        .map(|r| e.corpus.papers[r.doc as usize].title.clone())
        .collect()
}

/// The meaning file is most of the build's bytes: a reader who opens the
/// page and only browses never downloads it; the first query fetches it.
#[tokio::test]
async fn the_meaning_file_is_fetched_when_the_reader_first_types() {
    let b = Browser::start().await;
    b.open("").await;
    b.wait_for_titles(&browser_tests::all_titles()).await;
    // The index comes once the first results are painted: wait for it, and
    // half a second more, the page left alone.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !fetched(&b, "/index-") {
        assert!(
            std::time::Instant::now() < deadline,
            "the index was never fetched"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert!(
        !fetched(&b, "/meaning-"),
        "the meaning file came before any query"
    );
    // The reader types: related papers come, from the meaning file.
    b.type_query(QUERY).await;
    b.wait_for(
        "document.querySelector('.related .related-list .related-title') !== null",
        "the related papers",
    )
    .await;
    assert!(fetched(&b, "/meaning-"));
    b.close().await;
}

/// A reader who types before the index is in (a slow link): the meaning
/// file waits for the index, so that the two do not share the link while
/// the words-only answer needs only the index.
#[tokio::test]
async fn a_query_typed_before_the_index_fetches_the_meaning_file_after_it() {
    let index = browser_tests::build_file(&browser_tests::dist_dir(), "index");
    let b = Browser::start().await;
    b.server.hold(&index);
    b.open("").await;
    b.type_query(QUERY).await;
    // The page says it waits for the index.
    let loading = explorer_core::view::EN.index_loading;
    b.wait_for(
        &format!(
            "document.querySelector('.status[role=status]')?.textContent.includes('{loading}')"
        ),
        "the status to say the index is loading",
    )
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    assert!(fetched(&b, "/index-"), "the index was asked for");
    assert!(
        !fetched(&b, "/meaning-"),
        "the meaning file was fetched while the index was on its way"
    );
    b.server.release();
    b.wait_for(
        "document.querySelector('.related .related-list .related-title') !== null",
        "the related papers, once the index is in",
    )
    .await;
    assert!(fetched(&b, "/meaning-"));
    b.close().await;
}

#[tokio::test]
async fn a_paraphrase_lists_the_paper_it_means_under_related_by_meaning() {
    let b = Browser::start().await;
    open_paraphrase(&b).await;
    // No paper has all the query's words: none matches, and the paper on
    // machine unlearning is among the first three related ones (first is a
    // paper on catastrophic forgetting: the table trained on research
    // text reads "forget" so; the full transformer puts unlearning first).
    assert!(b.titles().await.is_empty(), "{:?}", b.titles().await);
    let related = strings(
        b.js("return [...document.querySelectorAll('.related .related-title')].map(e => e.textContent)")
            .await,
    );
    let rem = related.iter().position(|t| t.starts_with("REM:"));
    assert!(rem.is_some_and(|r| r < 3), "{related:?}");
    assert!(related.len() <= 10, "{related:?}");
    assert_eq!(
        b.js("return document.querySelector('#related-heading').textContent")
            .await,
        "Related by meaning"
    );
    let via = b
        .js("return document.querySelector('.related .related-words').textContent")
        .await;
    assert!(!via.as_str().unwrap().is_empty(), "{via}");
    // Opened, the paper's card shows its abstract, and the words of the
    // query are not highlighted in a paper found by meaning.
    b.click(".related summary").await;
    b.wait_for(
        "document.querySelector('.related article.paper .abstract') !== null",
        "the related paper's card",
    )
    .await;
    assert_eq!(
        b.js("return document.querySelectorAll('.related mark').length")
            .await,
        0
    );
    b.close().await;
}

#[tokio::test]
async fn a_query_that_matches_lists_related_papers_after_its_matches() {
    let b = Browser::start().await;
    b.open("?q=unlearning").await;
    b.wait_for(
        "document.querySelector('.related .related-title') !== null",
        "the related papers",
    )
    .await;
    let matches = b.titles().await;
    assert!(!matches.is_empty());
    let related = strings(
        b.js("return [...document.querySelectorAll('.related .related-title')].map(e => e.textContent)")
            .await,
    );
    // None of the matches is listed again.
    for t in &related {
        assert!(!matches.contains(t), "{t} is a match and related");
    }
    // The list comes after the matches in the page.
    assert_eq!(
        b.js("return !!(document.querySelector('.results').compareDocumentPosition(document.querySelector('.related')) & Node.DOCUMENT_POSITION_FOLLOWING)")
            .await,
        true
    );
    b.close().await;
}

/// Typing on while a few papers match: the related list never vanishes
/// for a frame, and no frame lists a paper among both the matches and the
/// related papers. Watched before every paint, as the reader sees it.
#[tokio::test]
async fn typing_on_keeps_the_related_list_and_never_shows_a_match_in_it() {
    let e = engine();
    // "unlearning evaluation" matches one of the two unlearning papers and
    // lists the other under related; "unlearning " matches both.
    let (from, to) = ("unlearning evaluation", "unlearning ");
    let other = matches(to)
        .into_iter()
        .find(|d| !matches(from).contains(d))
        .unwrap();
    assert!(
        e.related(
            from,
            &e.no_selection(),
            Default::default(),
            &matches(from),
            10
        )
        .iter()
        .any(|r| r.doc == other),
        "the corpus no longer makes the case this test needs"
    );
    let want = related_titles(to);
    let b = Browser::start().await;
    b.open(&format!("?q={}", from.replace(' ', "+"))).await;
    b.wait_for(
        "document.querySelector('.related .related-title') !== null",
        "the related papers",
    )
    .await;
    b.js("window.__frames = []; \
          const look = () => { \
            const titles = s => [...document.querySelectorAll(s)].map(e => e.textContent); \
            const matched = titles('.results article.paper .paper-title'); \
            const related = titles('.related .related-title'); \
            window.__frames.push({ related: related.length, both: related.filter(t => matched.includes(t)) }); \
            if (!window.__stop) requestAnimationFrame(look); \
          }; \
          requestAnimationFrame(look); return 0")
        .await;
    // Backspace, key by key, back to the first word.
    b.type_query(&"\u{E003}".repeat("evaluation".len())).await;
    wait_for_related(&b, &want, "the related papers of the shorter query").await;
    // The list is made in the keystroke: the typing may be over before the
    // browser paints at all (WebKit under Xvfb): frames after it are
    // watched too.
    b.wait_for("window.__frames.length > 1", "two frames watched")
        .await;
    let frames = b.js("window.__stop = true; return window.__frames").await;
    let frames = frames.as_array().unwrap();
    assert!(frames.len() > 1, "{frames:?}");
    for f in frames {
        assert!(
            f["related"].as_u64().unwrap() > 0,
            "a frame without the related list: {frames:?}"
        );
        assert_eq!(
            f["both"],
            serde_json::json!([]),
            "a match listed as related: {frames:?}"
        );
    }
    b.close().await;
}

#[tokio::test]
async fn more_like_my_reading_list_ranks_the_other_unlearning_paper_first() {
    let b = Browser::start().await;
    b.open("?q=REM").await;
    b.wait_for(
        "[...document.querySelectorAll('.results article.paper .paper-title')].some(t => t.textContent.startsWith('REM:'))",
        "the REM paper",
    )
    .await;
    // Star REM (the first card's star), then ask for more like it.
    b.click(".results article.paper .star-button").await;
    b.wait_for(
        "!document.querySelector('.like-starred').disabled",
        "the button, once the meaning file is open",
    )
    .await;
    b.click(".like-starred").await;
    b.wait_for(
        "document.querySelector('#related-heading')?.textContent === 'More like your reading list'",
        "the list",
    )
    .await;
    let related = strings(
        b.js("return [...document.querySelectorAll('.related .related-title')].map(e => e.textContent)")
            .await,
    );
    // The other paper on machine unlearning, and never the starred one.
    assert!(
        related[0].starts_with("Subset-level evaluation"),
        "{related:?}"
    );
    assert!(
        related.iter().all(|t| !t.starts_with("REM:")),
        "{related:?}"
    );
    b.wait_for(
        "location.search.includes('like=starred')",
        "like=starred in the address",
    )
    .await;
    b.close().await;
}

/// A query with a few matches brings its related papers with them, in the
/// keystroke's own task: before the browser lays out or paints anything,
/// the list below the matches is already the new query's (it used to be
/// made a frame later, when an observer reported its place on screen:
/// the last change of most keystrokes on the seeds).
#[tokio::test]
async fn a_few_matches_bring_their_related_papers_in_the_same_task() {
    let (from, to) = ("unlearning evaluation", "unlearning ");
    let want = related_titles(to);
    assert!(
        matches(to).len() <= 10 && !want.is_empty() && want != related_titles(from),
        "the corpus no longer makes the case this test needs"
    );
    let b = Browser::start().await;
    b.open(&format!("?q={}", from.replace(' ', "+"))).await;
    wait_for_related(
        &b,
        &related_titles(from),
        "the related papers of the first query",
    )
    .await;
    // The new query typed, then only the promise jobs the keystroke queued
    // (no layout, no paint, no observer can run in between), then read.
    let have = b
        .client
        .execute_async(
            "const [query, done] = arguments; \
             const input = document.querySelector('input[type=search]'); \
             input.value = query; \
             input.dispatchEvent(new Event('input', { bubbles: true })); \
             (async () => { \
               for (let i = 0; i < 200; i++) await Promise.resolve(); \
               done([...document.querySelectorAll('.related .related-title')].map(e => e.textContent)); \
             })();",
            vec![serde_json::json!(to)],
        )
        .await
        .expect("typing script");
    // A page that trapped (WebKit's heap fault, docs/testing.md) stops
    // updating too: its console says which it was.
    assert_eq!(
        have,
        serde_json::json!(want),
        "console errors: {:?}",
        b.console_errors().await
    );
    b.close().await;
}

#[tokio::test]
async fn below_many_matches_the_related_list_is_made_when_scrolled_to() {
    let b = Browser::start().await;
    // A query with few matches: the related list is on screen.
    open_paraphrase(&b).await;
    // Most seed papers match "models": the list's place is screens away,
    // and no keystroke makes a list there.
    b.clear_query().await;
    b.type_query("models").await;
    b.wait_for(
        "document.querySelectorAll('.results article.paper').length > 5 \
         && document.querySelector('.related') === null",
        "the matches, and no related list far below them",
    )
    .await;
    // Scrolled to, it appears. Scrolled to again at each look, as a
    // reader at the end of the list would: the cards above it are measured
    // as they are laid out, and the first scroll can land a screen short
    // of the place once they are (seen in Firefox).
    b.wait_for(
        "(document.querySelector('.related-place').scrollIntoView(), \
          document.querySelector('.related .related-title') !== null)",
        "the related papers once scrolled to",
    )
    .await;
    b.close().await;
}

/// A query that matches nothing: the filters count the related papers, and
/// ticking a value narrows them as it would the matches.
#[tokio::test]
async fn with_no_match_the_filters_count_and_narrow_the_related_papers() {
    let e = engine();
    let topic = e
        .corpus
        .facet_index(explorer_core::FacetKind::Topic)
        .unwrap();
    let set = e
        .related_set(QUERY, &e.no_selection(), Default::default(), &[], 10, true)
        .unwrap();
    let b = Browser::start().await;
    open_paraphrase(&b).await;
    let rows = b
        .js("return [...document.querySelectorAll('fieldset[data-facet=topic] label')] \
             .map(l => [l.querySelector('.facet-label').textContent, +l.querySelector('.facet-count').textContent])")
        .await;
    let rows = rows.as_array().unwrap();
    assert!(!rows.is_empty());
    let values = &e.corpus.facets[topic].values;
    for row in rows {
        let v = values
            .iter()
            .position(|l| l == row[0].as_str().unwrap())
            .unwrap();
        assert_eq!(row[1], set.counts[topic][v], "{}", row[0]);
    }
    let note = b
        .js("return document.querySelector('.related-note').textContent")
        .await;
    assert!(
        note.as_str().unwrap().ends_with(&format!(
            "The filters count the {} papers closest in meaning.",
            set.total
        )),
        "{note}"
    );
    // The value most of them have (not all): ticked, the related list is
    // its papers, nearest first.
    let (value, _) = set.counts[topic]
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0 && (n as usize) < set.total)
        .max_by_key(|(_, &n)| n)
        .unwrap();
    b.js_with(
        "[...document.querySelectorAll('fieldset[data-facet=topic] label')] \
           .find(l => l.querySelector('.facet-label').textContent === arguments[0]) \
           .querySelector('input').click(); return 0",
        vec![serde_json::json!(values[value])],
    )
    .await;
    let mut selection = e.no_selection();
    selection[topic] = vec![value as u32];
    let want: Vec<String> = e
        .related(QUERY, &selection, Default::default(), &[], 10)
        .iter()
        .map(|r| e.corpus.papers[r.doc as usize].title.clone())
        .collect();
    wait_for_related(&b, &want, "the related papers with the value ticked").await;
    b.close().await;
}
