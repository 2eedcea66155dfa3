//! The real list in the browser: 3,891 ACL Anthology papers, built twice by
//! `./dev test`: as records (real titles, authors, venues, years, links)
//! and as abstracts only (one seed file, titles derived). On each build a
//! reader searches, ticks a facet, reads the highlights and opens a paper
//! from its link; what the page shows is what the engine, run natively on
//! the same list, ranks.

use browser_tests::{ranked_in_region, ranked_titles, real_builds, strings, Browser, RealBuild};
use explorer_core::view::topic_map::Region;
use explorer_core::{FacetKind, Sort};
use fantoccini::Locator;

/// The query a researcher of the field types: two words every build holds
/// in many papers (a long, ranked list: the window shows its start).
const QUERY: &str = "neural machine translation";

async fn open(build: &RealBuild) -> Browser {
    let b = Browser::launch_dist(&build.dist, "/", (1280, 900), true).await;
    b.open("").await;
    let n = build.engine.len();
    b.wait_for(
        &format!(
            "document.querySelector('.status[role=status]')?.textContent.startsWith('{n} of {n}')"
        ),
        "every paper counted",
    )
    .await;
    b
}

async fn searches_and_highlights(build: &RealBuild) {
    let e = &build.engine;
    assert_eq!(e.len(), 3891, "the whole real list is built");
    let b = open(build).await;
    b.type_query(QUERY).await;
    let want = ranked_titles(e, QUERY);
    assert!(want.len() > 50, "{} papers for {QUERY:?}", want.len());
    b.wait_for_titles_prefix(&want).await;
    // The list is windowed: the first cards fill the screen, ranked as the
    // engine ranks them. (How many depends on their height: with their
    // abstracts in, three or four fill 900 pixels, and the window holds
    // them and a screenful below.)
    // A card the window adds once its neighbours are measured may still
    // wait for its title's pack (this build fetches only what is read):
    // it says so in the ranked place, and every other card is named.
    let shown = b.titles().await;
    let loading = explorer_core::view::EN.loading_title;
    let named = shown.iter().filter(|t| t.as_str() != loading).count();
    assert!(named >= 3, "{named} named cards on screen: {shown:?}");
    for (have, want) in shown.iter().zip(&want) {
        assert!(
            have == want || have.as_str() == loading,
            "{shown:?} against {want:?}"
        );
    }
    assert_eq!(
        b.js(
            "const cards = document.querySelectorAll('.results article.paper'); \
              return cards[cards.length - 1].getBoundingClientRect().bottom >= innerHeight"
        )
        .await,
        true,
        "the cards fill the screen"
    );
    assert!(
        b.status()
            .await
            .starts_with(&format!("{} of 3891", want.len())),
        "{}",
        b.status().await
    );
    // The first card marks the words it holds, and nothing else.
    let marks = strings(
        b.js("return [...document.querySelector('.results article.paper').querySelectorAll('mark')].map(m => m.textContent.toLowerCase())")
            .await,
    );
    assert!(!marks.is_empty(), "the best match is highlighted");
    for m in &marks {
        assert!(
            ["neural", "machin", "translat"]
                .iter()
                .any(|w| m.starts_with(w)),
            "a mark that is not a query word: {m:?} in {marks:?}"
        );
    }
    assert!(b.console_errors().await.is_empty());
    b.close().await;
}

