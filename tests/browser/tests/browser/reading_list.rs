//! The reading list: stars and notes that survive a reload, a “Starred”
//! facet with an honest count, the list exported and imported as JSON, and
//! storage that is full or holds something unreadable losing nothing.

use browser_tests::{all_titles, engine, ranked_docs, strings, Browser};
use explorer_core::view::ReadingList;
use serde_json::Value;

const KEY: &str = "paper-explorer-reading-list";

/// The ids of the papers whose star is pressed, in the order shown.
async fn starred_ids(b: &Browser) -> Vec<String> {
    strings(
        b.js(
            "return [...document.querySelectorAll('.results article.paper')]\
              .filter(a => a.querySelector('.star-button').getAttribute('aria-pressed') === 'true')\
              .map(a => a.id)",
        )
        .await,
    )
}

async fn starred_count(b: &Browser) -> String {
    b.js("return document.querySelector('.reading-list .facet-count').textContent")
        .await
        .as_str()
        .unwrap()
        .to_string()
}

async fn notice(b: &Browser) -> String {
    b.js("return document.querySelector('.reading-list-notice').textContent")
        .await
        .as_str()
        .unwrap()
        .to_string()
}

fn id(doc: u32) -> String {
    engine().corpus.papers[doc as usize].id.clone()
}

/// Opens a starred paper's note and types into it, as a reader would.
async fn type_note(b: &Browser, doc: u32, text: &str) {
    b.click(&format!("[id='{}'] .paper-note summary", id(doc)))
        .await;
    b.client
        .find(fantoccini::Locator::Css(&format!(
            "[id='{}'] .paper-note textarea",
            id(doc)
        )))
        .await
        .unwrap()
        .send_keys(text)
        .await
        .unwrap();
}

/// The note shown on a paper's card.
async fn note(b: &Browser, doc: u32) -> Value {
    b.js(&format!(
        "return document.querySelector(\"[id='{}'] .paper-note textarea\").value",
        id(doc)
    ))
    .await
}

#[tokio::test]
async fn stars_and_notes_survive_a_reload_and_form_a_facet() {
    let b = Browser::start().await;
    b.open("").await;
    b.wait_for_titles(&all_titles()).await;
    let shown = ranked_docs(engine(), "");

    // A click stars the first paper; `s` stars the one `j` moved to.
    b.click(&format!("[id='{}'] .star-button", id(shown[0])))
        .await;
    b.js("document.activeElement.blur(); return 0").await;
    b.press('j').await;
    b.press('j').await;
    b.press('j').await;
    b.press('s').await;
    let mut want = vec![id(shown[0]), id(shown[2])];
    assert_eq!(starred_ids(&b).await, want);
    assert_eq!(starred_count(&b).await, "2");

    // A note on the first, typed into its box.
    type_note(&b, shown[0], "read with the DPH-RL paper").await;

    // The count is the starred papers among the results; ticking it
    // shows exactly those, in the order of the ranking.
    let q = "reasoning";
    b.type_query(q).await;
    let ranked = ranked_docs(engine(), q);
    let starred_docs = [shown[0], shown[2]];
    let among: Vec<u32> = ranked
        .iter()
        .copied()
        .filter(|d| starred_docs.contains(d))
        .collect();
    b.wait_for(
        &format!(
            "document.querySelector('.reading-list .facet-count').textContent === '{}'",
            among.len()
        ),
        "the starred count among the results",
    )
    .await;
    b.click(".reading-list input[type=checkbox]").await;
    let titles: Vec<String> = among
        .iter()
        .map(|&d| engine().corpus.papers[d as usize].title.clone())
        .collect();
    b.wait_for_titles(&titles).await;
    b.wait_for(
        "location.search.includes('starred=1')",
        "starred=1 in the address",
    )
    .await;

    // Everything is there after a reload: stars, the note, the filter.
    b.client.refresh().await.unwrap();
    b.wait_for_titles(&titles).await;
    b.clear_query().await;
    let both: Vec<String> = [shown[0], shown[2]]
        .iter()
        .map(|&d| engine().corpus.papers[d as usize].title.clone())
        .collect();
    b.wait_for_titles(&both).await;
    assert_eq!(note(&b, shown[0]).await, "read with the DPH-RL paper");

    // Unstarring from the filtered list takes the paper off it.
    b.click(&format!("[id='{}'] .star-button", id(shown[2])))
        .await;
    b.wait_for_titles(&both[..1]).await;
    want.pop();
    assert_eq!(starred_ids(&b).await, want);
    let stored = b.js(&format!("return localStorage.getItem('{KEY}')")).await;
    let list = ReadingList::from_json(stored.as_str().unwrap()).unwrap();
    assert_eq!(list.entries.len(), 1);
    assert_eq!(list.entries[0].id, id(shown[0]));
    assert_eq!(list.entries[0].note, "read with the DPH-RL paper");
    b.close().await;
}

