//! The topic map: a dot per paper where the build placed it, the results
//! bright, a click opening a paper, and a box dragged with the mouse
//! filtering the list (kept in the URL) with words saying what it holds.

use std::time::Duration;

use browser_tests::{engine, ranked_docs, ranked_in_region, strings, Browser};
use explorer_core::view::topic_map::Region;
use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::Locator;

fn id(doc: u32) -> String {
    engine().corpus.papers[doc as usize].id.clone()
}

fn title(doc: u32) -> String {
    engine().corpus.papers[doc as usize].title.clone()
}

async fn bright_ids(b: &Browser) -> Vec<String> {
    let mut ids = strings(
        b.js("return [...document.querySelectorAll('svg.map .dot:not(.dim)')].map(d => d.dataset.id)")
            .await,
    );
    ids.sort();
    ids
}

/// Drags the mouse across the map between two points given as shares of
/// its width and height. The box is first scrolled to the middle of the
/// window (a tall map does not fit it whole), and the pointer moves in
/// window coordinates, so any place on the map can be reached.
async fn drag(b: &Browser, from: (f64, f64), to: (f64, f64)) {
    let map = b.client.find(Locator::Css("svg.map")).await.unwrap();
    b.centre(&map).await;
    let rect = b
        .client
        .execute_async(
            "const [el, fx, fy, tx, ty, done] = arguments; \
             let r = el.getBoundingClientRect(); \
             const mid = r.top + (fy + ty) / 2 * r.height; \
             window.scrollBy(0, mid - innerHeight / 2); \
             requestAnimationFrame(() => requestAnimationFrame(() => { \
               r = el.getBoundingClientRect(); \
               done([r.left, r.top, r.width, r.height, innerWidth, innerHeight]); }))",
            vec![
                serde_json::to_value(&map).unwrap(),
                from.0.into(),
                from.1.into(),
                to.0.into(),
                to.1.into(),
            ],
        )
        .await
        .unwrap();
    let r: Vec<f64> = rect
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let point = |p: (f64, f64)| {
        (
            (r[0] + p.0 * r[2]).clamp(1.0, r[4] - 1.0) as i64,
            (r[1] + p.1 * r[3]).clamp(1.0, r[5] - 1.0) as i64,
        )
    };
    let (a, z) = (point(from), point(to));
    let step = |p: (i64, i64), ms: u64| PointerAction::MoveTo {
        duration: Some(Duration::from_millis(ms)),
        x: p.0,
        y: p.1,
    };
    let mouse = MouseActions::new("mouse".into())
        .then(step(a, 0))
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(step(((a.0 + z.0) / 2, (a.1 + z.1) / 2), 100))
        .then(step(z, 100))
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    b.client.perform_actions(mouse).await.unwrap();
}

#[tokio::test]
async fn the_map_shows_the_results_opens_papers_and_filters_by_region() {
    let b = Browser::start().await;
    b.open("?q=reinforcement").await;
    let q = "reinforcement";
    let ranked = ranked_docs(engine(), q);
    let titles: Vec<String> = ranked.iter().map(|&d| title(d)).collect();
    b.wait_for_titles(&titles).await;
    b.click("#topic-map-toggle").await;
    b.wait_for("document.querySelector('svg.map .dot') !== null", "the map")
        .await;

    // Every paper is a dot, named on hover; the results are the bright ones.
    let dots = b
        .js("return document.querySelectorAll('svg.map .dot').length")
        .await;
    assert_eq!(dots, engine().len());
    let mut want: Vec<String> = ranked.iter().map(|&d| id(d)).collect();
    want.sort();
    assert_eq!(bright_ids(&b).await, want);
    let named = b
        .js(&format!(
            "return document.querySelector(\"svg.map .dot[data-id='{}'] title\").textContent",
            id(ranked[0])
        ))
        .await;
    assert_eq!(named, title(ranked[0]).as_str());

    // Typing brightens other dots.
    b.clear_query().await;
    b.type_query("diffusion").await;
    let mut want: Vec<String> = ranked_docs(engine(), "diffusion")
        .iter()
        .map(|&d| id(d))
        .collect();
    want.sort();
    b.wait_for_titles(
        &ranked_docs(engine(), "diffusion")
            .iter()
            .map(|&d| title(d))
            .collect::<Vec<_>>(),
    )
    .await;
    assert_eq!(bright_ids(&b).await, want);
    b.clear_query().await;
    b.type_query(q).await;
    b.wait_for_titles(&titles).await;

    // A box around the first result's dot keeps the results inside it.
    let place = engine().place(ranked[0]).expect("the seeds' map is in");
    let (fx, fy) = (f64::from(place[0]) / 65535.0, f64::from(place[1]) / 65535.0);
    drag(
        &b,
        ((fx - 0.15).max(0.01), (fy - 0.15).max(0.01)),
        ((fx + 0.15).min(0.99), (fy + 0.15).min(0.99)),
    )
    .await;
    b.wait_for("location.search.includes('map=')", "the region in the URL")
        .await;
    let search = b.location_search().await;
    let param = search
        .split('&')
        .find_map(|kv| kv.strip_prefix("map="))
        .unwrap()
        .replace("%2C", ",");
    let region = Region::parse(&param).expect("a region the app wrote");
    let inside = engine().region_docs(region);
    assert!(inside.contains(&ranked[0]), "{param}");
    let kept_docs = ranked_in_region(engine(), q, &inside);
    let kept: Vec<String> = kept_docs.iter().map(|&d| title(d)).collect();
    assert!(kept.len() < engine().len());
    b.wait_for_titles(&kept).await;
    let summary = b
        .js("return document.querySelector('.region-terms').textContent")
        .await;
    assert_eq!(summary, engine().region_terms(&inside).join(", ").as_str());
    assert!(!summary.as_str().unwrap().is_empty());

    // The region is part of the link: a reload shows the same.
    b.client.refresh().await.unwrap();
    b.wait_for_titles(&kept).await;
    b.wait_for(
        "document.querySelector('svg.map rect.region') !== null",
        "the map open on its region",
    )
    .await;

    // Clicking a dot opens its paper.
    let target = kept_docs[0];
    b.click(&format!("svg.map .dot[data-id='{}']", id(target)))
        .await;
    b.wait_for(
        &format!(
            "location.hash === '#{0}' && document.getElementById('{0}').classList.contains('target')",
            id(target)
        ),
        "the paper opened from the map",
    )
    .await;

    // Clearing the region brings the other results back.
    b.click(".region-clear").await;
    b.wait_for_titles(&titles).await;
    b.wait_for(
        "!location.search.includes('map=')",
        "no map= in the address",
    )
    .await;
    b.close().await;
}
