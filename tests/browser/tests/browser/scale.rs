//! A conference-size corpus in the browser: 2,000 synthetic papers (built by
//! `./dev test`). Only the cards on screen are in the document, and what is
//! shown is exactly what the core engine ranks for the same corpus.

use std::sync::OnceLock;

use browser_tests::{ranked_titles, scale_build, Browser};
use explorer_core::{Engine, ORDERED_FIRST};

/// More than this many cards in the document means the list is not windowed.
const MAX_CARDS: u64 = 60;

fn engine() -> &'static Engine {
    static E: OnceLock<Engine> = OnceLock::new();
    E.get_or_init(|| {
        let (_, corpus) = scale_build();
        Engine::new(explorer_core::build::compile_dir(&corpus).expect("synthetic corpus"))
    })
}

fn ranked(query: &str) -> Vec<String> {
    ranked_titles(engine(), query)
}

async fn cards(b: &Browser) -> u64 {
    b.js("return document.querySelectorAll('.results article.paper').length")
        .await
        .as_u64()
        .unwrap()
}

#[tokio::test]
async fn a_whole_conference_keeps_only_what_is_on_screen() {
    let (dist, _) = scale_build();
    let n = engine().len();
    let b = Browser::launch_dist(&dist, "/", (1280, 900), true).await;
    b.open("").await;
    b.wait_for(
        &format!(
            "document.querySelector('.status[role=status]')?.textContent.startsWith('{n} of {n}')"
        ),
        "every paper counted",
    )
    .await;
    let all = ranked("");
    b.wait_for_titles_run(&all).await;
    assert_eq!(b.titles().await[0], all[0]);
    assert!(cards(&b).await <= MAX_CARDS, "{} cards", cards(&b).await);

    // The page is as tall as the whole list: scroll to the end, and the last
    // papers are there (and only a window of them). Their titles and
    // abstracts come in packs, and the cards grow when they do, so the end
    // moves down: the reader goes to the end again, as one presses End
    // again once a page has loaded.
    b.wait_for(
        &format!(
            "(() => {{ window.scrollTo(0, document.documentElement.scrollHeight); \
             return [...document.querySelectorAll('.results article.paper .paper-title')].pop()?.textContent === {}; }})()",
            serde_json::to_string(all.last().unwrap()).unwrap()
        ),
        "the last paper, at the end of the page",
    )
    .await;
    b.wait_for_titles_run(&all).await;
    assert!(cards(&b).await <= MAX_CARDS);

    // Anywhere the reader scrolls to, the screen shows cards (a card's item
    // holds the gap after it), not the blank space that stands for the cards
    // outside the window.
    for at in [0.1, 0.35, 0.6, 0.85, 0.5] {
        b.js(&format!(
            "window.scrollTo(0, document.documentElement.scrollHeight * {at}); return 1"
        ))
        .await;
        b.wait_for(
            "(() => { const ol = document.querySelector('ol.results').getBoundingClientRect(); \
             const el = document.elementFromPoint(ol.left + ol.width / 2, innerHeight / 2); \
             return !!(el && el.closest('ol.results > li')); })()",
            &format!("a card in the middle of the screen at {at} of the page"),
        )
        .await;
        assert!(cards(&b).await <= MAX_CARDS);
    }

    // Typing from down there: the ranked results start at the top again.
    b.js("window.scrollTo(0, 0); return 1").await;
    b.type_query("learning").await;
    let want = ranked("learning");
    assert!(
        want.len() > 3 * ORDERED_FIRST,
        "a query with a long result list: {}",
        want.len()
    );
    b.wait_for_titles_prefix(&want).await;
    assert!(cards(&b).await <= MAX_CARDS);
    // Far down its results, past those an answer puts in order at once,
    // the cards are still in the engine's order.
    b.js("window.scrollTo(0, document.documentElement.scrollHeight * 0.8); return 1")
        .await;
    b.wait_for_titles_run(&want[2 * ORDERED_FIRST..]).await;
    assert!(cards(&b).await <= MAX_CARDS);
    b.js("window.scrollTo(0, 0); return 1").await;

    // A link to a paper far down the list scrolls to it and shows it.
    let target = &engine().corpus.papers[n * 3 / 4];
    b.client
        .goto(&format!("{}#{}", b.server.base, target.id))
        .await
        .unwrap();
    b.wait_for(
        &format!(
            "(() => {{ const a = document.getElementById({}); if (!a) return false; const r = a.getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; }})()",
            serde_json::to_string(&target.id).unwrap()
        ),
        "the linked paper on screen",
    )
    .await;
    assert!(cards(&b).await <= MAX_CARDS);
    b.close().await;
}

/// A query that falls from the whole list to a few dozen papers, none of
/// them shown yet: the cards on screen come in the keystroke's own task and
/// the rest after its frame, and then every result is in the page, in rank
/// order (a list this short is not windowed: find-in-page finds them all).
#[tokio::test]
async fn a_query_that_falls_to_a_few_dozen_new_papers_shows_them_all() {
    let (dist, _) = scale_build();
    let first: Vec<String> = ranked("").into_iter().take(60).collect();
    let (query, want) = engine()
        .corpus
        .papers
        .iter()
        .flat_map(|p| p.title.split_whitespace())
        .filter(|w| w.len() > 5 && w.chars().all(char::is_alphabetic))
        .map(|w| (w.to_lowercase(), ranked(&w.to_lowercase())))
        .find(|(_, r)| {
            (30..=MAX_CARDS as usize).contains(&r.len()) && !r.iter().any(|t| first.contains(t))
        })
        .expect("a title word that 30 to 60 papers share");
    let b = Browser::launch_dist(&dist, "/", (1280, 900), true).await;
    b.open("").await;
    b.wait_for_titles_prefix(&ranked("")).await;
    b.type_query(&query).await;
    b.wait_for_titles(&want).await;
    assert_eq!(cards(&b).await, want.len() as u64);
    b.close().await;
}
