//! The host API on the seed corpus: a wiki's `set` message becomes the view
//! a reader would have made, parts this corpus lacks are named and skipped,
//! and messages of another kind or version change nothing.

use explorer_core::view::embed::{Change, Refusal, Set, State, VERSION};
use explorer_core::{FacetKind, Sort};

use crate::common;
use common::seed_corpus as corpus;

fn set(json: &str) -> Set {
    serde_json::from_str(json).expect("a set message")
}

#[test]
fn a_set_selects_facet_values_by_their_labels() {
    let c = corpus();
    let topic = c.facet_index(FacetKind::Topic).unwrap();
    let agents = c.facets[topic].values.iter().position(|v| v == "Agents");
    let agents = agents.expect("the seeds have an Agents topic") as u32;
    let (change, ignored) = set(
        r#"{"type": "paper-explorer:set", "version": 1, "query": "diffusion",
            "facets": {"topic": ["Agents", "Agents"]}, "sort": "title"}"#,
    )
    .change(c)
    .unwrap();
    assert!(ignored.is_empty(), "{ignored:?}");
    assert_eq!(change.query.as_deref(), Some("diffusion"));
    assert_eq!(change.sort, Some(Sort::Title));
    let selection = change.selection.unwrap();
    assert_eq!(selection[topic], vec![agents], "once, however often named");
    assert!(selection
        .iter()
        .enumerate()
        .all(|(f, v)| f == topic || v.is_empty()));
}

#[test]
fn parts_the_corpus_lacks_are_named_and_the_rest_applied() {
    let c = corpus();
    let id = c.papers[3].id.clone();
    let (change, ignored) = set(&format!(
        r#"{{"type": "paper-explorer:set", "version": 1,
            "facets": {{"colour": ["red"], "topic": ["No such topic"]}},
            "sort": "by-mood", "open": "{id}", "later": true}}"#
    ))
    .change(c)
    .unwrap();
    assert_eq!(
        ignored,
        vec![
            Refusal::Facet("colour".into()),
            Refusal::Value("topic".into(), "No such topic".into()),
            Refusal::Sort("by-mood".into()),
        ]
    );
    assert_eq!(change.open, Some(id));
    assert_eq!(change.sort, None);
    assert!(change.selection.unwrap().iter().all(Vec::is_empty));
    let (_, ignored) = set(r#"{"type": "paper-explorer:set", "version": 1, "open": "p-none"}"#)
        .change(c)
        .unwrap();
    assert_eq!(ignored, vec![Refusal::Paper("p-none".into())]);
}

#[test]
fn another_type_or_version_changes_nothing() {
    let c = corpus();
    let other = set(r#"{"type": "something-else", "version": 1, "query": "x"}"#);
    assert!(matches!(other.change(c), Err(Refusal::Unknown(_))));
    let newer = set(r#"{"type": "paper-explorer:set", "version": 3, "query": "x"}"#);
    assert_eq!(newer.change(c), Err(Refusal::Version(3)));
    let older = set(r#"{"type": "paper-explorer:set", "version": 0, "query": "x"}"#);
    assert_eq!(older.change(c), Err(Refusal::Version(0)));
    // Fields absent: nothing changes.
    let empty = set(r#"{"type": "paper-explorer:set", "version": 1}"#);
    assert_eq!(empty.change(c).unwrap(), (Change::default(), vec![]));
    // A wrong shape is an error of the parse, not a panic.
    assert!(serde_json::from_str::<Set>(r#"{"type": 3}"#).is_err());
    assert!(serde_json::from_str::<Set>(
        r#"{"type": "paper-explorer:set", "version": 1, "facets": ["x"]}"#
    )
    .is_err());
}

#[test]
fn the_state_names_selected_values_by_label() {
    let c = corpus();
    let (change, _) =
        set(r#"{"type": "paper-explorer:set", "version": 1, "facets": {"topic": ["Agents"]}}"#)
            .change(c)
            .unwrap();
    let state = State::new(
        c,
        "agents",
        &change.selection.unwrap(),
        Sort::Relevance,
        4,
        "http://wiki/?q=agents".into(),
    );
    let json = serde_json::to_value(&state).unwrap();
    assert_eq!(json["type"], "paper-explorer:state");
    assert_eq!(json["version"], VERSION);
    assert_eq!(json["facets"], serde_json::json!({"topic": ["Agents"]}));
    assert_eq!(json["sort"], "relevance");
    assert_eq!(json["total"], c.papers.len());
    assert_eq!(json["shown"], 4);
}

#[test]
fn a_set_of_version_two_opens_a_list_by_url_and_nothing_else() {
    let c = corpus();
    let (change, ignored) = set(
        r#"{"type": "paper-explorer:set", "version": 2, "query": "diffusion",
            "list": "https://lab.example.org/papers.bib"}"#,
    )
    .change(c)
    .unwrap();
    assert!(ignored.is_empty());
    assert_eq!(
        change,
        Change {
            list: Some("https://lab.example.org/papers.bib".into()),
            ..Change::default()
        },
        "the query is the old list's, not the new one's"
    );
    for bad in [
        "papers.bib",
        "file:///etc/passwd",
        "javascript:alert(1)",
        "ftp://lab.example.org/papers.bib",
        "https://lab.example.org/my papers.bib",
    ] {
        let message = serde_json::json!({"type": "paper-explorer:set", "version": 2, "list": bad});
        let refused = serde_json::from_value::<Set>(message).unwrap().change(c);
        assert_eq!(refused, Err(Refusal::List(bad.into())), "{bad}");
    }
    // A version 1 host's messages mean what they meant.
    let (change, _) = set(r#"{"type": "paper-explorer:set", "version": 1, "query": "x"}"#)
        .change(c)
        .unwrap();
    assert_eq!(change.query.as_deref(), Some("x"));
}
