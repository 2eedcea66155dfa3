//! A list of the reader's own, opened in the page: a real list (ACL
//! Anthology papers, written as BibTeX by the explorer's own export) dropped
//! on the page or named by `?list=URL`, compiled by the page's compiler (a
//! Web Worker) and kept by the browser; each answer checked against the
//! same file compiled natively. Bad files get their message, and the list
//! in view is never lost.

use std::path::PathBuf;
use std::time::Duration;

use browser_tests::{ranked_titles, Browser, APP_STARTED};
use explorer_core::build::{build_meaning, compile_sources, parse_taxonomy, Source, StaticModel};
use explorer_core::search::Meaning;
use explorer_core::view::{export, Format};
use explorer_core::Engine;
use serde_json::json;

/// The first `n` papers of a real ACL list, written as BibTeX.
fn acl_bibtex(n: usize) -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/acl-records");
    let file = dir.join("naacl2021.jsonl");
    let text = std::fs::read_to_string(&file).expect("the real list (`./dev test` links it)");
    let first: String = text.lines().take(n).map(|l| format!("{l}\n")).collect();
    let corpus = compile(&[("acl.jsonl", first.as_bytes())]);
    let docs: Vec<u32> = (0..corpus.papers.len() as u32).collect();
    export(&corpus, &docs, Format::Bibtex, "https://example.org/")
}

fn compile(files: &[(&str, &[u8])]) -> explorer_core::Corpus {
    let sources: Vec<Source> = (files.iter())
        .map(|(file, bytes)| Source {
            file: file.to_string(),
            bytes: bytes.to_vec(),
        })
        .collect();
    let taxonomy = parse_taxonomy("default", explorer_core::build::DEFAULT_TAXONOMY).unwrap();
    compile_sources(&sources, &taxonomy).expect("the list compiles natively")
}

/// The engine the page should be: the file compiled natively, with its
/// meaning file.
fn native(name: &str, text: &str) -> Engine {
    let corpus = compile(&[(name, text.as_bytes())]);
    let meaning = build_meaning(&StaticModel::committed(), &corpus.papers).to_bytes();
    let e = Engine::new(corpus);
    e.open_meaning(Meaning::from_bytes(&meaning).unwrap())
        .unwrap();
    e
}

/// Drops a file named `name` holding `bytes` on the page, as a reader
/// dragging it from their desktop.
async fn drop_file(b: &Browser, name: &str, bytes: &[u8]) {
    let script = "const [name, bytes] = arguments;
        const dt = new DataTransfer();
        dt.items.add(new File([new Uint8Array(bytes)], name));
        document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));";
    b.js_with(script, vec![json!(name), json!(bytes)]).await;
}

/// Waits for the page to show the list titled `title`, the app up.
async fn wait_for_list(b: &Browser, title: &str) {
    wait_for_list_within(b, title, Duration::from_secs(10)).await;
}

/// [`wait_for_list`] for a list whose compile in the page takes seconds
/// (the whole real list: about 7 s on a quiet machine, more when the
/// other tests share its two cores).
async fn wait_for_list_within(b: &Browser, title: &str, within: Duration) {
    let shown = format!(
        "{APP_STARTED} && document.querySelector('h1').textContent === {}",
        json!(title)
    );
    b.wait_for_within(&shown, &format!("the list {title:?} in view"), within)
        .await;
}

fn built_in_title() -> String {
    browser_tests::engine().corpus.title()
}

/// True while a list compiles: its progress is shown.
const COMPILING: &str = "document.querySelector('.open-list progress') !== null";

/// Clicks the compile's Cancel.
async fn cancel_compile(b: &Browser) {
    b.click(".open-list progress ~ button").await;
}

/// Whether the page has no element `css` matches.
async fn has_none(b: &Browser, css: &str) -> bool {
    let script = format!("return document.querySelector({}) === null", json!(css));
    b.js(&script).await == json!(true)
}