/// Ticks the facet's value with the most papers among the query's matches,
/// as the reader does, and checks the page against the engine with the same
/// selection: the titles in order and the value's honest count.
async fn a_facet_narrows(build: &RealBuild, kind: FacetKind) {
    let e = &build.engine;
    let f = e.corpus.facet_index(kind).expect("the facet is built");
    let all = e.search(QUERY, &e.no_selection(), Sort::Relevance);
    let (v, &count) = all.counts[f]
        .iter()
        .enumerate()
        .max_by_key(|(i, c)| (**c, std::cmp::Reverse(*i)))
        .unwrap();
    assert!(count > 0 && (count as usize) < all.hits.len());
    let label = &e.corpus.facets[f].values[v];
    let b = open(build).await;
    b.type_query(QUERY).await;
    b.wait_for_titles_prefix(&ranked_titles(e, QUERY)).await;
    let xpath = format!(
        "//fieldset[@data-facet='{}']//label[.//span[@class='facet-label' and text()={}]]",
        kind.key(),
        serde_json::to_string(label).unwrap()
    );
    // A long list's counts come with its tags, a moment after the answer
    // ("…" until then).
    b.wait_for(
        &format!(
            "[...document.querySelectorAll(\"fieldset[data-facet='{}'] label\")].some(l => \
             l.querySelector('.facet-label')?.textContent === {} && \
             l.querySelector('.facet-count')?.textContent === '{count}')",
            kind.key(),
            serde_json::to_string(label).unwrap()
        ),
        &format!("the count {count} beside {label:?}"),
    )
    .await;
    b.client
        .find(Locator::XPath(&format!("{xpath}//input")))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let mut selection = e.no_selection();
    selection[f].push(v as u32);
    let want: Vec<String> = e
        .search(QUERY, &selection, Sort::Relevance)
        .hits
        .iter()
        .map(|h| e.corpus.papers[h.doc as usize].title.clone())
        .collect();
    assert_eq!(want.len(), count as usize);
    b.wait_for_titles_prefix(&want).await;
    b.wait_for(
        &format!(
            "document.querySelector('.status[role=status]').textContent.startsWith('{count} of 3891')"
        ),
        "the status counts the ticked value's papers",
    )
    .await;
    b.close().await;
}

/// A link to a paper far down the list (`#id`, as pasted into a chat)
/// opens the page scrolled to that paper, under its title.
async fn a_link_opens_its_paper(build: &RealBuild) {
    let e = &build.engine;
    let paper = &e.corpus.papers[e.len() * 4 / 5];
    let b = Browser::launch_dist(&build.dist, "/", (1280, 900), true).await;
    b.open(&format!("#{}", paper.id)).await;
    let id = serde_json::to_string(&paper.id).unwrap();
    b.wait_for(
        &format!(
            "(() => {{ const a = document.getElementById({id}); if (!a) return false; \
             const r = a.getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; }})()"
        ),
        "the linked paper on screen",
    )
    .await;
    let title = b
        .js(&format!(
            "return document.getElementById({id}).querySelector('.paper-title').textContent"
        ))
        .await;
    assert_eq!(title.as_str(), Some(paper.title.as_str()));
    b.close().await;
}

#[tokio::test]
async fn the_real_list_as_records_searches_and_highlights() {
    searches_and_highlights(&real_builds()[0]).await;
}

#[tokio::test]
async fn the_real_list_as_abstracts_searches_and_highlights() {
    searches_and_highlights(&real_builds()[1]).await;
}

/// The records carry their venue: the reader narrows to one.
#[tokio::test]
async fn the_real_list_as_records_narrows_by_venue() {
    a_facet_narrows(&real_builds()[0], FacetKind::Venue).await;
}

/// Bare abstracts carry nothing but their text: the topics tagged from it.
#[tokio::test]
async fn the_real_list_as_abstracts_narrows_by_topic() {
    a_facet_narrows(&real_builds()[1], FacetKind::Topic).await;
}

#[tokio::test]
async fn the_real_list_as_records_opens_a_linked_paper_under_its_real_title() {
    let build = &real_builds()[0];
    // The records' titles are their own, not derived.
    let p = &build.engine.corpus.papers[build.engine.len() * 4 / 5];
    assert!(!p.title_derived);
    a_link_opens_its_paper(build).await;
}

#[tokio::test]
async fn the_real_list_as_abstracts_opens_a_linked_paper_under_its_derived_title() {
    let build = &real_builds()[1];
    let p = &build.engine.corpus.papers[build.engine.len() * 4 / 5];
    assert!(p.title_derived);
    a_link_opens_its_paper(build).await;
}

/// Real titles a researcher pastes (ACL Anthology ids): no abstract holds
/// every word of any of them, so only best matches can find their paper.
const PASTED: [(&str, &str); 2] = [
    (
        "2022.acl-long.554",
        "Softmax Bottleneck Makes Language Models Unable to Represent Multi-mode Word Distributions",
    ),
    (
        "2021.naacl-main.457",
        "Generative Imagination Elevates Machine Translation",
    ),
];

