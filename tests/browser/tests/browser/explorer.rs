//! The explorer in headless Chromium, against the release build served on
//! loopback. Expected results come from the core engine run natively on the
//! same corpus, plus properties a reader checks by eye.

use browser_tests::{all_titles, engine, expected_titles, ranked_docs, strings, Browser};
use fantoccini::Locator;

fn total() -> usize {
    engine().len()
}

async fn facet_input(b: &Browser, facet: &str, label: &str) -> fantoccini::elements::Element {
    let xpath = format!(
        "//fieldset[@data-facet='{facet}']//label[.//span[@class='facet-label' and text()=\"{label}\"]]//input"
    );
    b.client
        .find(Locator::XPath(&xpath))
        .await
        .unwrap_or_else(|_| panic!("no facet value {facet}={label}"))
}

/// Ticks (or unticks) a facet value as the reader does: a WebDriver click.
async fn click_facet(b: &Browser, facet: &str, label: &str) {
    facet_input(b, facet, label).await.click().await.unwrap();
}

async fn facet_counts(b: &Browser, facet: &str) -> Vec<(String, u32)> {
    let v = b
        .js(&format!(
            "return [...document.querySelectorAll('fieldset[data-facet=\"{facet}\"] label')].map(l => [l.querySelector('.facet-label').textContent, l.querySelector('.facet-count').textContent])"
        ))
        .await;
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p[0].as_str().unwrap().to_string(),
                p[1].as_str().unwrap().parse().unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn shows_every_paper_with_the_corpus_title() {
    let b = Browser::start().await;
    b.open("").await;
    let n = total();
    assert_eq!(n, 57);
    b.wait_for_titles(&all_titles()).await;
    assert_eq!(b.status().await, format!("{n} of {n} papers"));
    let h1 = b
        .js("return document.querySelector('h1').textContent")
        .await;
    assert_eq!(h1.as_str().unwrap(), engine().corpus.title());
    assert_eq!(b.client.title().await.unwrap(), engine().corpus.title());
    // Semantic structure: a search field, one article per paper, labelled checkboxes.
    let counts = b
        .js("return [document.querySelectorAll('input[type=search]').length, document.querySelectorAll('article').length, [...document.querySelectorAll('.facet input[type=checkbox]')].filter(i => !i.closest('label')).length]")
        .await;
    assert_eq!(counts, serde_json::json!([1, n, 0]));
    b.close().await;
}

#[tokio::test]
async fn typing_narrows_the_list_and_marks_matches() {
    let b = Browser::start().await;
    b.open("").await;
    b.type_query("diffusion").await;
    let want = expected_titles("diffusion");
    assert!(!want.is_empty() && want.len() < total());
    b.wait_for_titles(&want).await;
    assert_eq!(
        b.status().await,
        format!("{} of {} papers", want.len(), total())
    );
    let marks = b.marks("").await;
    assert!(!marks.is_empty());
    assert!(
        marks.iter().all(|m| m.to_lowercase().starts_with("diffus")),
        "{marks:?}"
    );
    // Every article shown has at least one mark.
    let unmarked = b.js("return [...document.querySelectorAll('.results article.paper')].filter(a => !a.querySelector('mark')).length").await;
    assert_eq!(unmarked, 0);

    // A prefix while typing: "diffu" matches at least what "diffusion" does.
    b.clear_query().await;
    b.wait_for_titles(&all_titles()).await;
    b.type_query("diffu").await;
    b.wait_for_titles(&expected_titles("diffu")).await;
    b.close().await;
}

/// Typing on rewrites only the parts of a card whose marks changed: a card
/// that stays from "diffusion" to "diffusion models" keeps its title's
/// marks and gains the new word's in its abstract. Every part of every card
/// shows the marks of the whole query (the core's ranges, read as text).
#[tokio::test]
async fn a_card_that_stays_while_typing_is_marked_for_the_whole_query() {
    let e = engine();
    let (first, whole) = ("diffusion", "diffusion models");
    let b = Browser::start().await;
    b.open("").await;
    b.type_query(first).await;
    b.wait_for_titles(&expected_titles(first)).await;
    b.type_query(&whole[first.len()..]).await;
    b.wait_for_titles(&expected_titles(whole)).await;
    let r = e.search(whole, &e.no_selection(), explorer_core::Sort::Relevance);
    let before = ranked_docs(e, first);
    let mut stayed_with_new_marks = 0;
    for hit in &r.hits {
        let p = &e.corpus.papers[hit.doc as usize];
        let h = e.highlights(hit.doc, &r.matched);
        let joined = |text: &str, ranges: &[std::ops::Range<usize>]| -> String {
            ranges.iter().map(|r| &text[r.clone()]).collect()
        };
        let want = [
            joined(&p.title, &h.title),
            joined(&p.authors.join(", "), &h.authors),
            joined(&p.text, &h.text),
        ];
        let have = b
            .js(&format!(
                "const card = document.querySelector('.results [id=\"{}\"]');
                 return ['.paper-title', '.paper-authors', '.abstract'].map(part =>
                   [...card.querySelectorAll(part + ' mark')].map(m => m.textContent).join(''));",
                p.id
            ))
            .await;
        assert_eq!(strings(have), want, "the marks of {:?}", p.title);
        let old = e.highlights(
            hit.doc,
            &e.search(first, &e.no_selection(), explorer_core::Sort::Relevance)
                .matched,
        );
        if before.contains(&hit.doc) && old.title == h.title && old.text != h.text {
            stayed_with_new_marks += 1;
        }
    }
    // The case this is about was typed: cards that stayed, their titles
    // marked as before and their abstracts not.
    assert!(stayed_with_new_marks > 0);
    b.close().await;
}

/// A card that leaves the list (its element kept aside) and comes back
/// shows the page as it is then: the query's marks, the facet selection,
/// the language.
#[tokio::test]
async fn a_card_that_comes_back_shows_the_view_as_it_is_now() {
    let e = engine();
    let corpus = &e.corpus;
    let topic = corpus.facet_index(explorer_core::FacetKind::Topic).unwrap();
    let agents = ranked_docs(e, "agents");
    // A diffusion paper that "agents" leaves out, with a topic.
    let (doc, value) = ranked_docs(e, "diffusion")
        .into_iter()
        .filter(|d| !agents.contains(d))
        .find_map(|d| {
            let t = corpus.papers[d as usize]
                .tags
                .iter()
                .find(|t| t.facet as usize == topic)?;
            Some((d, t.value))
        })
        .expect("a diffusion paper with a topic, not about agents");
    let id = &corpus.papers[doc as usize].id;
    let label = &corpus.facets[topic].values[value as usize];
    let b = Browser::start().await;
    b.open("").await;
    b.type_query("diffusion").await;
    b.wait_for_titles(&expected_titles("diffusion")).await;
    // Its topic, ticked on its own card.
    let chip = format!(".results [id=\"{id}\"] .chip[data-f=\"{topic}\"][data-v=\"{value}\"]");
    b.click(&chip).await;
    b.wait_for(
        &format!("document.querySelector('{chip}[aria-pressed=true]') !== null"),
        "the chip pressed",
    )
    .await;
    b.clear_query().await;
    b.type_query("agents").await;
    let mut selection = e.no_selection();
    selection[topic].push(value);
    let titles = |q: &str, selection: &explorer_core::Selection| -> Vec<String> {
        e.search(q, selection, explorer_core::Sort::Relevance)
            .hits
            .iter()
            .map(|h| corpus.papers[h.doc as usize].title.clone())
            .collect()
    };
    b.wait_for_titles(&titles("agents", &selection)).await;
    // While it is away: another language, and its topic unticked in the
    // sidebar.
    b.click(".language-toggle").await;
    b.wait_for("document.documentElement.lang === 'zh-Hans'", "Chinese")
        .await;
    b.js_with(
        "[...document.querySelectorAll('fieldset[data-facet=topic] label')] \
           .find(l => l.querySelector('.facet-label').textContent === arguments[0]) \
           .querySelector('input').click(); return 0",
        vec![serde_json::json!(label)],
    )
    .await;
    b.clear_query().await;
    b.type_query("diffusion").await;
    b.wait_for_titles(&expected_titles("diffusion")).await;
    let card = b
        .js_with(
            "const c = document.querySelector('.results [id=\"' + arguments[0] + '\"]'); \
             return [[...c.querySelectorAll('mark')].map(m => m.textContent.toLowerCase()), \
                     c.querySelector('.chip[data-f=\"' + arguments[1] + '\"][data-v=\"' + arguments[2] + '\"]').getAttribute('aria-pressed'), \
                     c.querySelector('.star-button').getAttribute('aria-label')]",
            vec![
                serde_json::json!(id),
                serde_json::json!(topic),
                serde_json::json!(value),
            ],
        )
        .await;
    let marks = strings(card[0].clone());
    assert!(
        !marks.is_empty() && marks.iter().all(|m| m.starts_with("diffus")),
        "{marks:?}"
    );
    assert_eq!(card[1], "false");
    assert_eq!(card[2], "加星标：加入阅读列表");
    b.close().await;
}

#[tokio::test]
async fn phrases_exclusions_typos_and_accents_behave_as_documented() {
    let b = Browser::start().await;
    b.open("").await;

    b.type_query("\"catastrophic forgetting\"").await;
    let want = expected_titles("\"catastrophic forgetting\"");
    assert!(!want.is_empty());
    b.wait_for_titles(&want).await;
    let marks = b.marks(".abstract").await;
    assert!(!marks.is_empty());
    assert!(
        marks
            .iter()
            .all(|m| m.to_lowercase() == "catastrophic forgetting"),
        "{marks:?}"
    );

    b.clear_query().await;
    b.type_query("reasoning -math ").await;
    let want = expected_titles("reasoning -math ");
    assert!(!want.is_empty() && want.len() < expected_titles("reasoning ").len());
    b.wait_for_titles(&want).await;
    let with_math = b
        .js("return [...document.querySelectorAll('.results article.paper')].filter(a => /\\bmath\\b/i.test(a.querySelector('.abstract').textContent)).length")
        .await;
    assert_eq!(with_math, 0);

    b.clear_query().await;
    b.type_query("reinforcemnt ").await;
    let want = expected_titles("reinforcement ");
    b.wait_for_titles(&want).await;
    let marks = b.marks(".abstract").await;
    assert!(
        !marks.is_empty()
            && marks
                .iter()
                .all(|m| m.eq_ignore_ascii_case("reinforcement")),
        "{marks:?}"
    );

    b.clear_query().await;
    b.type_query("bokmal").await;
    b.wait_for_titles(&expected_titles("bokmal")).await;
    assert_eq!(b.marks(".abstract").await, ["Bokmål"]);
    b.close().await;
}

#[tokio::test]
async fn facet_counts_follow_clicks() {
    let b = Browser::start().await;
    b.open("").await;
    b.wait_for_titles(&all_titles()).await;
    let topics = facet_counts(&b, "topic").await;
    let lists = facet_counts(&b, "list").await;
    assert_eq!(lists.iter().map(|l| l.1).sum::<u32>() as usize, total());
    let (rl, rl_count) = topics
        .iter()
        .find(|t| t.0 == "Reinforcement learning")
        .cloned()
        .unwrap();

    let input = facet_input(&b, "topic", &rl).await;
    b.click_element(&input).await.unwrap();
    b.wait_for(
        &format!("document.querySelector('.status[role=status]').textContent.startsWith('{rl_count} of')"),
        "RL results",
    )
    .await;
    assert_eq!(b.titles().await.len() as u32, rl_count);
    // The topic facet's own counts do not collapse; other facets count within it.
    let mut after = facet_counts(&b, "topic").await;
    let mut before = topics.clone();
    after.sort();
    before.sort();
    assert_eq!(after, before);
    let lists_after = facet_counts(&b, "list").await;
    assert_eq!(lists_after.iter().map(|l| l.1).sum::<u32>(), rl_count);

    adding_agents_unions_the_results(&b, &topics, rl_count).await;

    // AND across facets: one list narrows to that list's count.
    let (list0, list0_count) = facet_counts(&b, "list").await[0].clone();
    let input = facet_input(&b, "list", &list0).await;
    b.click_element(&input).await.unwrap();
    b.wait_for(
        &format!(
            "document.querySelector('.status[role=status]').textContent.startsWith('{list0_count} of')"
        ),
        "list filter",
    )
    .await;

    // Counts follow the query too.
    b.type_query("agent").await;
    b.wait_for(
        "document.querySelector('input[type=search]').value === 'agent'",
        "typing",
    )
    .await;
    // Wait for the answer itself: the core's, for the same query under the
    // same selection (two topics, one list).
    let want = answer_titles(
        "agent",
        &[
            ("topic", "Reinforcement learning"),
            ("topic", "Agents"),
            ("list", list0.as_str()),
        ],
    );
    b.wait_for_titles(&want).await;
    let shown = b.titles().await.len() as u32;
    let lists_now = facet_counts(&b, "list").await;
    assert_eq!(lists_now.iter().find(|l| l.0 == list0).unwrap().1, shown);

    b.clear_query().await;
    a_chip_toggles_its_facet_value(&b).await;
    b.close().await;
}

/// OR within a facet: adding Agents to a topic of `rl_count` papers
/// unions the results.
async fn adding_agents_unions_the_results(b: &Browser, topics: &[(String, u32)], rl_count: u32) {
    let (_, agents_count) = topics.iter().find(|t| t.0 == "Agents").cloned().unwrap();
    click_facet(b, "topic", "Agents").await;
    b.wait_for(
        &format!(
            "document.querySelectorAll('.results article.paper').length > {}",
            rl_count.max(agents_count) - 1
        ),
        "union",
    )
    .await;
    let union = b.titles().await.len() as u32;
    assert!(union >= rl_count.max(agents_count) && union <= rl_count + agents_count);
}

/// The titles the core answers `query` with under the facet values
/// `picked` (facet key, value label).
fn answer_titles(query: &str, picked: &[(&str, &str)]) -> Vec<String> {
    let e = engine();
    let mut selection = e.no_selection();
    for &(key, label) in picked {
        let kind = explorer_core::FacetKind::from_key(key).unwrap();
        let f = e.corpus.facet_index(kind).unwrap();
        let values = &e.corpus.facets[f].values;
        let v = values.iter().position(|v| v == label).unwrap();
        selection[f].push(v as u32);
    }
    e.search(query, &selection, explorer_core::Sort::Relevance)
        .docs()
        .into_iter()
        .map(|d| e.corpus.papers[d as usize].title.clone())
        .collect()
}

/// A card's tag chip toggles its facet value, and says why the tag was
/// given.
async fn a_chip_toggles_its_facet_value(b: &Browser) {
    let chip = b
        .client
        .find(Locator::Css(
            ".results article.paper .chip[data-facet='topic']",
        ))
        .await
        .unwrap();
    let label = chip.text().await.unwrap();
    let pressed_before = chip.attr("aria-pressed").await.unwrap();
    b.click_element(&chip).await.unwrap();
    let checked = b
        .js(&format!(
            "return [...document.querySelectorAll('fieldset[data-facet=\"topic\"] label')].find(l => l.querySelector('.facet-label').textContent === {label:?})?.querySelector('input').checked"
        ))
        .await;
    assert_eq!(
        checked,
        serde_json::json!(pressed_before.as_deref() != Some("true"))
    );
    let why = b
        .js("return document.querySelector('.results article.paper .chip').title")
        .await;
    assert!(
        why.as_str().unwrap().contains(": "),
        "chips explain themselves: {why}"
    );
}

#[tokio::test]
async fn the_url_holds_the_state() {
    let b = Browser::start().await;
    b.open("").await;
    b.type_query("memory").await;
    b.wait_for_titles(&expected_titles("memory")).await;
    click_facet(&b, "type", "Method").await;
    b.wait_for(
        "location.search.includes('type=Method')",
        "the facet in the URL",
    )
    .await;
    let url = b.client.current_url().await.unwrap();
    assert!(url.query().unwrap().contains("q=memory"), "{url}");
    let titles = b.titles().await;
    let status = b.status().await;

    // Reload: the same view.
    b.client.refresh().await.unwrap();
    b.wait_for(
        "document.querySelector('.status[role=status]') !== null",
        "reload",
    )
    .await;
    b.wait_for_titles(&titles).await;
    assert_eq!(b.status().await, status);
    assert_eq!(
        b.js("return document.querySelector('input[type=search]').value")
            .await,
        "memory"
    );
    assert_eq!(b.js("return document.querySelector('[data-facet=type] input:checked').parentElement.textContent.includes('Method')").await, true);

    // Pasting the link in a fresh tab restores it too.
    b.client.goto(url.as_str()).await.unwrap();
    b.wait_for_titles(&titles).await;

    // Back undoes the facet click.
    b.client.back().await.unwrap();
    b.wait_for_titles(&expected_titles("memory")).await;
    assert!(!b
        .client
        .current_url()
        .await
        .unwrap()
        .as_str()
        .contains("type=Method"));

    // Sorting by title is in the URL as well.
    let select = b.client.find(Locator::Css(".sort select")).await.unwrap();
    select.select_by_value("title").await.unwrap();
    b.wait_for("location.search.includes('sort=title')", "sort in URL")
        .await;
    let sorted = b.titles().await;
    let mut want = sorted.clone();
    want.sort_by_key(|t| explorer_core::model::fold(t));
    assert_eq!(sorted, want);

    // Garbage in the URL is ignored.
    b.open("?topic=Nope&sort=sideways&q=%ZZ&zzz=1").await;
    b.wait_for(
        &format!(
            "document.querySelector('.status[role=status]').textContent.endsWith('of {} papers')",
            total()
        ),
        "every paper counted, once the index is there",
    )
    .await;
    b.close().await;
}

/// Clicks close together share one history entry (the address is written
/// once changes pause for 250 ms): Back undoes such a burst at once, and
/// clicks made one after another, each already in the address, one by one.
#[tokio::test]
async fn back_undoes_a_burst_of_clicks_at_once_and_separate_clicks_one_by_one() {
    let b = Browser::start().await;
    b.open("").await;
    let none_ticked = "location.search === '' && document.querySelector('fieldset[data-facet=topic] input') !== null && document.querySelectorAll('.facet input:checked').length === 0";
    b.wait_for(none_ticked, "the facets, none ticked").await;
    let only_method =
        "location.search.includes('type=Method') && !location.search.includes('topic=')";
    let both =
        "location.search.includes('type=Method') && location.search.includes('topic=Agents')";

    // One click, written to the address, then another: two steps back.
    click_facet(&b, "type", "Method").await;
    b.wait_for(only_method, "the first facet in the URL").await;
    let titles = b.titles().await;
    click_facet(&b, "topic", "Agents").await;
    b.wait_for(both, "both facets in the URL").await;
    b.client.back().await.unwrap();
    b.wait_for(only_method, "Back unticks the second only")
        .await;
    b.wait_for_titles(&titles).await;
    b.client.back().await.unwrap();
    b.wait_for(none_ticked, "Back again unticks the first")
        .await;

    // Two clicks 50 ms apart: the reader's, and one the page makes in a
    // task of its own (clicks in one task are one change of state,
    // whatever writes the address). The address waits for 250 ms without
    // a change, and the second click's timer is due before that wait's
    // however late both fire: one step back.
    let method = facet_input(&b, "type", "Method").await;
    let agents = facet_input(&b, "topic", "Agents").await;
    b.js_with(
        "const [first, second] = arguments; first.addEventListener('click', () => setTimeout(() => second.click(), 50), { once: true }); return null",
        vec![
            serde_json::to_value(&method).unwrap(),
            serde_json::to_value(&agents).unwrap(),
        ],
    )
    .await;
    method.click().await.unwrap();
    b.wait_for(both, "both facets in the URL").await;
    b.client.back().await.unwrap();
    b.wait_for(none_ticked, "Back unticks both").await;
    b.close().await;
}

/// The address waits for a pause in typing before it is written; a reload
/// inside that pause still keeps what was typed: the hidden page hands the
/// waiting address on to the next one in the tab.
#[tokio::test]
async fn a_reload_right_after_typing_keeps_the_query() {
    let b = Browser::start().await;
    b.open("").await;
    b.wait_for(
        "document.querySelector('input[type=search]') !== null && location.search === ''",
        "the search field",
    )
    .await;
    // Typed and reloaded in one script: well inside the 250 ms pause, on
    // any engine however slow its driver. The address must still be
    // unwritten when the reload is asked for, or the test proves nothing.
    let before = b
        .js(
            "const i = document.querySelector('input[type=search]'); i.value = 'diffusion'; \
             i.dispatchEvent(new InputEvent('input', { bubbles: true, data: 'diffusion' })); \
             window.__beforeReload = true; const s = location.search; \
             setTimeout(() => location.reload(), 0); return s",
        )
        .await;
    assert_eq!(
        before.as_str(),
        Some(""),
        "the address was written before the reload"
    );
    b.wait_for(
        "window.__beforeReload === undefined && location.search === '?q=diffusion' \
         && document.querySelector('input[type=search]')?.value === 'diffusion'",
        "the reloaded page, with the query typed before the reload",
    )
    .await;
    b.wait_for_titles(&expected_titles("diffusion")).await;
    // Only a reload takes what waited: the same address opened anew (a
    // link, the address typed) starts from itself, whatever was typed
    // before in this tab.
    b.type_query(" models").await;
    b.wait_for(
        "location.search === '?q=diffusion+models'",
        "the longer query written to the address",
    )
    .await;
    b.client
        .goto(&format!("{}?q=diffusion", b.server.base))
        .await
        .unwrap();
    b.wait_for(
        "location.search === '?q=diffusion' \
         && document.querySelector('input[type=search]')?.value === 'diffusion'",
        "the page opened anew at its own address",
    )
    .await;
    b.wait_for_titles(&expected_titles("diffusion")).await;
    b.close().await;
}

#[tokio::test]
async fn a_fragment_opens_and_scrolls_to_its_paper() {
    let b = Browser::start().await;
    let last = engine()
        .corpus
        .papers
        .iter()
        .rev()
        .find(|p| p.text.len() > 600)
        .unwrap();
    b.open(&format!("#{}", last.id)).await;
    b.wait_for(
        &format!("document.getElementById('{}') !== null", last.id),
        "the paper",
    )
    .await;
    b.wait_for(
        &format!("(() => {{ const r = document.getElementById('{}').getBoundingClientRect(); return r.top >= -2 && r.top < innerHeight; }})()", last.id),
        "the paper scrolled into view",
    )
    .await;
    let expanded = b.js(&format!("return document.getElementById('{}').querySelector('.expand').getAttribute('aria-expanded')", last.id)).await;
    assert_eq!(expanded, "true");
    b.close().await;
}

#[tokio::test]
async fn no_results_offers_to_clear() {
    let b = Browser::start().await;
    b.open("?q=xqzvw").await;
    b.wait_for(
        "document.querySelector('.empty-state') !== null",
        "the empty state",
    )
    .await;
    assert_eq!(b.status().await, format!("0 of {} papers", total()));
    // Once papers close in meaning are listed below, the page does not
    // say that no paper matches above them.
    b.wait_for(
        "document.querySelector('.empty-state.by-meaning-only') !== null \
         && document.querySelectorAll('.related .related-title').length > 0",
        "papers close in meaning, said so",
    )
    .await;
    assert_eq!(
        b.text_of(".empty-state p").await,
        "No paper holds these words. Below, the papers closest in meaning."
    );
    b.click(".empty-state button").await;
    b.wait_for_titles(&all_titles()).await;
    assert_eq!(
        b.js("return document.querySelector('input[type=search]').value")
            .await,
        ""
    );
    let reqs = strings(serde_json::json!(b.server.requests.lock().unwrap().clone()));
    assert!(reqs.iter().any(|r| r.ends_with(".wasm")));
    b.close().await;
}

#[tokio::test]
async fn two_words_no_paper_holds_together_show_the_papers_holding_either() {
    // On a phone: `diffusion video`, which no seed abstract says whole.
    let b = Browser::start().await;
    b.open("").await;
    b.type_query("diffusion video").await;
    let want = expected_titles("diffusion video");
    assert!(!want.is_empty());
    b.wait_for_titles(&want).await;
    assert!(
        b.status().await.contains("best match"),
        "{}",
        b.status().await
    );
    assert_eq!(
        b.js("return document.querySelector('.empty-state') === null")
            .await,
        true
    );
    b.close().await;
}

#[tokio::test]
async fn similar_papers_open_even_when_the_search_hides_them() {
    let c = &engine().corpus;
    let by_title = |t: &str| c.papers.iter().find(|p| p.title.starts_with(t)).unwrap();
    let (dph, diver) = (by_title("DPH-RL"), by_title("DIVER"));
    let b = Browser::start().await;
    b.open("").await;
    b.type_query("hybrid").await;
    b.wait_for_titles(&expected_titles("hybrid")).await;
    assert!(!b.titles().await.contains(&diver.title));

    b.click(&format!("#{} .similar-toggle", dph.id)).await;
    let listed = b
        .js(&format!(
            "return [...document.querySelectorAll('#{}-similar li > a')].map(a => a.textContent)",
            dph.id
        ))
        .await;
    let want: Vec<String> = dph
        .similar
        .iter()
        .map(|s| c.papers[s.doc as usize].title.clone())
        .collect();
    assert_eq!(strings(listed), want);
    assert!(want.contains(&diver.title));

    // Following the link shows the paper, the search cleared to make room.
    b.click(&format!("#{}-similar a[href='#{}']", dph.id, diver.id))
        .await;
    b.wait_for(
        &format!(
            "document.getElementById('{}')?.classList.contains('target')",
            diver.id
        ),
        "the similar paper, shown and marked",
    )
    .await;
    assert_eq!(b.status().await, format!("{0} of {0} papers", total()));
    assert_eq!(
        b.js("return document.querySelector('input[type=search]').value")
            .await,
        ""
    );
    b.close().await;
}

#[tokio::test]
async fn exports_hold_the_results_shown_in_their_order() {
    let b = Browser::start().await;
    b.open("").await;
    b.type_query("reasoning").await;
    let want = expected_titles("reasoning");
    b.wait_for_titles(&want).await;
    b.capture_downloads().await;
    b.click(".export summary").await;
    for format in ["csv", "json", "md", "bib", "ris", "csl.json"] {
        b.click(&format!(".export button[data-format=\"{format}\"]"))
            .await;
    }
    let texts = b.downloads(6).await;
    let json: Vec<serde_json::Value> = serde_json::from_str(&texts[1]).unwrap();
    let titles: Vec<String> = json
        .iter()
        .map(|p| p["title"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(titles, want);
    let n = want.len();
    assert_eq!(
        texts[0].lines().count(),
        n + 1,
        "CSV: a header and a row each"
    );
    assert_eq!(texts[2].lines().filter(|l| l.starts_with("- [")).count(), n);
    assert_eq!(texts[3].matches("@misc{").count(), n);
    // RIS as a reference manager reads it, CSL-JSON as a citation
    // processor does: the same papers, in the same order.
    use biblib::CitationParser;
    let ris: Vec<String> = biblib::RisParser::new()
        .parse(&texts[4])
        .unwrap()
        .into_iter()
        .map(|c| c.title)
        .collect();
    assert_eq!(ris, want);
    let csl: Vec<serde_json::Value> = serde_json::from_str(&texts[5]).unwrap();
    let csl: Vec<&str> = csl.iter().map(|i| i["title"].as_str().unwrap()).collect();
    assert_eq!(csl, want);
    // The Markdown list links each paper's place in the explorer, in order.
    let ids: Vec<String> = ranked_docs(engine(), "reasoning")
        .into_iter()
        .map(|d| format!("#{})", engine().corpus.papers[d as usize].id))
        .collect();
    let linked: Vec<bool> = texts[2]
        .lines()
        .zip(&ids)
        .map(|(line, id)| line.contains(id.as_str()))
        .collect();
    assert_eq!(linked, vec![true; n]);
    b.close().await;
}

#[tokio::test]
async fn the_keyboard_reaches_search_results_and_help() {
    let b = Browser::start().await;
    b.open("").await;
    b.wait_for_titles(&all_titles()).await;
    b.js("document.activeElement.blur(); return 0").await;
    let focused = "return document.activeElement.matches('input[type=search]')";
    b.press('/').await;
    assert_eq!(b.js(focused).await, true, "/ goes to the search field");
    b.type_query("memory").await;
    b.wait_for_titles(&expected_titles("memory")).await;
    b.press('\u{E00C}').await; // Escape
    b.wait_for_titles(&all_titles()).await;
    assert_eq!(
        b.js("return document.querySelector('input[type=search]').value")
            .await,
        ""
    );

    // j and k walk the papers' titles, in the order shown.
    let focused_title = "return document.activeElement.closest('article')?.querySelector('.paper-title')?.textContent";
    b.js("document.activeElement.blur(); return 0").await;
    let titles = all_titles();
    b.press('j').await;
    assert_eq!(b.js(focused_title).await, titles[0].as_str());
    b.press('j').await;
    b.press('j').await;
    assert_eq!(b.js(focused_title).await, titles[2].as_str());
    b.press('k').await;
    assert_eq!(b.js(focused_title).await, titles[1].as_str());
    // Enter opens it (its fragment).
    b.press('\u{E007}').await;
    let id = &engine().corpus.papers[engine()
        .corpus
        .papers
        .iter()
        .position(|p| p.title == titles[1])
        .unwrap()]
    .id;
    b.wait_for(
        &format!("location.hash === '#{id}' && document.getElementById('{id}').classList.contains('target')"),
        "the focused paper, opened",
    )
    .await;

    // ? lists the shortcuts; Esc closes the list.
    b.press('?').await;
    b.wait_for(
        "document.querySelector('[role=dialog].shortcuts') !== null",
        "the shortcuts",
    )
    .await;
    let keys = b
        .js("return [...document.querySelectorAll('.shortcuts kbd')].map(k => k.textContent)")
        .await;
    assert_eq!(strings(keys), ["/", "Esc", "j", "k", "Enter", "s", "?"]);
    b.press('\u{E00C}').await;
    b.wait_for(
        "document.querySelector('.shortcuts') === null",
        "the list closed",
    )
    .await;

    // A tag chip pressed with Enter filters by its value and keeps the
    // focus: the card it is on stays, written in place, not rebuilt.
    let chip = b
        .js(
            "const c = document.querySelector('.results .chip[data-facet=topic]'); c.focus(); \
             return [c.textContent, c.closest('article').id]",
        )
        .await;
    let (label, id) = (chip[0].as_str().unwrap(), chip[1].as_str().unwrap());
    b.press('\u{E007}').await;
    b.wait_for(
        &format!("location.search.includes('topic=') && document.activeElement.matches('#{id} .chip[aria-pressed=true]')"),
        "the chip pressed, still focused",
    )
    .await;
    let topic = engine()
        .corpus
        .facet_index(explorer_core::FacetKind::Topic)
        .unwrap();
    let value = engine().corpus.facets[topic]
        .values
        .iter()
        .position(|v| v == label)
        .unwrap() as u32;
    let mut selection = engine().no_selection();
    selection[topic].push(value);
    let want: Vec<String> = engine()
        .search("", &selection, explorer_core::Sort::Relevance)
        .hits
        .iter()
        .map(|h| engine().corpus.papers[h.doc as usize].title.clone())
        .collect();
    b.wait_for_titles(&want).await;
    b.close().await;
}

#[tokio::test]
async fn the_theme_toggle_overrides_the_system_and_is_remembered() {
    let b = Browser::start().await;
    b.open("").await;
    b.wait_for_titles(&all_titles()).await;
    let background = "return getComputedStyle(document.body).backgroundColor";
    let scheme = "return document.documentElement.dataset.theme ?? 'system'";
    assert_eq!(b.js(scheme).await, "system");
    b.click(".theme-toggle").await;
    assert_eq!(b.js(scheme).await, "light");
    let light = b.js(background).await;
    b.click(".theme-toggle").await;
    assert_eq!(b.js(scheme).await, "dark");
    let dark = b.js(background).await;
    assert_ne!(light, dark, "the dark theme changes the page's colours");
    // Remembered across a reload (and applied before the app starts, by
    // the first screen's script).
    b.client.refresh().await.unwrap();
    b.wait_for(
        "document.documentElement.dataset.theme === 'dark' \
         && document.querySelector('.theme-toggle') !== null",
        "the dark theme after reload, and the app",
    )
    .await;
    assert_eq!(b.js(background).await, dark);
    b.click(".theme-toggle").await;
    assert_eq!(b.js(scheme).await, "system");
    b.close().await;
}

#[tokio::test]
async fn facet_values_chart_their_share_of_the_results() {
    let b = Browser::start().await;
    b.open("").await;
    b.type_query("learning").await;
    let want = expected_titles("learning");
    b.wait_for_titles(&want).await;
    let rows = b
        .js("return [...document.querySelectorAll('fieldset[data-facet=topic] label')].map(l => [l.querySelector('.facet-count').textContent, l.style.getPropertyValue('--share')])")
        .await;
    let shown = want.len() as u64;
    let mut charted = 0;
    for row in rows.as_array().unwrap() {
        let count: u64 = row[0].as_str().unwrap().parse().unwrap();
        let share = row[1].as_str().unwrap();
        assert_eq!(
            share,
            format!("{}%", (count * 100).div_ceil(shown)),
            "{row}"
        );
        charted += usize::from(count > 0);
    }
    assert!(charted > 1, "several topics among {shown} results");
    b.close().await;
}

#[tokio::test]
async fn the_interface_speaks_chinese_when_asked() {
    let b = Browser::start().await;
    b.open("").await;
    b.wait_for_titles(&all_titles()).await;
    let lang = "return document.documentElement.lang";
    let n = total();
    assert_eq!(b.js(lang).await, "en");
    assert_eq!(b.status().await, format!("{n} of {n} papers"));
    // A card the reader expanded, and its similar papers opened.
    let card =
        ".results article.paper:has(.expand):has(.similar-toggle):has(.chip[data-facet=topic])";
    b.click(&format!("{card} .expand")).await;
    b.click(&format!("{card} .similar-toggle")).await;
    let card_words = format!(
        "const c = document.querySelector('{card}'); return [c.querySelector('.expand').textContent, \
         c.querySelector('.expand').getAttribute('aria-expanded'), \
         c.querySelector('.star-button').getAttribute('aria-label'), \
         c.querySelector('.chips').getAttribute('aria-label'), \
         c.querySelector('.chip').title.split(':')[0], \
         c.querySelectorAll('.similar-list li').length > 0]"
    );
    assert_eq!(
        b.js(&card_words).await,
        serde_json::json!([
            "Show less",
            "true",
            "Star: add to the reading list",
            "Tags",
            "Topic",
            true
        ])
    );
    // The toggle names the other language in that language.
    b.click(".language-toggle").await;
    b.wait_for(
        "document.documentElement.lang === 'zh-Hans'",
        "the Chinese interface",
    )
    .await;
    assert_eq!(b.status().await, format!("共 {n} 篇论文，显示 {n} 篇"));
    // The cards speak Chinese too, and keep what the reader opened.
    assert_eq!(
        b.js(&card_words).await,
        serde_json::json!(["收起", "true", "加星标：加入阅读列表", "标签", "主题", true])
    );
    let placeholder = b
        .js("return document.querySelector('input[type=search]').placeholder")
        .await;
    assert!(placeholder.as_str().unwrap().starts_with("搜索标题和摘要"));
    let legend = b
        .js("return document.querySelector('fieldset[data-facet=topic] legend').textContent")
        .await;
    assert_eq!(legend, "主题");
    // The papers are content: shown as written.
    assert_eq!(b.titles().await, all_titles());
    // Remembered across a reload; switching back restores English.
    b.client.refresh().await.unwrap();
    b.wait_for(
        "document.documentElement.lang === 'zh-Hans'",
        "Chinese after reload",
    )
    .await;
    b.click(".language-toggle").await;
    b.wait_for("document.documentElement.lang === 'en'", "English again")
        .await;
    assert_eq!(b.status().await, format!("{n} of {n} papers"));
    b.close().await;
}

#[tokio::test]
async fn a_browser_set_to_chinese_opens_in_chinese() {
    let b = Browser::launch_in_language("zh-CN").await;
    b.open("").await;
    let n = total();
    b.wait_for(
        "document.documentElement.lang === 'zh-Hans'",
        "the Chinese interface from the browser's language",
    )
    .await;
    assert_eq!(b.status().await, format!("共 {n} 篇论文，显示 {n} 篇"));
    b.close().await;
}

/// A long facet lists its first few values until "Show all"; a value
/// selected further down (a link's) is listed too, ticked, and only it.
#[tokio::test]
async fn a_value_selected_far_down_a_long_facet_is_listed() {
    let e = engine();
    let (facet, def) = e
        .corpus
        .facets
        .iter()
        .enumerate()
        .find(|(_, f)| f.values.len() > 20)
        .expect("a long facet in the seeds");
    // The value fewest papers have: last in the facet's order.
    let totals = e.facet_totals(facet);
    let last = (0..def.values.len())
        .min_by_key(|&v| (totals[v], std::cmp::Reverse(v)))
        .unwrap();
    let (key, label) = (def.kind.key(), def.values[last].as_str());
    let b = Browser::launch("/", (1280, 900)).await;
    let query = b
        .js_with(
            "return new URLSearchParams([[arguments[0], arguments[1]]]).toString()",
            vec![key.into(), label.into()],
        )
        .await;
    b.open(&format!("?{}", query.as_str().unwrap())).await;
    let input = facet_input(&b, key, label).await;
    assert_eq!(
        input.prop("checked").await.unwrap().as_deref(),
        Some("true")
    );
    // The first eight, and the selected one.
    assert_eq!(facet_counts(&b, key).await.len(), 9);
    b.close().await;
}