#[tokio::test]
async fn a_bibtex_file_dropped_on_the_page_becomes_the_list_in_view_and_stays() {
    let bib = acl_bibtex(120);
    let want = native("naacl-sample.bib", &bib);
    let b = Browser::start().await;
    b.open("").await;
    drop_file(&b, "naacl-sample.bib", bib.as_bytes()).await;
    wait_for_list(&b, &want.corpus.title()).await;
    assert!(b.location_search().await.starts_with("?source="));
    // Its papers, searched as the native compiler's engine ranks them.
    let title = &want.corpus.papers[7].title;
    b.type_query(title).await;
    b.wait_for_titles(&ranked_titles(&want, title)).await;
    // A reload reopens it, the query in the address with it.
    b.client.refresh().await.unwrap();
    wait_for_list(&b, &want.corpus.title()).await;
    b.wait_for_titles(&ranked_titles(&want, title)).await;
    // "Your lists" names it, and leads back to the built-in list.
    shows_your_lists(&b).await;
    let summary = b.text_of(".your-lists summary").await;
    assert_eq!(summary, "Your lists (1)");
    let line = b
        .js("return document.querySelector('.your-lists .kept-line').textContent")
        .await;
    let line = line.as_str().unwrap_or_default();
    assert!(line.starts_with("120 papers · "), "{line}");
    open_your_lists(&b).await;
    b.follow(".your-lists a[href='./']").await;
    wait_for_list(&b, &built_in_title()).await;
    // Deleted, it is gone from the list and from the browser's storage.
    open_your_lists(&b).await;
    b.click(".your-lists li button[aria-label^='Delete']").await;
    b.wait_for(
        "document.querySelector('.your-lists') === null",
        "no kept list",
    )
    .await;
    let caches = b
        .js("return caches.keys().then(k => k.filter(n => n.startsWith('opened-list-')).length)")
        .await;
    assert_eq!(caches, json!(0));
    b.close().await;
}

/// Waits for "Your lists": its code comes after the list in view (the
/// module's `open_list` chunk).
async fn shows_your_lists(b: &Browser) {
    b.wait_for(
        "document.querySelector('.your-lists summary') !== null",
        "Your lists",
    )
    .await;
}

/// Opens "Your lists", once the page shows it.
async fn open_your_lists(b: &Browser) {
    shows_your_lists(b).await;
    b.click(".your-lists summary").await;
}

/// The compiler's message for the file the page shows, once it fails.
async fn failure(b: &Browser) -> String {
    b.wait_for(
        "document.querySelector('.open-list-error[role=alert]') !== null",
        "the compiler's message",
    )
    .await;
    b.text_of(".open-list-error[role=alert]").await
}

#[tokio::test]
async fn a_bad_file_says_why_and_the_list_in_view_stays() {
    let b = Browser::start().await;
    b.open("").await;
    let title = built_in_title();
    // An image renamed .csv.
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89";
    drop_file(&b, "figure.csv", png).await;
    let said = failure(&b).await;
    assert!(said.contains("figure.csv:1:"), "{said}");
    // A BibTeX entry with an unclosed brace.
    drop_file(
        &b,
        "broken.bib",
        b"@article{a,\n  title = {On {Brace,\n  abstract = {x}\n",
    )
    .await;
    let said = failure(&b).await;
    assert!(
        said.starts_with("This file could not be read as a list: broken.bib:"),
        "{said}"
    );
    // A file of no format the page reads.
    drop_file(&b, "notes.docx", b"PK\x03\x04").await;
    assert!(failure(&b).await.starts_with("notes.docx: not a list"));
    // The list in view is the built-in one still, and searches.
    wait_for_list(&b, &title).await;
    b.type_query("unlearning").await;
    b.wait_for_titles(&browser_tests::expected_titles("unlearning"))
        .await;
    b.close().await;
}