#[tokio::test]
async fn the_list_goes_out_as_json_and_comes_back_in() {
    let b = Browser::start().await;
    b.open("").await;
    b.wait_for_titles(&all_titles()).await;
    let shown = ranked_docs(engine(), "");
    for &d in &shown[3..6] {
        b.click(&format!("[id='{}'] .star-button", id(d))).await;
    }
    type_note(&b, shown[4], "note \"with\" <b>markup</b>").await;

    b.capture_downloads().await;
    b.click(".reading-list-actions button").await;
    let text = b.downloads(1).await.remove(0);
    let exported = ReadingList::from_json(&text).expect("the export reads back");
    let ids: Vec<&str> = exported.entries.iter().map(|e| e.id.as_str()).collect();
    let want: Vec<String> = shown[3..6].iter().map(|&d| id(d)).collect();
    assert_eq!(ids, want);
    assert_eq!(exported.entries[1].note, "note \"with\" <b>markup</b>");
    assert_eq!(
        exported.entries[0].title,
        engine().corpus.papers[shown[3] as usize].title
    );

    // A fresh browser (storage emptied) imports the file: same stars,
    // same note.
    b.js("localStorage.clear(); return 0").await;
    b.client.refresh().await.unwrap();
    b.wait_for_titles(&all_titles()).await;
    assert!(starred_ids(&b).await.is_empty());
    let import = "const [text] = arguments; const input = document.querySelector('.reading-list-actions input[type=file]'); \
                  const dt = new DataTransfer(); dt.items.add(new File([text], 'reading-list.json', {type: 'application/json'})); \
                  input.files = dt.files; input.dispatchEvent(new Event('change', {bubbles: true})); return 0";
    b.js_with(import, vec![Value::String(text.clone())]).await;
    b.wait_for(
        "document.querySelector('.reading-list-notice').textContent.startsWith('Imported: 3 new')",
        "the import's report",
    )
    .await;
    assert_eq!(starred_ids(&b).await, want);
    b.click(&format!("[id='{}'] .paper-note summary", id(shown[4])))
        .await;
    assert_eq!(note(&b, shown[4]).await, "note \"with\" <b>markup</b>");

    // Importing it again adds nothing; a file that is not a reading list
    // is refused, saying why, and changes nothing.
    b.js_with(import, vec![Value::String(text)]).await;
    b.wait_for(
        "document.querySelector('.reading-list-notice').textContent.startsWith('Imported: 0 new, 0 notes joined; 3 on the list')",
        "the second import's report",
    )
    .await;
    b.js_with(import, vec![Value::String("{\"papers\": [".into())])
        .await;
    b.wait_for(
        "document.querySelector('.reading-list-notice').textContent.startsWith('Nothing imported: not valid JSON')",
        "the refusal",
    )
    .await;
    // The refusal is the interface's own words, in Chinese too: no English
    // inside the Chinese interface.
    b.click(".language-toggle").await;
    b.wait_for(
        "document.querySelector('.reading-list-notice').textContent.startsWith('未导入任何内容：不是有效的 JSON（第 1 行')",
        "the refusal in Chinese",
    )
    .await;
    b.click(".language-toggle").await;
    b.wait_for("document.documentElement.lang === 'en'", "English again")
        .await;
    assert_eq!(starred_ids(&b).await, want);
    b.close().await;
}