/// The paper of the record with this Anthology id, in the abstracts build:
/// both builds have one paper per record, in the records' order, and the
/// records build names each by its record's id.
fn paper_of(build: &RealBuild, id: &str) -> u32 {
    let records = &real_builds()[0].engine;
    assert_eq!(records.len(), build.engine.len());
    records
        .doc_of(&format!("p-{}", id.replace('.', "_")))
        .unwrap_or_else(|| panic!("no record {id}"))
}

#[tokio::test]
async fn a_pasted_real_title_finds_its_paper_first() {
    let build = &real_builds()[1];
    let e = &build.engine;
    let b = open(build).await;
    for (id, title) in PASTED {
        let want = &e.corpus.papers[paper_of(build, id) as usize].title;
        assert!(e.corpus.papers[paper_of(build, id) as usize].title_derived);
        b.clear_query().await;
        b.type_query(title).await;
        b.wait_for(
            &format!(
                "document.querySelector('.results article.paper .paper-title')?.textContent === {}",
                serde_json::to_string(want).unwrap()
            ),
            &format!("{want:?} first for {title:?}"),
        )
        .await;
    }
    assert!(b.console_errors().await.is_empty());
    b.close().await;
}

#[tokio::test]
async fn a_query_no_paper_holds_whole_shows_best_matches_labelled_and_highlighted() {
    let build = &real_builds()[1];
    let e = &build.engine;
    let (_, q) = PASTED[0];
    let r = e.search(q, &e.no_selection(), Sort::Relevance);
    assert_eq!(r.all_words, 0, "some abstract holds every word of {q:?}");
    let b = open(build).await;
    b.type_query(q).await;
    // The page's order once its meaning file is in: the engine's.
    b.wait_for_titles_prefix(&ranked_titles(e, q)).await;
    // Ranked by meaning with the lists of paper vectors nearest the query
    // (this build has them in lists, as a field's are), not every list.
    let lists = e.meaning().map_or(0, |m| m.list_count());
    // Each list once: the worker, taking over after the first answer, has
    // the page ask again for what it fetched before (from the HTTP cache).
    let fetched = b
        .js(r"return new Set(performance.getEntriesByType('resource').map(e => e.name).filter(n => /\/vectors-[0-9a-f]{16}\.bin$/.test(n))).size")
        .await
        .as_u64()
        .unwrap_or(0) as usize;
    assert!(
        lists > 10 && fetched > 0 && fetched < lists,
        "{fetched} of {lists} lists of vectors fetched"
    );
    let status = b.status().await;
    assert!(
        status.starts_with("No paper has every word:")
            && status.contains(&format!("{} best matches", r.hits.len())),
        "{status}"
    );
    labelled_once_above_the_first(&b).await;
    marks_only_query_words(&b, q).await;
    labels_go_when_every_word_is_held(&b, e, q, r.hits[0].doc).await;
    b.close().await;
}

/// Each card on screen is a best match, and the label says so once, above
/// the first.
async fn labelled_once_above_the_first(b: &Browser) {
    // (Firefox gives the rule's `attr(data-label)`, the others its value.)
    let labels = strings(
        b.js("return [...document.querySelectorAll('.results > li')].map(li => li.classList.contains('best-match') ? getComputedStyle(li, '::before').content : 'not a best match')")
            .await,
    );
    // (Three or more: whole cards, four fill the window; see above.)
    assert!(labels.len() >= 3, "{labels:?}");
    let first = b
        .js("return document.querySelector('.results > li').dataset.label")
        .await;
    assert!(
        first.as_str().is_some_and(|l| l.starts_with("Best match:")) && labels[0] != "none",
        "{first} {labels:?}"
    );
    for l in &labels[1..] {
        assert_eq!(l, "none", "{labels:?}");
    }
}