/// A lab's file as reference managers write it: a record with its title
/// only is a paper (its card says it has no abstract), an entry the
/// reader cannot read is skipped and named, the rest kept; the page says
/// what it kept as the CLI does.
#[tokio::test]
async fn a_record_without_an_abstract_is_a_paper_and_a_broken_entry_is_named() {
    let good = acl_bibtex(30);
    let bib = format!(
        "{good}\n@inproceedings{{no-abstract,\n  title = {{A Paper Without One}},\n  year = {{2021}}\n}}\n\
         \n@article{{broken,\n  title = {{Half {{Open}},\n}}\n"
    );
    let want = native("lab.bib", &bib);
    assert_eq!(want.len(), 31);
    let b = Browser::start().await;
    b.open("").await;
    drop_file(&b, "lab.bib", bib.as_bytes()).await;
    wait_for_list(&b, &want.corpus.title()).await;
    let line = |key: &str| {
        1 + bib[..bib.find(&format!("{{{key},")).unwrap()]
            .matches('\n')
            .count()
    };
    b.wait_for(
        "document.querySelector('.open-list-summary')?.textContent === \
         '32 records: 31 papers, 1 without an abstract; 1 skipped'",
        "the compile's summary",
    )
    .await;
    let said = browser_tests::strings(
        b.js("return [...document.querySelectorAll('.open-list-said li')].map(l => l.textContent)")
            .await,
    );
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].starts_with(&format!(
            "lab.bib:{}: entry broken: skipped: BibTeX: ",
            line("broken")
        )),
        "{said:?}"
    );
    b.type_query("A Paper Without One").await;
    b.wait_for_titles_prefix(&ranked_titles(&want, "A Paper Without One"))
        .await;
    assert_eq!(b.titles().await[0], "A Paper Without One");
    b.wait_for(
        "document.querySelector('.results article.paper .no-abstract')?.textContent.startsWith('No abstract')",
        "the card saying it has no abstract",
    )
    .await;
    b.close().await;
}

#[tokio::test]
async fn a_list_named_by_url_is_fetched_compiled_and_kept() {
    let bib = acl_bibtex(40);
    let want = native("lab.bib", &bib);
    let b = Browser::start().await;
    b.server
        .pages
        .lock()
        .unwrap()
        .push(("/shared/lab.bib".into(), bib.clone()));
    b.open("?source=/shared/lab.bib").await;
    wait_for_list(&b, &want.corpus.title()).await;
    let named = b
        .js("return new URLSearchParams(location.search).get('source')")
        .await;
    assert_eq!(
        named,
        json!("/shared/lab.bib"),
        "the address still names it"
    );
    let title = &want.corpus.papers[3].title;
    b.type_query(title).await;
    b.wait_for_titles(&ranked_titles(&want, title)).await;
    // A URL that answers 404, and one that cannot be fetched at all, named
    // as pages before `source` named them.
    b.open("?list=/shared/missing.bib").await;
    assert!(failure(&b)
        .await
        .ends_with("/shared/missing.bib answered HTTP 404."));
    wait_for_list(&b, &built_in_title()).await;
    b.open("?list=http://127.0.0.1:9/lab.bib").await;
    let said = failure(&b).await;
    assert!(
        said.contains("Download the file and open it here instead."),
        "{said}"
    );
    b.close().await;
}

#[tokio::test]
async fn bad_files_each_say_why() {
    let b = Browser::start().await;
    b.open("").await;
    let cases: [(&str, &[u8], &str); 4] = [
        ("empty.txt", b"", "empty.txt:1: empty file"),
        (
            "latin1.txt",
            b"A list\n\nCaf\xe9 abstracts.\n",
            "latin1.txt:3: invalid UTF-8",
        ),
        (
            "object.json",
            b"{\"title\": \"A\", \"abstract\": \"B\"}",
            "object.json:1:",
        ),
        ("papers.xlsx", b"PK", "papers.xlsx: not a list"),
    ];
    for (name, bytes, said) in cases {
        drop_file(&b, name, bytes).await;
        let shown = failure(&b).await;
        assert!(shown.contains(said), "{name}: {shown}");
    }
    // Over what the page compiles: refused before it is read, naming the
    // command that builds it.
    b.js("const dt = new DataTransfer();
          dt.items.add(new File([new Uint8Array(200 * 1024 * 1024)], 'huge.csv'));
          document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));")
        .await;
    let shown = failure(&b).await;
    assert!(
        shown.contains("over the 48 MB the page can compile") && shown.contains("./dev build"),
        "{shown}"
    );
    wait_for_list(&b, &built_in_title()).await;
    // A spreadsheet's CSV, separated by semicolons, is read as it is meant.
    let csv = b"title;abstract\nA, B;An abstract about agents, in full.\n";
    drop_file(&b, "semicolons.csv", csv).await;
    wait_for_list(&b, &compile(&[("semicolons.csv", csv)]).title()).await;
    assert_eq!(b.titles().await, ["A, B"]);
    b.close().await;
}

