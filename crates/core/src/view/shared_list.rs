//! A reading list in a link: `#shared=<ids>[&n<i>=<note>…]`, in the
//! fragment so that it never reaches a server's log. Ids of the usual form
//! (`p-` and twelve hex digits, 48 bits) take eight base64url characters;
//! any other id is written whole, percent-encoded after a `!`; ids are
//! joined by `~`. A note the reader chose to include follows as `n<i>`,
//! `i` being its paper's position in the list.

use crate::view::reading_list::{Entry, ReadingList};

/// The fragment key that marks a shared list.
pub const KEY: &str = "shared";

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The 48 bits of an id `p-` + twelve lowercase hex digits.
fn id_bits(id: &str) -> Option<u64> {
    let hex = id.strip_prefix("p-")?;
    if hex.len() != 12 || !hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    u64::from_str_radix(hex, 16).ok()
}

/// Eight base64url characters for 48 bits (exactly eight sextets: no
/// padding, so a fixed-width packing rather than general base64).
fn pack(bits: u64) -> String {
    (0..8)
        .rev()
        .map(|i| ALPHABET[((bits >> (6 * i)) & 63) as usize] as char)
        .collect()
}

fn unpack(token: &str) -> Option<String> {
    if token.len() != 8 {
        return None;
    }
    let mut bits = 0u64;
    for b in token.bytes() {
        let v = ALPHABET.iter().position(|&a| a == b)? as u64;
        bits = (bits << 6) | v;
    }
    Some(format!("p-{bits:012x}"))
}

fn encode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

fn decode(text: &str) -> String {
    form_urlencoded::parse(format!("x={text}").as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default()
}

/// The fragment (without `#`) that carries `list`, with the notes when
/// `with_notes`.
pub fn to_fragment(list: &ReadingList, with_notes: bool) -> String {
    let ids: Vec<String> = list
        .entries
        .iter()
        .map(|e| match id_bits(&e.id) {
            Some(bits) => pack(bits),
            None => format!("!{}", encode(&e.id)),
        })
        .collect();
    let mut out = format!("{KEY}={}", ids.join("~"));
    if with_notes {
        for (i, e) in list.entries.iter().enumerate() {
            if !e.note.trim().is_empty() {
                out += &format!("&n{i}={}", encode(&e.note));
            }
        }
    }
    out
}

/// The ids part of a shared list's fragment, or `None` for any other
/// fragment (a paper's id).
fn ids_part(fragment: &str) -> Option<&str> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    fragment
        .split('&')
        .next()?
        .strip_prefix(KEY)?
        .strip_prefix('=')
}

/// Whether a fragment carries a shared list (rather than naming a paper).
pub fn is_shared(fragment: &str) -> bool {
    ids_part(fragment).is_some()
}

/// The list a fragment carries (titles empty: the corpus has them), or
/// `None` when it is not a shared list. Tokens that are not ids are left
/// out; an empty list is still a list.
fn from_fragment(fragment: &str) -> Option<ReadingList> {
    let ids = ids_part(fragment)?;
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let parts = fragment.split('&').skip(1);
    let mut list = ReadingList::default();
    for token in ids.split('~').filter(|t| !t.is_empty()) {
        let id = match token.strip_prefix('!') {
            Some(raw) => decode(raw),
            None => match unpack(token) {
                Some(id) => id,
                None => continue,
            },
        };
        if !id.is_empty() && !list.contains(&id) {
            list.entries.push(Entry {
                id,
                title: String::new(),
                note: String::new(),
            });
        }
    }
    for part in parts {
        let Some((key, value)) = part.split_once('=') else {
            continue;
        };
        let Some(i) = key.strip_prefix('n').and_then(|i| i.parse::<usize>().ok()) else {
            continue;
        };
        if let Some(e) = list.entries.get_mut(i) {
            e.note = decode(value);
        }
    }
    Some(list)
}

/// A shared list as this explorer sees it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Shared {
    /// The list, titles filled in from the corpus (for Add to my list).
    pub list: ReadingList,
    /// Its papers this corpus has, in the list's order.
    pub docs: Vec<u32>,
    /// The ids this corpus does not have (another list, an older build).
    pub stale: Vec<String>,
}

/// The shared list a fragment carries, looked up in `engine`'s corpus.
pub fn open(fragment: &str, engine: &crate::Engine) -> Option<Shared> {
    let mut list = from_fragment(fragment)?;
    let mut shared = Shared::default();
    for e in &mut list.entries {
        match engine.doc_of(&e.id) {
            Some(d) => {
                // (A title still in its pack is filled in when the list
                // is added to the reader's own.)
                if let Some(title) = engine.title(d) {
                    e.title = title.to_string();
                }
                shared.docs.push(d);
            }
            None => shared.stale.push(e.id.clone()),
        }
    }
    shared.list = list;
    Some(shared)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(entries: &[(&str, &str)]) -> ReadingList {
        ReadingList {
            entries: entries
                .iter()
                .map(|(id, note)| Entry {
                    id: id.to_string(),
                    title: String::new(),
                    note: note.to_string(),
                })
                .collect(),
        }
    }

    #[test]
    fn usual_ids_take_eight_characters_and_come_back() {
        let l = list(&[
            ("p-9b8edb769e25", ""),
            ("p-000000000000", ""),
            ("p-ffffffffffff", ""),
        ]);
        let f = to_fragment(&l, false);
        assert_eq!(f.len(), "shared=".len() + 3 * 8 + 2);
        assert_eq!(from_fragment(&f), Some(l));
    }

    #[test]
    fn any_other_id_and_notes_survive_with_their_order() {
        let l = list(&[
            ("p-my~own.id&x=1", "line one\nline two & more ~ 100%"),
            ("p-9b8edb769e25", ""),
            ("p-9B8EDB769E25", "upper case is not the usual form"),
            ("p-9b8edb769e25-2", "a duplicate's id"),
            ("论文-1", "中文笔记"),
        ]);
        let with = from_fragment(&format!("#{}", to_fragment(&l, true))).unwrap();
        assert_eq!(with, l);
        let without = from_fragment(&to_fragment(&l, false)).unwrap();
        assert!(without.entries.iter().all(|e| e.note.is_empty()));
        assert_eq!(without.len(), l.len());
    }

    #[test]
    fn other_fragments_and_broken_tokens() {
        assert_eq!(from_fragment("p-9b8edb769e25"), None, "a paper link");
        assert_eq!(from_fragment(""), None);
        assert_eq!(from_fragment("sharedx=abc"), None);
        assert_eq!(from_fragment("shared="), Some(ReadingList::default()));
        // Too short, a character outside the alphabet, a note for no paper,
        // a note key that is not a number: skipped, never a panic.
        let l = from_fragment("shared=abc~AAAAAAA*~AAAAAAAB&n7=x&nq=y&&=").unwrap();
        assert_eq!(l.entries.len(), 1);
        assert_eq!(l.entries[0].id, "p-000000000001");
    }
}
