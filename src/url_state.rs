//! The view's state in the URL: `?q=` for the query, one parameter per facet
//! (`topic=Agents&topic=Theory`), `sort=`, and `source=` for a list opened in
//! the page. Values are facet labels, so a pasted link reads well and
//! survives a rebuild. Unknown parameters, facets and values are ignored.

use explorer_core::model::opened::{named_list, OPEN_PARAM};
use explorer_core::view::topic_map::Region;
use explorer_core::FacetKind;
use explorer_core::{Corpus, Selection, Sort};

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ViewState {
    pub query: String,
    pub selection: Selection,
    pub sort: Sort,
    /// `starred=1`: only the papers on the reader's reading list (their own
    /// list: a link shows whoever opens it their stars).
    pub starred: bool,
    /// `like=starred`: below the results, the papers most like the reader's
    /// starred ones (their own list, as with `starred`).
    pub like_starred: bool,
    /// `map=x0,y0,x1,y1`: only the papers in a region of the topic map.
    pub region: Option<Region>,
    /// `embed=1`: the compact layout for a wiki iframe; kept in the URL so a
    /// reload inside the frame stays compact.
    pub embed: bool,
    /// `source=<id or URL>`: a list opened in the page in place of the
    /// built-in one (`crate::opened`); kept as the view changes. An older
    /// page's `list=<id or URL>` is read as one too
    /// ([`explorer_core::model::opened::named_list`]), never a value of
    /// the List facet, which `list=` filters on.
    pub list: Option<String>,
}

impl ViewState {
    pub fn empty(corpus: &Corpus) -> ViewState {
        ViewState {
            query: String::new(),
            selection: vec![Vec::new(); corpus.facets.len()],
            sort: Sort::Relevance,
            starred: false,
            like_starred: false,
            region: None,
            embed: false,
            list: None,
        }
    }

    /// Reads a URL query string (with or without the leading `?`).
    pub fn from_query_string(search: &str, corpus: &Corpus) -> ViewState {
        let mut state = ViewState::empty(corpus);
        let search = search.strip_prefix('?').unwrap_or(search);
        for (key, value) in form_urlencoded::parse(search.as_bytes()) {
            match key.as_ref() {
                "q" => state.query = value.into_owned(),
                "sort" => state.sort = Sort::from_key(&value).unwrap_or_default(),
                "embed" => state.embed = value == "1",
                "starred" => state.starred = value == "1",
                "like" => state.like_starred = value == "starred",
                "map" => state.region = Region::parse(&value),
                k => {
                    let Some(f) = FacetKind::from_key(k).and_then(|k| corpus.facet_index(k)) else {
                        continue;
                    };
                    let Some(v) = corpus.facets[f].values.iter().position(|x| *x == value) else {
                        continue;
                    };
                    let sel = &mut state.selection[f];
                    if !sel.contains(&(v as u32)) {
                        sel.push(v as u32);
                    }
                }
            }
        }
        state.list = named_list(search, |v| is_list_value(corpus, v));
        state
    }

    /// Writes the URL query string, `?`-prefixed, or empty for the default view.
    pub fn to_query_string(&self, corpus: &Corpus) -> String {
        let mut ser = form_urlencoded::Serializer::new(String::new());
        if let Some(list) = &self.list {
            ser.append_pair(OPEN_PARAM, list);
        }
        if !self.query.is_empty() {
            ser.append_pair("q", &self.query);
        }
        for (kind, label) in corpus.selected(&self.selection) {
            ser.append_pair(kind.key(), label);
        }
        if self.starred {
            ser.append_pair("starred", "1");
        }
        if self.like_starred {
            ser.append_pair("like", "starred");
        }
        if let Some(r) = self.region {
            ser.append_pair("map", &r.to_param());
        }
        if self.sort != Sort::Relevance {
            ser.append_pair("sort", self.sort.key());
        }
        if self.embed {
            ser.append_pair("embed", "1");
        }
        let s = ser.finish();
        if s.is_empty() {
            s
        } else {
            format!("?{s}")
        }
    }

