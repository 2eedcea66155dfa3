//! The index's word list (folded word → stem id), whole or in packs of
//! consecutive words that come when a query first looks a word up in
//! their range. At 100,000 papers the list was two thirds of the index's
//! head, fetched before any answer; a query reads one or two of its packs.
//!
//! The build cuts the list only where no stem's words straddle the cut
//! ([`cut_points`]), so every word a stem was indexed from lies in the
//! pack where a query found that stem. A card is highlighted from the
//! packs in: a word whose pack is not in cannot be one the query matched.

use std::sync::OnceLock;

use super::index::Words;
use crate::model::index_data::WordPackRef;

/// The word list's packs are cut at about this many bytes (of the list
/// as shipped, before compression): about 6 KB brotli, one round trip.
pub const WORD_PACK_BYTES: usize = 16 << 10;

/// The name of a word pack's file: its content hash.
pub fn words_file_name(hash: u64) -> String {
    crate::model::file_name("words", hash)
}

/// The word list as the index holds it: one list, or packs by range.
#[derive(Debug)]
pub(crate) struct Surface {
    /// Each pack's first word (the first pack's is empty); one empty
    /// word when the list is whole.
    firsts: Vec<String>,
    /// Each pack's words, once added.
    lists: Vec<OnceLock<Words>>,
}

/// Told the number of each pack a lookup needed and found not in (none:
/// the lookup is quiet, as highlighting is).
pub(crate) type Miss<'a> = Option<&'a dyn Fn(usize)>;

impl Surface {
    /// A whole list.
    pub(crate) fn whole(words: Words) -> Surface {
        Surface {
            firsts: vec![String::new()],
            lists: vec![OnceLock::from(words)],
        }
    }

    /// A list in the packs `refs` names, none in yet; `None` unless the
    /// first begins with the empty word and each after with a greater one.
    pub(crate) fn in_packs(refs: &[WordPackRef]) -> Option<Surface> {
        let ordered = refs.first().is_some_and(|r| r.first.is_empty())
            && refs.windows(2).all(|w| w[0].first < w[1].first);
        ordered.then(|| Surface {
            firsts: refs.iter().map(|r| r.first.clone()).collect(),
            lists: refs.iter().map(|_| OnceLock::new()).collect(),
        })
    }

    /// Whether every pack is in.
    pub(crate) fn all_in(&self) -> bool {
        self.lists.iter().all(|l| l.get().is_some())
    }

    /// Whether pack `i` is in.
    pub(crate) fn has(&self, i: usize) -> bool {
        self.lists.get(i).is_some_and(|l| l.get().is_some())
    }

    /// Adds pack `i`, refused unless its words lie in its range and name
    /// stems below `stem_count`.
    pub(crate) fn add(&self, i: usize, words: Words, stem_count: u32) -> Option<()> {
        let first = self.firsts.get(i)?.as_bytes();
        let next = self.firsts.get(i + 1).map(String::as_bytes);
        let fits = (words.len() > 0)
            .then(|| (words.word(0), words.word(words.len() - 1)))
            .is_some_and(|(lo, hi)| lo >= first && next.is_none_or(|n| hi < n));
        if !fits || words.ids().iter().any(|&id| id >= stem_count) {
            return None;
        }
        let _ = self.lists[i].set(words);
        Some(())
    }

    /// The pack `word` would lie in.
    fn pack_of(&self, word: &[u8]) -> usize {
        (self.firsts)
            .partition_point(|f| f.as_bytes() <= word)
            .saturating_sub(1)
    }

    /// Pack `i`'s words, or `None` (and `miss` told) while it is not in.
    fn list(&self, i: usize, miss: Miss) -> Option<&Words> {
        let list = self.lists.get(i)?.get();
        if list.is_none() {
            if let Some(miss) = miss {
                miss(i);
            }
        }
        list
    }

    /// The id of `word`; `None` also while its pack is not in.
    pub(crate) fn get(&self, word: &str, miss: Miss) -> Option<u32> {
        self.list(self.pack_of(word.as_bytes()), miss)?.get(word)
    }

