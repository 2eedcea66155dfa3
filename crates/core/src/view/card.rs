//! A paper's card as one HTML string, and the pieces of it the page
//! replaces in place when the reader changes something.
//!
//! The app writes a card with one `innerHTML` and listens for its buttons
//! once, on the document: a card is a string the browser parses natively,
//! not a tree of elements created one call at a time across the
//! WebAssembly boundary with a reactive closure per attribute (a Leptos
//! card cost 0.5–0.75 ms; a keystroke or a facet click that brings back
//! most of a 57-paper list rebuilt most of them). What changes afterwards
//! — the highlights, a chip's state, the star, the expanded abstract, the
//! similar papers — is written into the card in place, from the functions
//! here, so that a button keeps its focus.
//!
//! Every text from the corpus is escaped; the elements, classes and
//! `data-` attributes are the page's contract with its stylesheet, its
//! event handlers and the browser tests.

use std::fmt::Write;

use html_escape::{encode_double_quoted_attribute as attr, encode_text as text};

use crate::model::facet::FacetKind;
use crate::model::{BodyRef, Corpus, LinkKind, Paper, Run, RunKind, Titles};
use crate::search::engine::Highlights;
use crate::view::html::{abstract_html, marked_html};
use crate::view::i18n::Strings;

/// Abstracts longer than this many bytes are clamped to a few lines until
/// the reader expands them.
pub const LONG_ABSTRACT: usize = 600;

/// Whether a paper's abstract is clamped until expanded.
pub fn is_long<'a>(body: impl Into<BodyRef<'a>>) -> bool {
    body.into().text.len() > LONG_ABSTRACT
}

/// What the reader has done that a card shows.
#[derive(Debug, Clone, Copy)]
pub struct CardState<'a> {
    /// The query's matches in the title, abstract and authors.
    pub marks: &'a Highlights,
    /// The facet selection: values selected, by facet index.
    pub selection: &'a [Vec<u32>],
    /// On the reading list.
    pub starred: bool,
    /// The reader's note (shown only when starred).
    pub note: &'a str,
    /// The abstract is shown whole.
    pub expanded: bool,
    /// The paper the address names (`#p-…`).
    pub target: bool,
    /// Its similar papers are listed.
    pub similar_open: bool,
}

/// The facets a card does not show as chips: the list, authors and year
/// are in its meta line already.
const NOT_CHIPS: [FacetKind; 3] = [FacetKind::List, FacetKind::Author, FacetKind::Year];

/// The whole card: an `<article class="paper" data-doc=…>`. Without its
/// `body` (its pack is on its way), the abstract says it is loading and
/// the links and similar papers wait with it; without its title (from
/// `titles`), the title says it is loading.
pub fn card_html<T: Titles + ?Sized>(
    corpus: &Corpus,
    titles: &T,
    doc: u32,
    body: Option<BodyRef<'_>>,
    state: &CardState,
    t: &Strings,
) -> String {
    let p = &corpus.papers[doc as usize];
    let id = attr(&p.id);
    let mut out = String::with_capacity(body.map_or(0, |b| b.text.len()) + 1024);
    let target = if state.target { " target" } else { "" };
    let _ = write!(
        out,
        "<article class=\"paper{target}\" id=\"{id}\" aria-labelledby=\"{id}-title\" \
         data-doc=\"{doc}\"><div class=\"paper-head\"><h2 class=\"paper-title\" \
         id=\"{id}-title\">{}</h2>{}</div>",
        title_link_html(&p.id, titles.title_of(doc), &state.marks.title, t),
        star_html(state.starred, t),
    );
    let authors = p.authors_with(body);
    if !authors.is_empty() {
        let _ = write!(
            out,
            "<p class=\"paper-authors\">{}</p>",
            authors_html(authors, state.marks)
        );
    }
    meta_into(&mut out, corpus, p, body, t);
    chips_into(&mut out, corpus, p, body, state.selection, t);
    let Some(body) = body else {
        let _ = write!(
            out,
            "<div class=\"abstract loading\" id=\"{id}-abstract\" aria-busy=\"true\">{}</div></article>",
            text(t.loading_abstract)
        );
        return out;
    };
    abstract_into(&mut out, &id, body, state, t);
    if state.starred {
        out.push_str(&note_html(state.note, t));
    }
    if !body.similar.is_empty() {
        let _ = write!(
            out,
            "<div class=\"similar\"><button type=\"button\" class=\"similar-toggle\" \
             aria-expanded=\"{}\" aria-controls=\"{id}-similar\">{}</button>{}</div>",
            state.similar_open,
            text(t.similar_papers),
            if state.similar_open {
                similar_html(titles, corpus, p, body, t)
            } else {
                String::new()
            }
        );
    }
    out.push_str("</article>");
    out
}

