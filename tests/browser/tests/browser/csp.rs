//! The page under a strict Content-Security-Policy: scripts from the page's
//! own origin only (no inline script, no eval; WebAssembly compilation
//! allowed), styles from files only, nothing from elsewhere. Searching,
//! filtering, the map, stars and the panels work, and the browser reports
//! no violation.

use browser_tests::{all_titles, expected_titles, Browser, STRICT_CSP};

#[tokio::test]
async fn the_page_works_under_a_strict_content_security_policy() {
    let b = Browser::start().await;
    *b.server.csp.lock().unwrap() = Some(STRICT_CSP.into());
    b.open("").await;
    b.wait_for_titles(&all_titles()).await;
    b.type_query("agents").await;
    b.wait_for_titles(&expected_titles("agents")).await;
    b.click("fieldset[data-facet=topic] input[type=checkbox]")
        .await;
    b.click(".results article.paper .star-button").await;
    b.click(".results article.paper .similar-toggle").await;
    b.click("#topic-map-toggle").await;
    b.wait_for("document.querySelector('svg.map .dot') !== null", "the map")
        .await;
    b.click(".theme-toggle").await;
    b.click(".share summary").await;
    b.click(".language-toggle").await;
    b.wait_for("document.documentElement.lang === 'zh-Hans'", "Chinese")
        .await;
    // The facet bars are set through the CSSOM, which the policy allows.
    let bar = b
        .js("return getComputedStyle(document.querySelector('fieldset[data-facet=topic] label')).getPropertyValue('--share')")
        .await;
    assert!(bar.as_str().unwrap().trim().ends_with('%'), "{bar}");
    let errors = b.js("return window.__errors").await;
    assert_eq!(errors, serde_json::json!([]), "violations or errors");
    b.close().await;
}