#[tokio::test]
async fn a_hostile_list_opened_from_a_file_runs_nothing() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpora/hostile");
    let text = std::fs::read(dir.join("hostile.txt")).unwrap();
    let want = compile(&[("hostile.txt", &text)]);
    let b = Browser::start().await;
    b.open("").await;
    drop_file(&b, "hostile.txt", &text).await;
    wait_for_list(&b, &want.title()).await;
    crate::hostile::nothing_ran(&b).await;
    b.close().await;
}

#[tokio::test]
async fn storage_refused_says_so_and_keeps_nothing() {
    let bib = acl_bibtex(20);
    let b = Browser::start().await;
    b.open("").await;
    // The browser's storage full: every write to Cache Storage refused,
    // as a quota refuses it.
    b.js("Cache.prototype.put = function () { \
            return Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError')); }; \
          return 0")
        .await;
    drop_file(&b, "ours.bib", bib.as_bytes()).await;
    let said = failure(&b).await;
    assert!(
        said.starts_with("The browser would not keep this list (The quota has been exceeded.)"),
        "{said}"
    );
    // Nothing half-written, and the built-in list, which still searches.
    nothing_kept(&b).await;
    b.type_query("unlearning").await;
    b.wait_for_titles(&browser_tests::expected_titles("unlearning"))
        .await;
    b.close().await;
}

/// A kept list whose files the browser lost (site data cleared but for
/// `localStorage`): its link says so and opens the built-in list, and the
/// record goes; the page does not fail.
#[tokio::test]
async fn a_kept_list_whose_files_are_gone_says_so() {
    let bib = acl_bibtex(15);
    let want = native("gone.bib", &bib);
    let b = Browser::start().await;
    b.open("").await;
    drop_file(&b, "gone.bib", bib.as_bytes()).await;
    wait_for_list(&b, &want.corpus.title()).await;
    let search = b.location_search().await;
    delete_kept_files(&b).await;
    b.open(&search).await;
    wait_for_list(&b, &built_in_title()).await;
    b.wait_for(
        "document.querySelector('.open-list-error[role=status]') !== null",
        "the list's message",
    )
    .await;
    let said = b.text_of(".open-list-error[role=status]").await;
    assert!(
        said.starts_with("This list's files are gone from this browser"),
        "{said}"
    );
    // Its id is not fetched as a URL (which would fail, and say so).
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(
        has_none(&b, ".open-list-error[role=alert]").await,
        "no failure"
    );
    assert_eq!(
        b.js("return localStorage.getItem('paper-explorer-lists')")
            .await,
        json!("[]")
    );
    // A list named by its URL is fetched and kept again instead.
    b.server
        .pages
        .lock()
        .unwrap()
        .push(("/shared/gone.bib".into(), bib.clone()));
    b.open("?list=/shared/gone.bib").await;
    wait_for_list(&b, &want.corpus.title()).await;
    delete_kept_files(&b).await;
    b.server.hold("gone.bib");
    b.open("?list=/shared/gone.bib").await;
    b.wait_for(COMPILING, "the list fetched again").await;
    assert!(
        has_none(&b, ".open-list-error").await,
        "no message while it is fetched again"
    );
    b.server.release();
    wait_for_list(&b, &want.corpus.title()).await;
    b.close().await;
}

/// Deletes the files of every list this browser keeps, their records
/// left: site data cleared but for `localStorage`.
async fn delete_kept_files(b: &Browser) {
    b.js(
        "return caches.keys().then(k => Promise.all(k.filter(n => n.startsWith('opened-list-')) \
            .map(n => caches.delete(n)))).then(() => 0)",
    )
    .await;
}