/// A card's abstract, clamped when long and not expanded, with its
/// expand button; for a record without one, a line that says so.
fn abstract_into(out: &mut String, id: &str, body: BodyRef<'_>, state: &CardState, t: &Strings) {
    if body.text.is_empty() {
        let _ = write!(out, "<p class=\"no-abstract\">{}</p>", text(t.no_abstract));
        return;
    }
    let long = is_long(body);
    let clamped = if long && !state.expanded {
        " clamped"
    } else {
        ""
    };
    let _ = write!(
        out,
        "<div class=\"abstract{clamped}\" id=\"{id}-abstract\">{}</div>",
        abstract_html(body, &state.marks.text)
    );
    if long {
        let _ = write!(
            out,
            "<button type=\"button\" class=\"expand\" aria-expanded=\"{}\" \
             aria-controls=\"{id}-abstract\">{}</button>",
            state.expanded,
            expand_label(state.expanded, t)
        );
    }
}

/// A card's title, a link to the card: the title with the query's matches
/// marked, or, while its pack is on its way, words saying so.
fn title_link_html(
    id: &str,
    title: Option<&str>,
    marks: &[std::ops::Range<usize>],
    t: &Strings,
) -> String {
    match title {
        Some(title) => format!(
            "<a href=\"#{}\">{}</a>",
            attr(id),
            marked_html(title, marks)
        ),
        None => format!(
            "<a href=\"#{}\" class=\"loading\" aria-busy=\"true\">{}</a>",
            attr(id),
            text(t.loading_title)
        ),
    }
}

/// The authors, joined by “, ”, with the query's matches marked.
pub fn authors_html(authors: &[String], marks: &Highlights) -> String {
    marked_html(&authors.join(", "), &marks.authors)
}

/// The expand button's words.
pub fn expand_label(expanded: bool, t: &Strings) -> &'static str {
    if expanded {
        t.show_less
    } else {
        t.show_full
    }
}

/// The star button's glyph and accessible name.
pub fn star_face(starred: bool, t: &Strings) -> (&'static str, &'static str) {
    if starred {
        ("★", t.unstar)
    } else {
        ("☆", t.star)
    }
}

fn star_html(starred: bool, t: &Strings) -> String {
    let (glyph, label) = star_face(starred, t);
    format!(
        "<button type=\"button\" class=\"star-button\" aria-pressed=\"{starred}\" \
         aria-label=\"{}\"><span aria-hidden=\"true\">{glyph}</span></button>",
        attr(label)
    )
}

/// A starred paper's note: open when it has text. (The parser drops one
/// newline right after `<textarea>`, so one is written: a note that starts
/// with a blank line keeps it.)
pub fn note_html(note: &str, t: &Strings) -> String {
    let open = if note.is_empty() { "" } else { " open" };
    format!(
        "<details class=\"paper-note\"{open}><summary>{}</summary><textarea rows=\"3\" \
         aria-label=\"{}\">\n{}</textarea></details>",
        text(t.note),
        attr(t.note_label),
        text(note)
    )
}

/// The list of a paper's similar papers, each a link with the terms the
/// two share most (a title not in yet says it is loading:
/// [`crate::Engine::missing_title_packs`]).
pub fn similar_html<'a, T: Titles + ?Sized>(
    titles: &T,
    corpus: &Corpus,
    p: &Paper,
    body: impl Into<BodyRef<'a>>,
    t: &Strings,
) -> String {
    let mut out = format!("<ol class=\"similar-list\" id=\"{}-similar\">", attr(&p.id));
    let body = body.into();
    for s in body.similar {
        let Some(other) = corpus.papers.get(s.doc as usize) else {
            continue;
        };
        let _ = write!(
            out,
            "<li>{}",
            title_link_html(&other.id, titles.title_of(s.doc), &[], t)
        );
        let shared = (body.shared_terms(&corpus.similar_terms, s))
            .collect::<Vec<_>>()
            .join(", ");
        if !shared.is_empty() {
            let _ = write!(
                out,
                "<span class=\"similar-why\">{}{}</span>",
                text(t.shares),
                text(&shared)
            );
        }
        out.push_str("</li>");
    }
    out.push_str("</ol>");
    out
}