/// The code that reads and writes reading-list files comes the first time
/// it is used. Offline before that, export and import each say so, and
/// the stars stay; back online, the export works.
#[tokio::test]
async fn offline_before_the_file_code_came_export_and_import_say_so() {
    let en = &explorer_core::view::EN;
    let b = Browser::start().await;
    b.open("").await;
    b.wait_for_service_worker().await;
    b.wait_for_titles(&all_titles()).await;
    let first = id(ranked_docs(engine(), "")[0]);
    b.click(&format!("[id='{first}'] .star-button")).await;

    // Opened again, offline (a reload goes past the service worker in
    // Firefox).
    b.server
        .offline
        .store(true, std::sync::atomic::Ordering::SeqCst);
    b.client.goto(&b.server.base).await.unwrap();
    // The first screen's static cards show the titles before the app has
    // started: a click then would reach no handler.
    b.wait_for(
        "document.documentElement.hasAttribute('data-app-started')",
        "the app, offline",
    )
    .await;
    b.wait_for_titles(&all_titles()).await;
    b.click(".reading-list-actions button").await;
    let said = |text: String| {
        format!("document.querySelector('.reading-list-notice').textContent === {text:?}")
    };
    let export_failed = (en.export_failed)(en.file_code_unfetched);
    b.wait_for(&said(export_failed), "the export's refusal, offline")
        .await;
    let import = "const input = document.querySelector('.reading-list-actions input[type=file]'); \
                  const dt = new DataTransfer(); dt.items.add(new File(['{}'], 'list.json')); \
                  input.files = dt.files; input.dispatchEvent(new Event('change', {bubbles: true})); return 0";
    b.js(import).await;
    let import_failed = (en.import_failed)(en.file_code_unfetched);
    b.wait_for(&said(import_failed), "the import's refusal, offline")
        .await;
    assert_eq!(starred_ids(&b).await, vec![first.clone()]);
    // The module's loader logs each failed fetch (Chromium, Firefox and
    // WebKit word it differently); nothing else may have gone wrong.
    let errors = b.console_errors().await;
    assert!(
        errors
            .iter()
            .all(|e| ["Failed to fetch", "NetworkError", "Load failed"]
                .iter()
                .any(|m| e.contains(m))),
        "{errors:?}"
    );
    b.js("window.__errors = []; return 0").await;

    b.server
        .offline
        .store(false, std::sync::atomic::Ordering::SeqCst);
    b.capture_downloads().await;
    b.click(".reading-list-actions button").await;
    let text = b.downloads(1).await.remove(0);
    let exported = ReadingList::from_json(&text).expect("the export reads back");
    assert_eq!(exported.entries[0].id, first);
    b.close().await;
}

#[tokio::test]
async fn an_unreadable_stored_list_is_kept_aside() {
    let b = Browser::start().await;
    b.open("").await;
    b.wait_for_titles(&all_titles()).await;
    b.js(&format!(
        "localStorage.setItem('{KEY}', '{{\"format\": \"paper-explorer/reading-list\", \"version\": 1, \"papers\": [{{\"id\": 7'); return 0"
    ))
    .await;
    b.client.refresh().await.unwrap();
    b.wait_for_titles(&all_titles()).await;
    assert!(
        notice(&b).await.contains("could not be read"),
        "{}",
        notice(&b).await
    );
    let shown = ranked_docs(engine(), "");
    b.click(&format!("[id='{}'] .star-button", id(shown[0])))
        .await;
    // The new list is stored, and the old value is still there, whole.
    let keys = strings(
        b.js(&format!(
            "return Object.keys(localStorage).filter(k => k.startsWith('{KEY}.unreadable-'))"
        ))
        .await,
    );
    assert_eq!(keys.len(), 1);
    assert!(notice(&b).await.contains(&keys[0]));
    assert_eq!(
        b.js(&format!("return localStorage.getItem('{}')", keys[0]))
            .await,
        "{\"format\": \"paper-explorer/reading-list\", \"version\": 1, \"papers\": [{\"id\": 7"
    );
    let stored = b.js(&format!("return localStorage.getItem('{KEY}')")).await;
    let list = ReadingList::from_json(stored.as_str().unwrap()).unwrap();
    assert_eq!(list.entries[0].id, id(shown[0]));
    b.close().await;
}