/// Cancelled while the page's compiler code is still on its way (a slow
/// network): the compile never starts once it comes.
#[tokio::test]
async fn a_compile_cancelled_before_the_compiler_came_never_starts() {
    let bib = acl_bibtex(20);
    let b = Browser::start().await;
    b.open("").await;
    b.server.hold(".wasm");
    drop_file(&b, "ours.bib", bib.as_bytes()).await;
    b.wait_for(COMPILING, "the compile's progress").await;
    cancel_compile(&b).await;
    b.server.release();
    b.wait_for(
        "performance.getEntriesByType('resource').some(e => e.name.includes('/split-'))",
        "the compiler's code come",
    )
    .await;
    // Time for a compile to have started, and said so.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert!(has_none(&b, ".open-list progress").await, "no progress");
    nothing_kept(&b).await;
    b.close().await;
}

/// Holds the page's writes to Cache Storage (where a compiled list is
/// kept) until `window.__release()`; `window.__puts` counts them.
async fn hold_cache_writes(b: &Browser) {
    b.js(
        "let release; const held = new Promise(r => { release = r; }); \
          window.__release = release; window.__puts = 0; \
          const put = Cache.prototype.put; \
          Cache.prototype.put = function (...args) { \
            window.__puts += 1; return held.then(() => put.apply(this, args)); }; \
          return 0",
    )
    .await;
}

/// After a cancelled compile: no list's files once they are swept, no
/// record, the address as it was and the built-in list in view.
async fn nothing_kept(b: &Browser) {
    b.wait_for(
        "(caches.keys().then(k => { window.__lists = \
           k.filter(n => n.startsWith('opened-list-')).length; }), window.__lists === 0)",
        "no list's files in Cache Storage",
    )
    .await;
    assert_eq!(b.location_search().await, "");
    assert!(b
        .js("return localStorage.getItem('paper-explorer-lists')")
        .await
        .is_null());
    wait_for_list(b, &built_in_title()).await;
}

#[tokio::test]
async fn a_cancelled_compile_keeps_nothing() {
    let bib = acl_bibtex(1500);
    let b = Browser::start().await;
    b.open("").await;
    // Held, so that the compile cannot have ended when Cancel is clicked.
    hold_cache_writes(&b).await;
    drop_file(&b, "big.bib", bib.as_bytes()).await;
    b.wait_for(COMPILING, "the compile's progress").await;
    cancel_compile(&b).await;
    b.wait_for(
        "document.querySelector('.open-list progress') === null",
        "the progress gone",
    )
    .await;
    b.js("window.__release(); return 0").await;
    // Nothing comes of it later, either.
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    nothing_kept(&b).await;
    b.close().await;
}

/// Cancelled once the compiler is done, while the page stores the list:
/// the list is not kept, nor opened.
#[tokio::test]
async fn a_compile_cancelled_while_its_list_is_stored_keeps_nothing() {
    let bib = acl_bibtex(20);
    let b = Browser::start().await;
    b.open("").await;
    hold_cache_writes(&b).await;
    drop_file(&b, "ours.bib", bib.as_bytes()).await;
    b.wait_for("window.__puts > 0", "the list's files being stored")
        .await;
    cancel_compile(&b).await;
    b.js("window.__release(); return 0").await;
    nothing_kept(&b).await;
    b.close().await;
}

/// Switches into the `n`th frame of the page.
async fn enter_frame(b: &Browser, n: usize) {
    b.client.enter_parent_frame().await.unwrap();
    let frames = (b.client)
        .find_all(fantoccini::Locator::Css("iframe"))
        .await
        .unwrap();
    frames[n].clone().enter_frame().await.unwrap();
}