/// The first card marks only words of the query `q`.
async fn marks_only_query_words(b: &Browser, q: &str) {
    let words: Vec<String> = q.split_whitespace().map(|w| w.to_lowercase()).collect();
    // The abstract comes with its pack, a moment after the card.
    b.wait_for(
        "!document.querySelector('.results article.paper .abstract').classList.contains('loading')",
        "the first card's abstract",
    )
    .await;
    let marks = strings(
        b.js("return [...document.querySelector('.results article.paper').querySelectorAll('mark')].map(m => m.textContent.toLowerCase())")
            .await,
    );
    assert!(marks.len() >= 3, "{marks:?}");
    for m in &marks {
        assert!(
            words
                .iter()
                .any(|w| w.starts_with(m.as_str()) || m.starts_with(&w[..w.len().min(5)])),
            "a mark that is not a query word: {m:?} in {marks:?}"
        );
    }
}

/// A word of the query `q` that every paper it finds holds, the first best
/// match (`top`) among them: typed alone, its card stays (it is kept, not
/// written anew) and is no longer labelled.
async fn labels_go_when_every_word_is_held(
    b: &Browser,
    e: &explorer_core::Engine,
    q: &str,
    top: u32,
) {
    let word = q
        .split_whitespace()
        .find(|w| {
            let s = e.search(w, &e.no_selection(), Sort::Relevance);
            w.len() >= 5 && s.all_words == s.hits.len() && s.hits.iter().any(|h| h.doc == top)
        })
        .unwrap_or_else(|| panic!("no word of {q:?} that the first best match holds"));
    b.js("document.querySelectorAll('.results > li').forEach(li => { li.__before = true; })")
        .await;
    b.clear_query().await;
    b.type_query(word).await;
    b.wait_for_titles_prefix(&ranked_titles(e, word)).await;
    let (labelled, kept) = (
        b.js("return document.querySelectorAll('.results > li.best-match, .results > li[data-label]').length")
            .await,
        b.js("return [...document.querySelectorAll('.results > li')].filter(li => li.__before).length")
            .await,
    );
    assert_eq!(
        labelled, 0,
        "a card still labelled a best match for {word:?}"
    );
    assert!(
        kept.as_u64() >= Some(1),
        "no card kept from {q:?} to {word:?}"
    );
}

/// Without JavaScript, a list of thousands of papers is listed in pages:
/// the reader follows the listing from the explorer's note to its last
/// page and finds there the last paper of the list, under its real title.
#[tokio::test]
async fn without_javascript_the_real_list_is_listed_in_pages() {
    let build = &real_builds()[0];
    let papers = &build.engine.corpus.papers;
    let pages = papers
        .len()
        .div_ceil(explorer_core::view::LISTING_PAGE_PAPERS);
    assert!(pages >= 2, "{} papers fit one page", papers.len());
    let b = Browser::launch_dist(&build.dist, "/", (1280, 900), false).await;
    b.client.goto(&b.server.base).await.unwrap();
    b.follow(".noscript-note a").await;
    assert_eq!(b.text_of("article h2").await, papers[0].title);
    for page in 2..=pages {
        b.follow(".pages a[rel=next]").await;
        let current = b.text_of(".pages [aria-current=page]").await;
        assert_eq!(current, page.to_string());
    }
    assert!(b.texts_of(".pages a[rel=next]").await.is_empty());
    // The last page closes with the list's last paper (read alone: its
    // 1,891 titles read one by one over WebDriver took 20 s).
    let last = b.text_of("article:last-of-type h2").await;
    assert_eq!(last, papers[papers.len() - 1].title);
    let note = b.text_of(".noscript-note").await;
    assert!(
        note.contains(&format!("of {}, page {pages} of {pages}", papers.len())),
        "{note}"
    );
    b.close().await;
}

/// Whether the page has asked the server for its topic map's file.
fn map_fetched(b: &Browser) -> bool {
    b.server
        .requests
        .lock()
        .unwrap()
        .iter()
        .any(|r| r.contains("/map-"))
}