#[tokio::test]
async fn with_storage_full_stars_live_in_memory_and_say_so() {
    let b = Browser::start().await;
    b.open("").await;
    b.wait_for_titles(&all_titles()).await;
    // Fill this origin's storage to its quota, for real.
    b.js("let chunk = 'x'.repeat(1 << 20), i = 0; \
          while (chunk.length > 0) { try { localStorage.setItem('fill' + i++, chunk); } \
          catch (e) { chunk = chunk.slice(0, chunk.length >> 1); } } return i")
        .await;
    b.client.refresh().await.unwrap();
    b.wait_for_titles(&all_titles()).await;
    assert!(
        notice(&b).await.contains("last until the page is closed"),
        "{}",
        notice(&b).await
    );
    // Stars still work for this visit.
    let shown = ranked_docs(engine(), "");
    b.click(&format!("[id='{}'] .star-button", id(shown[1])))
        .await;
    assert_eq!(starred_ids(&b).await, vec![id(shown[1])]);
    assert_eq!(starred_count(&b).await, "1");
    b.js("localStorage.clear(); return 0").await;
    b.close().await;
}

#[tokio::test]
async fn a_shared_list_link_shows_its_papers_and_adds_them_to_another_readers_list() {
    // The sharer stars three papers, notes one, and copies the link.
    let b = Browser::start().await;
    b.open("").await;
    b.wait_for_titles(&all_titles()).await;
    let shown = ranked_docs(engine(), "");
    let picked = [shown[1], shown[4], shown[9]];
    for &d in &picked {
        b.click(&format!("[id='{}'] .star-button", id(d))).await;
    }
    type_note(&b, picked[1], "read this one first & aloud").await;
    b.click(".share-list summary").await;
    b.click(".share-list-notes input").await;
    b.wait_for(
        "document.querySelector('.share-list-link').value.includes('&n1=')",
        "the link with the note",
    )
    .await;
    let link = b
        .js("return document.querySelector('.share-list-link').value")
        .await;
    let link = link.as_str().unwrap();
    assert!(
        link.starts_with(&format!("{}#shared=", b.server.base)),
        "{link}"
    );
    let fragment = link.split_once('#').unwrap().1.to_string();
    // One id this explorer does not have, as from another list.
    let (ids, notes) = fragment.split_once('&').unwrap();
    let fragment = format!("{ids}~!p-from-elsewhere&{notes}");
    b.close().await;

    // Another reader (another origin: nothing starred) opens it.
    let r = Browser::start().await;
    r.open(&format!("#{fragment}")).await;
    let want: Vec<String> = shown
        .iter()
        .filter(|d| picked.contains(d))
        .map(|&d| engine().corpus.papers[d as usize].title.clone())
        .collect();
    r.wait_for_titles(&want).await;
    assert_eq!(
        r.js("return document.querySelector('#shared-list-heading').textContent")
            .await,
        "A shared list of 4 papers"
    );
    assert_eq!(
        r.js("return document.querySelector('.shared-list-stale').textContent")
            .await,
        "1 of its papers is not in this explorer: p-from-elsewhere."
    );
    assert_eq!(starred_count(&r).await, "0", "nothing is added unasked");
    r.click(".add-shared").await;
    r.wait_for(
        "document.querySelector('.shared-list-added').textContent !== ''",
        "what was added",
    )
    .await;
    assert_eq!(
        r.js("return document.querySelector('.shared-list-added').textContent")
            .await,
        "Added: 4 new, 0 notes joined; 4 on your list."
    );
    // The stale id is kept on the list, as an import keeps it.
    let stored: ReadingList = serde_json::from_str(
        r.js(&format!("return localStorage.getItem('{KEY}')"))
            .await
            .as_str()
            .unwrap(),
    )
    .unwrap();
    let stored_ids: Vec<&str> = stored.entries.iter().map(|e| e.id.as_str()).collect();
    let mut expected_ids: Vec<String> = picked.iter().map(|&d| id(d)).collect();
    expected_ids.push("p-from-elsewhere".into());
    assert_eq!(stored_ids, expected_ids);
    assert_eq!(stored.entries[1].note, "read this one first & aloud");
    // Show all papers: the whole list again, and the fragment gone.
    r.click(".close-shared").await;
    r.wait_for_titles(&all_titles()).await;
    assert_eq!(r.js("return location.hash").await, "");
    r.close().await;
}