/// Two pages of the app at once, as two tabs: one stores its list while
/// the other starts a compile, which sweeps the files no record names.
/// The first list's files are not swept: it is kept and opens.
#[tokio::test]
async fn a_list_stored_while_another_page_compiles_is_kept_whole() {
    let (first, second) = (acl_bibtex(20), acl_bibtex(12));
    let (want, other) = (native("first.bib", &first), native("second.bib", &second));
    let b = Browser::start().await;
    let two = r#"<!doctype html><html><head><title>Two pages</title></head><body>
<iframe src="/" style="width:640px;height:800px"></iframe>
<iframe src="/" style="width:640px;height:800px"></iframe>
</body></html>"#;
    b.open_host_page("/two.html", two).await;
    for n in [0, 1] {
        enter_frame(&b, n).await;
        wait_for_list(&b, &built_in_title()).await;
    }
    enter_frame(&b, 0).await;
    hold_cache_writes(&b).await;
    drop_file(&b, "first.bib", first.as_bytes()).await;
    b.wait_for("window.__puts > 0", "the first list's files being stored")
        .await;
    enter_frame(&b, 1).await;
    drop_file(&b, "second.bib", second.as_bytes()).await;
    b.wait_for(COMPILING, "the second compile under way").await;
    // Its sweep asked for, and held back by the lists' lock.
    b.wait_for(
        "(navigator.locks.query().then(s => { window.__pending = \
           s.pending.some(l => l.name === 'paper-explorer-lists'); }), window.__pending === true)",
        "the second page's sweep waiting for the lists' lock",
    )
    .await;
    enter_frame(&b, 0).await;
    b.js("window.__release(); return 0").await;
    wait_for_list(&b, &want.corpus.title()).await;
    b.type_query("translation").await;
    b.wait_for_titles(&ranked_titles(&want, "translation"))
        .await;
    enter_frame(&b, 1).await;
    wait_for_list(&b, &other.corpus.title()).await;
    b.close().await;
}

