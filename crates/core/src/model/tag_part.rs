//! The papers' tags apart from the papers part: facet counts and filters
//! read every paper's tags, a card only its own. At 100,000 papers the
//! tags were 2.5 MB of the papers part's 4.2 (brotli), all of it fetched
//! before the first answer. A long list's build writes them in one file
//! named for its content, laid out by facet, which the page fetches once
//! the first answer is in (or at once when a filter needs it); each card's
//! own tags and authors travel with its body ([`crate::model::Body`]).
//! Until the file is in, the facet panel orders its values by their totals,
//! which the papers part carries ([`TagPartRef::totals`]).

use serde::{Deserialize, Serialize};

use crate::model::frame::{decode_named, frame};
use crate::model::{Corpus, Corrupt, DecodeError, Tag};

/// File magic of the tags' file.
pub const TAG_MAGIC: &[u8; 4] = b"PXT\x01";

/// The tags' file, as the papers part names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TagPartRef {
    /// The xxh3-64 of its bytes: its file's name ([`tag_part_file_name`]),
    /// and checked when it arrives.
    pub hash: u64,
    /// Its size in bytes (uncompressed): what saving for offline use says
    /// it will fetch.
    pub len: u32,
    /// Per facet and value, how many papers have it: the facet panel's
    /// order and the counts of the whole list, before the file is in.
    pub totals: Vec<Vec<u32>>,
}

/// The file name of the tags' file, from its hash.
pub fn tag_part_file_name(hash: u64) -> String {
    crate::model::file_name("tags", hash)
}

/// Every paper's tags, by facet: a facet's values of one paper are alike
/// (a few dozen topics, thousands of authors), and laid out together they
/// compress better than paper after paper.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct TagPart {
    /// Per facet, how many of its values each paper has.
    counts: Vec<Vec<u32>>,
    /// Per facet, the values, paper after paper.
    values: Vec<Vec<u32>>,
}

impl Corpus {
    /// The corpus whose [`Corpus::tag_part`] names a file holding every
    /// paper's tags, and that file's bytes. The papers keep their tags
    /// here: [`Corpus::in_body_packs`] then moves each paper's into its
    /// body, with its authors.
    pub fn tags_apart(&self) -> (Corpus, Vec<u8>) {
        assert!(self.tag_part.is_none(), "the tags are apart already");
        let n_facets = self.facets.len();
        let mut part = TagPart {
            counts: vec![Vec::with_capacity(self.papers.len()); n_facets],
            values: vec![Vec::new(); n_facets],
        };
        let mut totals: Vec<Vec<u32>> = self
            .facets
            .iter()
            .map(|f| vec![0; f.values.len()])
            .collect();
        for p in &self.papers {
            for counts in &mut part.counts {
                counts.push(0);
            }
            for t in &p.tags {
                let f = t.facet as usize;
                if let Some(c) = part.counts[f].last_mut() {
                    *c += 1;
                }
                part.values[f].push(t.value);
                totals[f][t.value as usize] += 1;
            }
        }
        let encoded = postcard::to_allocvec(&part).expect("the tags serialize");
        let bytes = frame(TAG_MAGIC, &[&encoded]);
        let mut head = self.clone();
        head.tag_part = Some(TagPartRef {
            hash: crate::model::content_hash(&bytes),
            len: u32::try_from(bytes.len()).expect("tags under 4 GB"),
            totals,
        });
        (head, bytes)
    }

    /// Decodes the tags' file: its hash is the one named, its frame whole,
    /// a count for every paper of every facet, and every value one its
    /// facet has. Returns each paper's tags, facet by facet (reason 0).
    pub fn decode_tag_part(&self, bytes: &[u8]) -> Result<Vec<Vec<Tag>>, DecodeError> {
        let mismatch = || DecodeError::Corrupt(Corrupt::PackMismatch);
        let r = self.tag_part.as_ref().ok_or_else(mismatch)?;
        let part: TagPart = decode_named(TAG_MAGIC, r.hash, bytes)?;
        let n = self.papers.len();
        let n_facets = self.facets.len();
        if part.counts.len() != n_facets
            || part.values.len() != n_facets
            || part.counts.iter().any(|c| c.len() != n)
        {
            return Err(mismatch());
        }
        let mut tags: Vec<Vec<Tag>> = vec![Vec::new(); n];
        for (f, (counts, values)) in part.counts.iter().zip(&part.values).enumerate() {
            let len = self.facets[f].values.len();
            let mut at = values.iter();
            for (paper, &count) in counts.iter().enumerate() {
                for _ in 0..count {
                    let value = *at.next().ok_or_else(mismatch)?;
                    if value as usize >= len {
                        return Err(DecodeError::Corrupt(Corrupt::OutOfRange {
                            paper,
                            what: "tag",
                        }));
                    }
                    tags[paper].push(Tag {
                        facet: f as u32,
                        value,
                        reason: 0,
                    });
                }
            }
            if at.next().is_some() {
                return Err(mismatch());
            }
        }
        Ok(tags)
    }
}

#[cfg(test)]
mod tests {
    use crate::model::seeds;
    use crate::model::{Corrupt, DecodeError};

    #[test]
    fn the_tags_apart_come_back_as_each_paper_had_them_by_facet() {
        let corpus = seeds();
        let (head, bytes) = corpus.tags_apart();
        let tags = head.decode_tag_part(&bytes).unwrap();
        assert_eq!(tags.len(), corpus.papers.len());
        for (p, got) in corpus.papers.iter().zip(&tags) {
            let mut want: Vec<(u32, u32)> = p.tags.iter().map(|t| (t.facet, t.value)).collect();
            let mut got: Vec<(u32, u32)> = got.iter().map(|t| (t.facet, t.value)).collect();
            want.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, want, "{}", p.id);
        }
        let totals = &head.tag_part.as_ref().unwrap().totals;
        let topic = corpus.facet_index(crate::model::FacetKind::Topic).unwrap();
        let first = corpus
            .papers
            .iter()
            .filter(|p| {
                p.tags
                    .iter()
                    .any(|t| t.facet as usize == topic && t.value == 0)
            })
            .count();
        assert!(first > 0);
        assert_eq!(totals[topic][0] as usize, first);
    }

    #[test]
    fn another_file_or_a_damaged_one_is_an_error() {
        let corpus = seeds();
        let (head, bytes) = corpus.tags_apart();
        let mismatch = DecodeError::Corrupt(Corrupt::PackMismatch);
        let mut damaged = bytes.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        assert_eq!(head.decode_tag_part(&damaged), Err(mismatch.clone()));
        assert_eq!(
            head.decode_tag_part(&bytes[..bytes.len() - 1]),
            Err(mismatch.clone())
        );
        assert_eq!(corpus.decode_tag_part(&bytes), Err(mismatch));
    }
}