    /// Whether the pack `word` would lie in is in (`miss` told if not).
    pub(crate) fn has_pack_of(&self, word: &str, miss: Miss) -> bool {
        self.list(self.pack_of(word.as_bytes()), miss).is_some()
    }

    /// The words `prefix` begins, in order, with their ids, from the packs
    /// in; each pack of the range not in is told to `miss` when the
    /// words are read up to it.
    pub(crate) fn starting_with<'a>(
        &'a self,
        prefix: &'a str,
        miss: Miss<'a>,
    ) -> impl Iterator<Item = (&'a str, u32)> + 'a {
        let from = self.pack_of(prefix.as_bytes());
        let after = self.firsts[from + 1..]
            .iter()
            .take_while(|f| f.starts_with(prefix))
            .count();
        (from..=from + after).flat_map(move |i| {
            let list = self.list(i, miss);
            list.into_iter().flat_map(move |w| w.starting_with(prefix))
        })
    }

    /// Every word in, in order, with its id.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, u32)> + '_ {
        self.starting_with("", None)
    }

    /// The list as shipped whole, while every pack is in.
    pub(crate) fn joined(&self) -> Option<Vec<u8>> {
        self.all_in()
            .then(|| Words::write(self.iter().map(|(w, id)| (w.as_bytes(), id))))
    }
}

/// Where the build cuts `words` (in order, with their stem ids) into
/// packs of about `pack_bytes`: the index of each pack's first word
/// (the first is 0). Never between two words of one stem, nor between a
/// stray stem's place in the list (`stray`: its text and id) and its
/// words, so that a stem's words and its place lie in one pack.
pub(crate) fn cut_points(
    words: &[(&str, u32)],
    stray: &[(&str, u32)],
    pack_bytes: usize,
) -> Vec<usize> {
    let stems = words
        .iter()
        .map(|&(_, id)| id as usize + 1)
        .max()
        .unwrap_or(0);
    let (mut lo, mut hi) = (vec![usize::MAX; stems], vec![0; stems]);
    let mut span = |id: u32, at: usize| {
        if let Some(l) = lo.get_mut(id as usize) {
            *l = (*l).min(at);
            hi[id as usize] = hi[id as usize].max(at);
        }
    };
    for (at, &(_, id)) in words.iter().enumerate() {
        span(id, at);
    }
    for &(stem, id) in stray {
        let at = words.partition_point(|&(w, _)| w < stem);
        span(id, at.saturating_sub(1));
        span(id, at.min(words.len().saturating_sub(1)));
    }
    // covered[b]: some stem has words both before b and from b on.
    let mut change = vec![0i64; words.len() + 1];
    for (&l, &h) in lo.iter().zip(&hi) {
        if l < h {
            change[l + 1] += 1;
            change[h + 1] -= 1;
        }
    }
    let (mut cuts, mut open, mut size) = (vec![0], 0i64, 0);
    for (at, &(word, _)) in words.iter().enumerate() {
        open += change[at];
        if size >= pack_bytes && open == 0 {
            cuts.push(at);
            size = 0;
        }
        size += word.len() + 3;
    }
    cuts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stem_s_words_are_never_cut_apart() {
        let words = [
            ("model", 0),
            ("modeled", 0),
            ("modem", 1),
            ("models", 0),
            ("mode", 2),
        ];
        let mut sorted = words.to_vec();
        sorted.sort();
        // A cut after every word, but none inside "model"'s words.
        let cuts = cut_points(&sorted, &[], 1);
        let first_of = |w: &str| sorted.iter().position(|&(x, _)| x == w).unwrap();
        for &c in &cuts[1..] {
            let (before, after) = (&sorted[..c], &sorted[c..]);
            for id in 0..3 {
                let has = |s: &[(&str, u32)]| s.iter().any(|&(_, i)| i == id);
                assert!(
                    !(has(before) && has(after)),
                    "stem {id} cut at {c}: {cuts:?}"
                );
            }
        }
        assert!(cuts.contains(&first_of("model")), "{cuts:?}");
        // A stray stem's place is kept with its words.
        let cuts = cut_points(&[("aa", 0), ("bb", 1), ("cc", 2)], &[("ca", 2)], 1);
        assert_eq!(cuts, vec![0, 1]);
    }
}