/// A kept list's site made while another list compiles: the compile goes
/// on, and its list, once kept, opens only after the site has been
/// offered (opening reloads the page, which would drop it).
#[tokio::test]
async fn publishing_a_list_does_not_stop_a_compile() {
    let kept = acl_bibtex(1500);
    let other = acl_bibtex(400);
    let b = Browser::start().await;
    b.open("").await;
    drop_file(&b, "kept.bib", kept.as_bytes()).await;
    // Seconds of work each, more when the other tests share the cores
    // (WebKit's took over 10 s in CI).
    let within = Duration::from_secs(30);
    let kept_title = compile(&[("kept.bib", kept.as_bytes())]).title();
    wait_for_list_within(&b, &kept_title, within).await;
    // The offered file's name, and when, noted where they outlive the
    // page's reload into the other list.
    b.js("sessionStorage.clear();
          HTMLAnchorElement.prototype.click = function () {
            sessionStorage.setItem('offered', this.download);
            sessionStorage.setItem('offered_at', String(Date.now()));
          };")
        .await;
    drop_file(&b, "other.bib", other.as_bytes()).await;
    b.wait_for(COMPILING, "the other list's compile").await;
    open_your_lists(&b).await;
    b.click(".your-lists li button:not([aria-label])").await;
    assert!(
        !has_none(&b, ".open-list progress").await,
        "still compiling"
    );
    // The site of 1,500 papers is made, then the other list opens.
    let other_title = compile(&[("other.bib", other.as_bytes())]).title();
    wait_for_list_within(&b, &other_title, within).await;
    let offered = b
        .js("return [sessionStorage.getItem('offered'),
                     Number(sessionStorage.getItem('offered_at')) <= performance.timeOrigin]")
        .await;
    assert_eq!(
        offered,
        json!(["kept-explorer.zip", true]),
        "offered, before the other list opened"
    );
    b.close().await;
}

/// Switches into the frame of the page's `<paper-explorer>`.
async fn enter_explorer_frame(b: &Browser) {
    b.client
        .find(fantoccini::Locator::Css("paper-explorer iframe"))
        .await
        .unwrap()
        .enter_frame()
        .await
        .unwrap();
}

#[tokio::test]
async fn a_wiki_page_shows_its_own_list_with_no_build() {
    let bib = acl_bibtex(25);
    let want = native("papers.bib", &bib);
    let b = Browser::launch("/wiki/tools/iclr/", (1280, 900)).await;
    b.server
        .pages
        .lock()
        .unwrap()
        .push(("/lab/papers.bib".into(), bib.clone()));
    let wiki = r#"<!doctype html><html><head><title>Lab wiki: our papers</title>
<script src="/wiki/tools/iclr/embed.js" defer></script></head><body>
<h1>Our papers</h1>
<paper-explorer src="/wiki/tools/iclr/" list="papers.bib" query="translation"></paper-explorer>
</body></html>"#;
    b.open_host_page("/lab/ours.html", wiki).await;
    enter_explorer_frame(&b).await;
    wait_for_list(&b, &want.corpus.title()).await;
    b.wait_for_titles(&ranked_titles(&want, "translation"))
        .await;
    // The wiki names another list (the host API's `list`, version 2): the
    // frame opens it, still embedded.
    let more = acl_bibtex(12);
    let other = native("more.bib", &more);
    assert_ne!(other.corpus.title(), want.corpus.title());
    b.server
        .pages
        .lock()
        .unwrap()
        .push(("/lab/more.bib".into(), more.clone()));
    b.client.enter_parent_frame().await.unwrap();
    b.js("document.querySelector('paper-explorer').setAttribute('list', 'more.bib'); return 0")
        .await;
    enter_explorer_frame(&b).await;
    wait_for_list(&b, &other.corpus.title()).await;
    let search = b.location_search().await;
    assert!(
        search.contains("embed=1") && search.contains("more.bib"),
        "{search}"
    );
    b.close().await;
}

#[tokio::test]
async fn a_kept_list_opens_offline() {
    let bib = acl_bibtex(30);
    let want = native("offline.bib", &bib);
    let b = Browser::start().await;
    b.open("").await;
    b.wait_for_service_worker().await;
    drop_file(&b, "offline.bib", bib.as_bytes()).await;
    wait_for_list(&b, &want.corpus.title()).await;
    let address = format!("{}{}", b.server.base, b.location_search().await);
    // The network goes away; the list's address opens it as before.
    b.server
        .offline
        .store(true, std::sync::atomic::Ordering::SeqCst);
    b.client.goto(&address).await.unwrap();
    wait_for_list(&b, &want.corpus.title()).await;
    let title = &want.corpus.papers[2].title;
    b.type_query(title).await;
    b.wait_for_titles(&ranked_titles(&want, title)).await;
    // What opening a list needs (the compiler, the module's chunk that
    // talks to it) was kept when it was first used: another list opens
    // offline too.
    let more = acl_bibtex(12);
    let second = native("second.bib", &more);
    drop_file(&b, "second.bib", more.as_bytes()).await;
    wait_for_list(&b, &second.corpus.title()).await;
    b.close().await;
}

/// A new build that takes over while the reader is offline (its notice
/// clicked on a train) still opens the kept list in view: where a list is
/// kept, each new build's worker precaches the module's chunks, the one
/// that reads the kept lists with them.
#[tokio::test]
async fn a_kept_list_opens_offline_under_a_build_that_took_over_offline() {
    let bib = acl_bibtex(20);
    let want = native("kept.bib", &bib);
    let b = Browser::start().await;
    b.open("").await;
    b.wait_for_service_worker().await;
    drop_file(&b, "kept.bib", bib.as_bytes()).await;
    wait_for_list(&b, &want.corpus.title()).await;
    // A new deploy, installed while online: it waits for the old build's
    // page to close.
    *b.server.next_build.lock().unwrap() = "next".into();
    b.client.refresh().await.unwrap();
    b.wait_for(
        "document.querySelector('.update-banner') !== null",
        "the new build installed",
    )
    .await;
    // Offline, the reader takes the new build: it opens the list with the
    // chunks it precached.
    b.server
        .offline
        .store(true, std::sync::atomic::Ordering::SeqCst);
    b.js("window.__old_build = true; return 0").await;
    b.click(".update-banner button").await;
    b.wait_for(
        "window.__old_build === undefined",
        "the reload into the new build",
    )
    .await;
    wait_for_list(&b, &want.corpus.title()).await;
    // The old build's cache went as the new one took over.
    let builds = "return caches.keys().then(k => k.filter(n => n.startsWith('paper-explorer-')))";
    b.wait_for_one_build_cache(builds, "paper-explorer-next-")
        .await;
    b.close().await;
}

/// The whole ACL list in one file (3,891 papers: a long list, whose parts
/// ship apart), as `./dev test` writes it for the build
/// `target/dist-acl-published`.
fn acl_published() -> (String, PathBuf) {
    let top = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target");
    let file = top.join("acl-published/acl.jsonl");
    let text = std::fs::read_to_string(&file).expect("`./dev test` writes target/acl-published");
    (text, top.join("dist-acl-published"))
}

/// "Download this explorer" gives the site the CLI builds for the same
/// file (`CORPUS_DIR=… ./dev build`), byte for byte, the single file
/// (`explorer-single-file.html`) with it: every file of that build but
/// the `.br` copies (brotli at its highest quality, for servers that send
/// them as they are), which the site works without and the zip leaves out.
#[tokio::test]
async fn a_kept_list_downloads_as_the_site_the_cli_builds() {
    let (text, built) = acl_published();
    let b = Browser::start().await;
    // The page as the build wrote it: the tests' console capture would be
    // in the page the compiler stages again.
    b.server
        .as_built
        .store(true, std::sync::atomic::Ordering::SeqCst);
    b.open("").await;
    b.wait_for_service_worker().await;
    drop_file(&b, "acl.jsonl", text.as_bytes()).await;
    let title = compile(&[("acl.jsonl", text.as_bytes())]).title();
    wait_for_list_within(&b, &title, Duration::from_secs(60)).await;
    // The download is caught where the page offers it.
    b.js("window.__offered = null;
          HTMLAnchorElement.prototype.click = function () { window.__offered = [this.download, this.href]; };")
        .await;
    open_your_lists(&b).await;
    b.click(".your-lists li button:not([aria-label])").await;
    // The zip holds the whole list's site and its single file.
    b.wait_for_within(
        "window.__offered !== null",
        "the site offered as a download",
        Duration::from_secs(60),
    )
    .await;
    // The zip the page offers, handed to the test server whole.
    let name = b
        .js("const [name, href] = window.__offered;
             return fetch(href).then(r => r.blob())
               .then(zip => fetch('/__upload', { method: 'POST', body: zip }))
               .then(() => name);")
        .await;
    assert_eq!(name, json!("acl-explorer.zip"));
    let zip = b
        .server
        .uploads
        .lock()
        .unwrap()
        .pop()
        .expect("the zip sent");
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(zip)).expect("a zip");
    let mut published = std::collections::BTreeMap::new();
    for i in 0..zip.len() {
        let mut file = zip.by_index(i).unwrap();
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut file, &mut bytes).unwrap();
        published.insert(file.name().to_string(), bytes);
    }
    let mut differ = Vec::new();
    let mut left_out = Vec::new();
    for entry in std::fs::read_dir(&built).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        match published.remove(&name) {
            Some(bytes) if bytes == std::fs::read(built.join(&name)).unwrap() => {}
            Some(_) => differ.push(name),
            None if name.ends_with(".br") => {}
            None => left_out.push(name),
        }
    }
    assert!(differ.is_empty(), "not as the CLI built them: {differ:?}");
    assert!(left_out.is_empty(), "left out: {left_out:?}");
    let extra: Vec<&String> = published.keys().collect();
    assert!(extra.is_empty(), "not in the CLI's build: {extra:?}");
    b.close().await;
}

