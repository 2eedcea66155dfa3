//! What a reader (or a broken link) can throw at the page: garbage in the
//! URL, stale paper ids, queries of 10,000 characters, nothing but
//! operators, every kind of character. The page never goes blank, never
//! logs an error, and answers sensibly; a panic, forced in a test build,
//! shows a readable notice with a way back.

use browser_tests::{all_titles, engine, Browser, MALFORMED_ADDRESSES};
use explorer_core::model::tokenize;
use serde_json::Value;

#[tokio::test]
async fn garbage_in_the_url_falls_back_to_defaults() {
    let b = Browser::start().await;
    for url in MALFORMED_ADDRESSES {
        b.open(url).await;
        let n = engine().len();
        b.wait_for(
            "document.querySelector('.status').textContent.length > 0",
            "a status",
        )
        .await;
        let status = b.status().await;
        if url.contains("topic=Agents") {
            // The known value applies once; the whole-map region keeps all.
            let agents = b
                .js("return document.querySelectorAll('.results article.paper').length")
                .await
                .as_u64()
                .unwrap();
            assert!(agents > 0 && (agents as usize) < n, "{url}: {status}");
        } else {
            assert_eq!(status, format!("{n} of {n} papers"), "{url}");
            b.wait_for_titles(&all_titles()).await;
        }
        assert!(
            b.console_errors().await.is_empty(),
            "{url}: {:?}",
            b.console_errors().await
        );
    }
    b.close().await;
}

/// Titles of the papers whose title, abstract or authors hold a word with
/// the query word's stem, or starting with it (the word being typed): a
/// brute-force scan, sorted, to check the engine's answer against.
fn papers_with_a_word_like(word: &str) -> Vec<String> {
    let query = &tokenize(word)[0];
    let mut titles: Vec<String> = engine()
        .corpus
        .papers
        .iter()
        .filter(|p| {
            let all = format!("{}\n{}\n{}", p.title, p.text, p.authors.join(", "));
            tokenize(&all)
                .iter()
                .any(|t| t.stem == query.stem || t.folded.starts_with(&query.folded))
        })
        .map(|p| p.title.clone())
        .collect();
    titles.sort();
    assert!(!titles.is_empty(), "{word} is in the seed papers");
    titles
}

#[tokio::test]
async fn monstrous_queries_get_sensible_answers() {
    let b = Browser::start().await;
    b.open("").await;
    b.wait_for_titles(&all_titles()).await;
    let set = "const [q] = arguments; const f = document.querySelector('input[type=search]'); \
               f.value = q.replace('\\u{fffd}', '\\uD800'); \
               f.dispatchEvent(new Event('input', {bubbles: true})); return 0";
    let every_kind: String = [
        "\u{0}\u{7}\t\r\n\u{85}\u{2028}", // controls and separators
        "e\u{301}\u{20dd}",               // combining marks
        "ﷺ٣ש\u{202e}\u{200f}",            // right-to-left letters, digits, overrides
        "智能体 ｆｕｌｌ ﾊﾝ",             // CJK, full and half width
        "∑∫√ℵ ⅷ ½ ²",                     // math, number forms
        "🤖👩🏽‍🔬🇺🇳",                         // emoji and sequences
        "\u{e000}\u{fffe}\u{ffff}",       // private use, noncharacters
    ]
    .concat();
    let long_words = "reinforcement learning diffusion ".repeat(300);
    let cases: Vec<(String, Option<Vec<String>>)> = vec![
        (long_words.clone(), None),
        ("\"".repeat(5000) + "agents", None),
        ("- OR -- OR \"\" : :: tag: -tag: OR".into(), None),
        ("the of and a to in is".into(), None),
        (every_kind.clone(), None),
        // A lone surrogate: JavaScript strings may hold one, Rust's cannot
        // (the page receives U+FFFD in its place).
        (format!("{every_kind} agents\u{fffd}"), None),
        ("agents".into(), Some(papers_with_a_word_like("agents"))),
    ];
    let n = engine().len();
    for (q, want) in cases {
        // Between two answers, an answer of nothing: each case's own is seen.
        b.js_with(set, vec![Value::String("zzzqqq".into())]).await;
        b.wait_for(
            &format!("document.querySelector('.status').textContent === '0 of {n} papers'"),
            "no results",
        )
        .await;
        b.js_with(set, vec![Value::String(q.clone())]).await;
        // The engine's own answer for the same text (the words repeated
        // three hundred times have best matches: the status says so).
        let expected = browser_tests::ranked_titles(engine(), &q);
        let r = engine().search(&q, &engine().no_selection(), Default::default());
        let en = explorer_core::view::Lang::En.strings();
        let status = match r.best_matches() {
            0 => (en.status)(r.hits.len(), n),
            some => (en.status_best)(r.all_words, some, n),
        };
        b.wait_for(
            &format!(
                "document.querySelector('.status').textContent === {}",
                serde_json::to_string(&status).unwrap()
            ),
            "the answer",
        )
        .await;
        b.wait_for_titles(&expected).await;
        if let Some(want) = want {
            // Checked against a scan of the papers' words, not the engine.
            let mut shown = expected.clone();
            shown.sort();
            assert_eq!(shown, want, "{q}");
        }
        assert!(
            b.console_errors().await.is_empty(),
            "{:.40}: {:?}",
            q,
            b.console_errors().await
        );
    }
    b.close().await;
}

/// The paper list is two files of its own (the papers, then the search
/// index): one that comes back damaged (a proxy, a half-finished deploy)
/// gets a notice saying so, with a way back, not a blank page.
#[tokio::test]
async fn a_damaged_paper_list_is_said_to_be_unreadable() {
    for kind in ["corpus", "index"] {
        let name = browser_tests::build_file(&browser_tests::dist_dir(), kind);
        let b = Browser::start().await;
        b.server
            .pages
            .lock()
            .unwrap()
            .push((format!("/{name}"), "PXC\u{1} but not a corpus".into()));
        b.client.goto(&b.server.base).await.unwrap();
        let notice = b.crash_notice().await;
        assert!(
            notice.contains("The list of papers could not be loaded") && notice.contains(&name),
            "{notice}"
        );
        assert!(
            b.js("return document.querySelector('#crash a').href === location.href")
                .await
                .as_bool()
                .unwrap(),
            "the notice links back to the page"
        );
        // The one thing in the console is what went wrong.
        let errors = b.console_errors().await;
        assert!(
            errors.len() == 1 && errors[0].starts_with("paper list: "),
            "{errors:?}"
        );
        b.js("window.__errors = []; return 1").await;
        b.close().await;
    }
}