/// Year, list (its source file and line as a tooltip) and the record's
/// links.
fn meta_into(out: &mut String, corpus: &Corpus, p: &Paper, body: Option<BodyRef>, t: &Strings) {
    out.push_str("<p class=\"paper-meta\">");
    if let Some(y) = p.year {
        let _ = write!(out, "<span class=\"paper-year\">{y}</span> · ");
    }
    let source = corpus
        .facet_index(FacetKind::List)
        .and_then(|f| {
            p.tags_with(body)
                .iter()
                .enumerate()
                .find(|(_, tag)| tag.facet as usize == f)
        })
        .map_or("", |(i, tag)| corpus.tag_reason(body, i, tag));
    let label = corpus.lists.get(p.list as usize).map_or("", |l| &l.label);
    let _ = write!(
        out,
        "<span class=\"paper-list\" title=\"{}\">{}</span>",
        attr(source),
        text(label)
    );
    for l in body.map_or(&[][..], |b| b.links) {
        let label = match l.kind {
            LinkKind::Page => t.link_labels[0],
            LinkKind::Pdf => t.link_labels[1],
            LinkKind::Code => t.link_labels[2],
        };
        // The compiler keeps only http(s) links; a corpus file made
        // otherwise still gets no other scheme into a page.
        if crate::model::is_web_url(&l.href) {
            let _ = write!(
                out,
                " · <a class=\"paper-link\" href=\"{}\" target=\"_blank\" \
                 rel=\"noopener noreferrer nofollow\">{}</a>",
                attr(&l.href),
                text(label)
            );
        }
    }
    out.push_str("</p>");
}

/// The paper's tags as toggle buttons (`data-f`, `data-v`: the facet and
/// value a click toggles), each saying why the paper has it.
fn chips_into(
    out: &mut String,
    corpus: &Corpus,
    p: &Paper,
    body: Option<BodyRef>,
    selection: &[Vec<u32>],
    t: &Strings,
) {
    let _ = write!(out, "<ul class=\"chips\" aria-label=\"{}\">", attr(t.tags));
    for (i, tag) in p.tags_with(body).iter().enumerate() {
        let Some(facet) = corpus.facets.get(tag.facet as usize) else {
            continue;
        };
        if NOT_CHIPS.contains(&facet.kind) {
            continue;
        }
        let Some(label) = facet.values.get(tag.value as usize) else {
            continue;
        };
        // The reason comes with the body when the bodies are in packs:
        // until it does, the facet's name alone.
        let why = match corpus.tag_reason(body, i, tag) {
            "" => (t.facet_name)(facet.kind).to_string(),
            reason => format!("{}: {reason}", (t.facet_name)(facet.kind)),
        };
        let _ = write!(
            out,
            "<li><button type=\"button\" class=\"chip\" data-facet=\"{}\" data-f=\"{}\" \
             data-v=\"{}\" title=\"{}\" aria-pressed=\"{}\">{}</button></li>",
            facet.kind.key(),
            tag.facet,
            tag.value,
            attr(&why),
            is_selected(selection, tag.facet, tag.value),
            text(label)
        );
    }
    out.push_str("</ul>");
}

/// Whether a facet value is in the selection.
pub fn is_selected(selection: &[Vec<u32>], facet: u32, value: u32) -> bool {
    selection
        .get(facet as usize)
        .is_some_and(|v| v.contains(&value))
}

/// The facet values whose selected state differs between two selections:
/// the chips a change of selection must redraw.
pub fn selection_changes(before: &[Vec<u32>], after: &[Vec<u32>]) -> Vec<(u32, u32, bool)> {
    let mut out = Vec::new();
    for f in 0..before.len().max(after.len()) {
        let (b, a) = (
            before.get(f).map_or(&[][..], Vec::as_slice),
            after.get(f).map_or(&[][..], Vec::as_slice),
        );
        for &v in a.iter().filter(|v| !b.contains(v)) {
            out.push((f as u32, v, true));
        }
        for &v in b.iter().filter(|v| !a.contains(v)) {
            out.push((f as u32, v, false));
        }
    }
    out
}