/// A long list of the wiki's own (NAACL 2021's 533 papers as BibTeX),
/// compiled in the frame the drop-in element makes, scrolls inside its
/// frame as the built list does (`embed::a_long_list_scrolls_inside_its_frame`).
#[tokio::test]
async fn a_long_list_of_the_wikis_own_stays_usable_in_its_frame() {
    let bib = acl_bibtex(533);
    let n = native("naacl.bib", &bib).len();
    let b = Browser::launch("/wiki/tools/iclr/", (1280, 900)).await;
    b.server
        .pages
        .lock()
        .unwrap()
        .push(("/lab/naacl.bib".into(), bib));
    let wiki = "<!doctype html><html><head><title>Lab wiki: NAACL</title>\
        <script>window.heights = []; addEventListener('message', function (e) { \
        if (e.data && e.data.type === 'paper-explorer:height') window.heights.push(e.data); });</script>\
        <script src=\"/wiki/tools/iclr/embed.js\" defer></script></head><body>\
        <h1>NAACL 2021</h1><paper-explorer src=\"/wiki/tools/iclr/\" list=\"naacl.bib\"></paper-explorer>\
        </body></html>";
    let ready = format!(
        "document.querySelector('.status[role=status]')?.textContent.startsWith('{n} of {n}')"
    );
    crate::embed::a_long_list_scrolls_inside_its_frame(&b, "/lab/naacl.html", wiki, &ready).await;
    b.close().await;
}