    pub fn toggle(&mut self, facet: usize, value: u32) {
        if let Some(sel) = self.selection.get_mut(facet) {
            match sel.iter().position(|&v| v == value) {
                Some(i) => {
                    sel.remove(i);
                }
                None => sel.push(value),
            }
        }
    }
}

/// Whether `value` is one of the List facet's values in `corpus`.
pub fn is_list_value(corpus: &Corpus, value: &str) -> bool {
    corpus
        .facet(FacetKind::List)
        .is_some_and(|f| f.values.iter().any(|v| v == value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use explorer_core::model::{Facet, List};

    fn corpus() -> Corpus {
        Corpus {
            lists: vec![List {
                key: "a".into(),
                name: "A".into(),
                label: "A".into(),
            }],
            facets: vec![
                Facet {
                    kind: FacetKind::Topic,
                    values: vec!["Agents".into(), "Diffusion & generation".into()],
                },
                Facet {
                    kind: FacetKind::List,
                    values: vec!["ICLR 2026 Papers".into()],
                },
            ],
            reasons: vec![],
            similar_terms: vec![],
            body_packs: Default::default(),
            map_part: None,
            tag_part: None,
            titles: None,
            papers: vec![],
            index: Default::default(),
        }
    }

    #[test]
    fn round_trips() {
        let c = corpus();
        let mut s = ViewState::empty(&c);
        s.query = "\"phrase\" -x & y".into();
        s.toggle(0, 1);
        s.toggle(0, 0);
        s.sort = Sort::Title;
        s.starred = true;
        s.region = Region::parse("10,20,500,600");
        let qs = s.to_query_string(&c);
        assert_eq!(
            qs,
            "?q=%22phrase%22+-x+%26+y&topic=Diffusion+%26+generation&topic=Agents&starred=1&map=10%2C20%2C500%2C600&sort=title"
        );
        assert_eq!(ViewState::from_query_string(&qs, &c), s);
        assert_eq!(ViewState::empty(&c).to_query_string(&c), "");
        // A list opened by URL stays named as the view changes.
        s.list = Some("https://example.org/lab papers.bib?x=1&y".into());
        let qs = s.to_query_string(&c);
        assert!(qs.starts_with("?source=https%3A%2F%2Fexample.org%2Flab+papers.bib%3Fx%3D1%26y&q="));
        assert_eq!(ViewState::from_query_string(&qs, &c), s);
    }

    #[test]
    fn a_list_filter_reopens_as_a_filter() {
        let c = corpus();
        let mut s = ViewState::empty(&c);
        s.toggle(1, 0);
        let qs = s.to_query_string(&c);
        assert_eq!(qs, "?list=ICLR+2026+Papers");
        let read = ViewState::from_query_string(&qs, &c);
        assert_eq!((read.selection, read.list), (s.selection.clone(), None));
        // A list opened in the page keeps its own filter beside it.
        s.list = Some("0a1b2c3d4e5f6071".into());
        let qs = s.to_query_string(&c);
        assert_eq!(qs, "?source=0a1b2c3d4e5f6071&list=ICLR+2026+Papers");
        assert_eq!(ViewState::from_query_string(&qs, &c), s);
        // An older page's link to a list it opened still opens it.
        let old = ViewState::from_query_string("?list=0a1b2c3d4e5f6071", &c);
        assert_eq!(old.list.as_deref(), Some("0a1b2c3d4e5f6071"));
        assert_eq!(old.selection, ViewState::empty(&c).selection);
    }

    #[test]
    fn garbage_is_ignored() {
        let c = corpus();
        for qs in [
            "?topic=Nope&unknown=1&sort=sideways",
            "%%%",
            "?=&&=",
            "?topic",
            "?q=%ZZ",
            "?map=1,2,3",
            "?map=9,9,1,1",
            "?map=%00%FF",
        ] {
            let s = ViewState::from_query_string(qs, &c);
            assert_eq!(s.selection, vec![Vec::<u32>::new(); 2]);
            assert_eq!(s.sort, Sort::Relevance);
            assert_eq!(s.region, None);
        }
        let s = ViewState::from_query_string("?topic=Agents&topic=Agents", &c);
        assert_eq!(s.selection, vec![vec![0], vec![]]);
    }
}