/// A long list's places on the topic map come in a file of their own: a
/// reader who never opens the map never fetches it; one who does sees
/// every paper; a link with a region in it shows the papers inside it.
#[tokio::test]
async fn the_topic_map_of_a_long_list_comes_when_it_is_needed() {
    let build = &real_builds()[0];
    let e = &build.engine;
    let b = open(build).await;
    b.type_query(QUERY).await;
    b.wait_for_titles_prefix(&ranked_titles(e, QUERY)).await;
    assert!(
        !map_fetched(&b),
        "the map's file fetched before the map was opened"
    );
    b.click("#topic-map-toggle").await;
    b.wait_for(
        &format!(
            "document.querySelectorAll('svg.map .dot').length === {}",
            e.len()
        ),
        "a dot for every paper",
    )
    .await;
    assert!(map_fetched(&b));
    b.close().await;

    // A region around the best match, in a link.
    let best = e.search(QUERY, &e.no_selection(), Sort::Relevance).hits[0].doc;
    let place = e.place(best).expect("the native engine has the map");
    let at = |v: u16| f64::from(v) / 65535.0;
    let (x, y) = (at(place[0]), at(place[1]));
    let region = Region::from_corners((x - 0.1, y - 0.1), (x + 0.1, y + 0.1)).unwrap();
    let inside = e.region_docs(region);
    assert!(inside.contains(&best) && inside.len() < e.len());
    let want: Vec<String> = ranked_in_region(e, QUERY, &inside)
        .iter()
        .map(|&d| e.corpus.papers[d as usize].title.clone())
        .collect();
    assert!(!want.is_empty() && want.len() < ranked_titles(e, QUERY).len());
    let b = Browser::launch_dist(&build.dist, "/", (1280, 900), true).await;
    b.open(&format!(
        "?q={}&map={}",
        QUERY.replace(' ', "+"),
        region.to_param()
    ))
    .await;
    b.wait_for_titles_prefix(&want).await;
    b.wait_for(
        "document.querySelector('svg.map rect.region') !== null",
        "the map open on its region",
    )
    .await;
    assert!(b.console_errors().await.is_empty());
    b.close().await;
}

/// A long list's titles come in packs apart from its papers: sorting by
/// title fetches the title order, and the first cards are the list's first
/// titles, in order; a card's similar papers are listed under their real
/// titles (their packs fetched as the list opens), never "loading".
#[tokio::test]
async fn the_real_list_sorts_by_title_and_names_similar_papers() {
    let build = &real_builds()[0];
    let e = &build.engine;
    let b = open(build).await;
    b.client
        .find(Locator::Css(".sort select"))
        .await
        .unwrap()
        .select_by_value("title")
        .await
        .unwrap();
    let sorted = e.search("", &e.no_selection(), Sort::Title);
    let want: Vec<String> = sorted
        .hits
        .iter()
        .map(|h| e.corpus.papers[h.doc as usize].title.clone())
        .collect();
    b.wait_for_titles_prefix(&want).await;
    let first = sorted.hits[0].doc;
    let similar: Vec<&str> = e
        .body(first)
        .unwrap()
        .similar
        .iter()
        .map(|s| e.corpus.papers[s.doc as usize].title.as_str())
        .collect();
    assert!(similar.len() >= 3, "{similar:?}");
    // The toggle comes with the card's body, after its title.
    let toggle = "document.querySelector('.results article.paper .similar-toggle')";
    b.wait_for(toggle, "the first card's similar papers' toggle")
        .await;
    b.js(&format!("{toggle}.click()")).await;
    b.wait_for(
        &format!(
            "JSON.stringify([...document.querySelector('.results article.paper')\
             .querySelectorAll('.similar-list li a')].map(a => a.textContent)) === {}",
            serde_json::to_string(&serde_json::to_string(&similar).unwrap()).unwrap()
        ),
        &format!("the similar papers {similar:?}"),
    )
    .await;
    assert!(b.console_errors().await.is_empty());
    b.close().await;
}

