//! A conference-size list fetched whole behind the first screen, so that a
//! reader's first typing finds what it needs already in.
//!
//! Without it, every letter of a first search fetched the packs of
//! postings its words open, then the titles and bodies of its new cards,
//! then the tags for its counts, and the meaning file on the first pause:
//! on the real ACL list over a 20 Mbit/s link, 60–180 ms a letter. Once
//! the index's head is in and the first screen's cards are whole, the
//! page fetches, at the browser's lowest priority, in the order typing
//! reads them: the word list, the postings, the titles, the tags, the meaning file, the
//! bodies, then what only some readers use (phrases' positions, the
//! title order). A request made here never goes ahead of an answer: each
//! one waits until no request a reader waits on is on its way
//! ([`load::when_answers_settled`]). A pack an answer asks for while it
//! is on its way here is not fetched twice: the answer waits for it
//! ([`load::fetch_packs`]).
//!
//! Only a list whose files not yet in come to at most [`WHOLE_LIST_BYTES`]
//! (or what the build says: `CORPUS_AHEAD_BYTES`) is fetched whole; of a
//! larger one only the word list comes ahead, the rest as it is read.

use explorer_core::PaperPack;
use futures::channel::oneshot;

use crate::explorer::Explorer;
use crate::load::{self, Apart, Done, LoadError, Priority};

/// The most a list's files not yet in may weigh, uncompressed, for the
/// page to fetch them all in the background: about 8 MB brotli, a few
/// seconds at 20 Mbit/s. The ACL list (3,891 papers) is under it, a
/// list of 20,000 papers over it.
pub const WHOLE_LIST_BYTES: usize = 16 << 20;

/// How many requests the background keeps on their way at once: a pack
/// is 10–30 KB on the wire, and a 20 Mbit/s link with 40 ms round trips
/// holds 100 KB in flight (four lanes filled half of it). An answer's
/// request waits at most for one of them to end for a connection (six a
/// host over HTTP/1.1; none over HTTP/2), and is served first.
const LANES: usize = 6;

/// Starts fetching the whole list, if it is small enough
/// ([`WHOLE_LIST_BYTES`]), once no request a reader waits on is on its
/// way. Called once the index's head is open.
pub fn fetch_whole_list(x: Explorer) {
    let bytes = load::offline_bytes();
    if bytes == 0 || bytes > load::ahead_bytes().unwrap_or(WHOLE_LIST_BYTES) {
        fetch_words(x);
        return;
    }
    // The meaning file is mostly the model's vocabulary, the same for any
    // list: on a small list (the seeds: 57 papers) it would be nearly all
    // that a visitor who never types downloads, so there it still waits
    // for the first query. It comes ahead only where the list's own files
    // weigh at least twice as much.
    let meaning = load::meaning_bytes_not_in();
    let meaning_ahead = meaning * 2 <= bytes.saturating_sub(meaning);
    leptos::task::spawn_local(async move {
        answers_settled().await;
        let engine = x.engine;
        let (words, packs): (Vec<u32>, Vec<u32>) = engine
            .packs_not_in()
            .into_iter()
            .map(|(k, _)| k)
            .partition(|&k| engine.is_words_pack(k));
        let (postings, positions): (Vec<u32>, Vec<u32>) =
            packs.into_iter().partition(|&k| engine.is_postings_pack(k));
        let (titles, bodies): (Vec<PaperPack>, Vec<PaperPack>) = engine
            .paper_packs_not_in()
            .into_iter()
            .map(|(p, _)| p)
            .partition(|p| matches!(p, PaperPack::Title(_)));
        let packs = |k, done| load::fetch_packs(&[k], Priority::Ahead, done);
        let paper_packs = |p, done| load::fetch_paper_packs(&[p], Priority::Ahead, done);
        in_lanes(words, packs).await;
        in_lanes(postings, packs).await;
        in_lanes(titles, paper_packs).await;
        tags(x).await;
        if meaning_ahead {
            answers_settled().await;
            crate::open_meaning(x, Priority::Ahead).await;
        }
        in_lanes(bodies, paper_packs).await;
        in_lanes(positions, packs).await;
        answers_settled().await;
        let order = told(|done| load::fetch_apart_once(Apart::TitleOrder, Priority::Ahead, done));
        if let Err(e) = order.await {
            leptos::logging::warn!("{e}");
        }
    });
}

/// A list too long to fetch whole: its word list alone, in packs, once
/// no answer's request is on its way (every query reads a pack or two of
/// it; at 100,000 papers it is about 400 KB brotli). Its words once in, a
/// card's words are kept for highlighting ([`crate::cards`]).
fn fetch_words(x: Explorer) {
    leptos::task::spawn_local(async move {
        answers_settled().await;
        let engine = x.engine;
        let words: Vec<u32> = (engine.packs_not_in().into_iter())
            .map(|(k, _)| k)
            .filter(|&k| engine.is_words_pack(k))
            .collect();
        let packs = |k, done| load::fetch_packs(&[k], Priority::Ahead, done);
        in_lanes(words, packs).await;
    });
}

/// The tags, fetched ahead: once in, the answer shown gets its exact
/// counts.
async fn tags(x: Explorer) {
    answers_settled().await;
    let settle = x.search.tags_settle();
    let result = told(|done| load::fetch_apart_once(Apart::Tags, Priority::Ahead, done)).await;
    settle(result);
}

/// Fetches each of `items` with `fetch`, [`LANES`] at a time, each
/// request started only when no answer's is on its way; a failure
/// (offline) is left for the reader's own requests to meet again.
async fn in_lanes<K: Copy + 'static>(
    items: Vec<K>,
    fetch: impl Fn(K, Done) -> bool + Copy + 'static,
) {
    let lanes = (0..LANES).map(|lane| {
        let mine: Vec<K> = items.iter().copied().skip(lane).step_by(LANES).collect();
        async move {
            for k in mine {
                answers_settled().await;
                if let Err(e) = told(|done| fetch(k, done)).await {
                    leptos::logging::warn!("{e}");
                    return;
                }
            }
        }
    });
    futures::future::join_all(lanes).await;
}

/// What `start` tells its `done`, awaited; at once when `start` says it
/// will tell nothing (what it fetches is in).
async fn told(start: impl FnOnce(Done) -> bool) -> Result<(), LoadError> {
    let (send, receive) = oneshot::channel();
    let will_tell = start(Box::new(move |result| {
        let _ = send.send(result);
    }));
    if !will_tell {
        return Ok(());
    }
    receive.await.unwrap_or(Ok(()))
}

/// Once no request a reader waits on is on its way.
async fn answers_settled() {
    let (send, receive) = oneshot::channel();
    load::when_answers_settled(move || {
        let _ = send.send(());
    });
    let _ = receive.await;
}