/// One paper of the related list: its title and the words that bring it
/// (`via`: the label, then the words joined), opening to its card, which
/// the page writes into the `<details>` when the reader first opens it.
pub fn related_item_html<T: Titles + ?Sized>(
    titles: &T,
    doc: u32,
    via_label: &str,
    via: &str,
) -> String {
    let title = titles.title_of(doc).unwrap_or_default();
    format!(
        "<li data-doc=\"{doc}\"><details><summary><span class=\"related-title\">{}</span> \
         <span class=\"related-via\">{} <span class=\"related-words\">{}</span></span>\
         </summary></details></li>",
        text(title),
        text(via_label),
        text(via)
    )
}

/// How many cards the page opens with: more than fill a screen.
pub const FIRST_SCREEN: usize = 12;

/// The id of the first screen's element, which the app removes when it
/// starts.
pub const FIRST_SCREEN_ID: &str = "first-screen";

/// How much of a clamped abstract the first screen carries: more than its
/// four lines show in the widest card (52rem, about 120 characters a
/// line). The rest is hidden until the app, which has the whole abstract,
/// lets the reader expand it; every first visit downloads the first screen.
pub const FIRST_SCREEN_ABSTRACT: usize = 800;

/// A clamped abstract's head for the first screen: where its text is cut
/// (at a space, never inside a formula or a link) and the runs up to
/// there. `None` for an abstract shown whole.
fn clamped_head(body: BodyRef<'_>) -> Option<(usize, Vec<Run>)> {
    if !is_long(body) || body.text.len() <= FIRST_SCREEN_ABSTRACT {
        return None;
    }
    let mut runs = Vec::new();
    for (range, kind) in body.run_ranges() {
        let past = range.end > FIRST_SCREEN_ABSTRACT;
        // A formula or a link is kept whole; text is cut at its last space.
        let end = if past && matches!(kind, RunKind::Text { .. }) {
            let mut end = FIRST_SCREEN_ABSTRACT.max(range.start);
            while !body.text.is_char_boundary(end) {
                end -= 1;
            }
            let within = &body.text[range.start..end];
            range.start + within.rfind(char::is_whitespace).unwrap_or(0)
        } else {
            range.end
        };
        if end > range.start || !past {
            runs.push(Run {
                end: end as u32,
                kind: kind.clone(),
            });
        }
        if past {
            break;
        }
    }
    let cut = runs.last().map_or(0, |r| r.end as usize);
    (cut < body.text.len()).then_some((cut, runs))
}

/// What the page shows before its code has arrived, written into
/// `index.html` at build time: the corpus's title, a search field and the
/// first [`FIRST_SCREEN`] papers of the list as the app's default view
/// shows them (no query, no filter), with the app's classes, so that
/// nothing moves when the app takes over. It is in `t`'s language; the
/// page hides it where the app would show something else (a link with a
/// query, another language, a reading list: `first-screen.js`).
pub fn first_screen(corpus: &Corpus, t: &Strings) -> String {
    let none = Highlights::default();
    let n = corpus.papers.len();
    let mut cards = String::new();
    for doc in 0..n.min(FIRST_SCREEN) as u32 {
        let paper = &corpus.papers[doc as usize];
        let head = clamped_head(paper.into());
        let body = match &head {
            Some((cut, runs)) => BodyRef {
                text: &paper.text[..*cut],
                runs,
                ..paper.into()
            },
            None => paper.into(),
        };
        let state = CardState {
            marks: &none,
            selection: &[],
            starred: false,
            note: "",
            expanded: false,
            target: false,
            similar_open: false,
        };
        let _ = write!(
            cards,
            "<li data-doc=\"{doc}\">{}</li>",
            card_html(corpus, corpus, doc, Some(body), &state, t)
        );
    }
    format!(
        "<div id=\"{FIRST_SCREEN_ID}\"><header class=\"site-header\"><div class=\"title-row\">\
         <h1>{}</h1></div><div class=\"search\" role=\"search\"><label for=\"q0\" \
         class=\"visually-hidden\">{}</label><input id=\"q0\" type=\"search\" placeholder=\"{}\" \
         autocomplete=\"off\" spellcheck=\"false\" autofocus></div></header>\
         <div class=\"layout\"><aside class=\"facets\"></aside><main class=\"results-pane\">\
         <div class=\"status-bar\"><p class=\"status\">{}</p></div>\
         <ol class=\"first-results\">{cards}</ol></main></div></div>",
        text(&corpus.title()),
        text(t.search_label),
        attr(t.search_placeholder),
        text(&(t.status)(n, n)),
    )
}