/// A shared list of papers far apart in a long list, opened by another
/// reader and added to their own: each entry keeps its real title (the
/// reading list's export carries it), though the titles came in packs
/// the page had not fetched when the link opened.
#[tokio::test]
async fn a_shared_list_of_the_real_list_adds_its_papers_under_their_titles() {
    use explorer_core::view::{Entry, ReadingList};
    let build = &real_builds()[0];
    let e = &build.engine;
    let docs = [e.len() / 5, e.len() / 2, e.len() - 1];
    let list = ReadingList {
        entries: docs
            .iter()
            .map(|&d| Entry {
                id: e.corpus.papers[d].id.clone(),
                title: String::new(),
                note: String::new(),
            })
            .collect(),
    };
    let fragment = explorer_core::view::shared_list::to_fragment(&list, false);
    let b = Browser::launch_dist(&build.dist, "/", (1280, 900), true).await;
    b.open(&format!("#{fragment}")).await;
    b.wait_for(
        "document.querySelector('.add-shared') !== null",
        "the shared list's notice",
    )
    .await;
    b.click(".add-shared").await;
    b.wait_for(
        "document.querySelector('.shared-list-added')?.textContent !== ''",
        "what was added",
    )
    .await;
    let stored = b
        .js("return localStorage.getItem('paper-explorer-reading-list')")
        .await;
    let stored: ReadingList = serde_json::from_str(stored.as_str().unwrap()).unwrap();
    let titles: Vec<&str> = stored.entries.iter().map(|x| x.title.as_str()).collect();
    let want: Vec<&str> = docs
        .iter()
        .map(|&d| e.corpus.papers[d].title.as_str())
        .collect();
    assert_eq!(titles, want);
    b.close().await;
}

/// What a researcher types first into a conference's list, letter by
/// letter (the bench's first typing).
const FIRST_TYPING: [&str; 4] = [
    "diffusion models",
    "reinforcement learning",
    "graph neural network",
    "language model reasoning",
];

/// A conference-size list is all there by the time its reader types: once
/// the first screen is up, the page fetches in the background every pack
/// of postings (and their positions), titles and bodies, the tags and the
/// meaning file. (The abstracts build keeps the page's default; the
/// records build is built to fetch only what is read, as a field's page
/// does.) A first search then asks the server for none of them, and each
/// answer is the engine's.
#[tokio::test]
async fn a_conference_size_list_is_all_there_before_its_reader_types() {
    let build = &real_builds()[1];
    let kinds = ["postings-", "titles-", "bodies-", "tags-", "meaning-"];
    let of_kind = |name: &str| {
        kinds
            .iter()
            .any(|k| name.trim_start_matches('/').starts_with(k))
    };
    let files: Vec<String> = std::fs::read_dir(&build.dist)
        .unwrap()
        .map(|f| f.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| of_kind(name))
        .collect();
    for kind in kinds {
        assert!(
            files.iter().any(|f| f.starts_with(kind)),
            "the build has no {kind} file"
        );
    }
    let b = open(build).await;
    let requested = || b.server.requests.lock().unwrap().clone();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let asked = requested();
        let left: Vec<&String> = files
            .iter()
            .filter(|f| !asked.iter().any(|r| r.ends_with(f.as_str())))
            .collect();
        if left.is_empty() {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{} of {} files never fetched, such as {:?}",
            left.len(),
            files.len(),
            left.first()
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // Once the service worker has taken over, the page asks again,
    // through it, for what it fetched before it did (to keep it): from the
    // HTTP cache, but WebKitGTK reads past it (docs/testing.md). Typing
    // starts once the server has heard nothing for a second.
    b.wait_for_service_worker().await;
    let mut heard = requested().len();
    loop {
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        let now = requested().len();
        if now == heard {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline + std::time::Duration::from_secs(60),
            "the server never fell quiet"
        );
        heard = now;
    }
    let before = heard;
    for q in FIRST_TYPING {
        b.clear_query().await;
        b.type_query(q).await;
        b.wait_for_titles_prefix(&ranked_titles(&build.engine, q))
            .await;
    }
    let asked: Vec<String> = requested()[before..]
        .iter()
        .filter(|r| of_kind(r.rsplit('/').next().unwrap_or(r)))
        .cloned()
        .collect();
    assert!(asked.is_empty(), "fetched while typing: {asked:?}");
    assert!(b.console_errors().await.is_empty());
    b.close().await;
}
