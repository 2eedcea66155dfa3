//! The vocabulary the synthetic lists follow: how many distinct words a
//! list of `N` papers has, how many of them are found in one paper only,
//! how long its abstracts are and how many words a two- or three-letter
//! prefix opens. Fitted on real lists measured by `explorer-cli vocab`
//! ([`crate::build::vocab`]): words counted as the index's word list holds
//! them (folded, not stemmed), in the abstracts only.
//!
//! Two real lists pin it down. The ACL list (3,891 papers, read where it
//! lies, never copied here) gives every figure at its size, and its own
//! nested subsets grow as `V = 285·N^0.506`. But one conference series
//! grows slower than a field: that law gives 90,000 words at 87,400 papers,
//! where a real field list (87,400 papers of several conferences,
//! as measured on its abstracts) has 148,085. So from about the ACL
//! list's size on (4,700 papers, where it overtakes the list's own law),
//! the distinct words follow the power law through both lists' whole-list
//! figures, `V = 67.7·N^0.676`; the share of the words found once is the
//! ACL list's up to its size, then linear in `ln N` up to the field's; the
//! share beginning with `di` falls from 1.9 % to 1.3 % (a power law of
//! `N`). Every other prefix's share
//! is taken to fall as `di`'s does (a large list's tail is fewer and fewer
//! dictionary words: numbers, codes and names instead), and the ACL list's
//! two-letter prefixes are where invented words begin.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::build::vocab::{Fanout, Figures, Heaps};

/// A real list's whole-list figures.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Measured {
    /// Papers.
    pub papers: usize,
    /// Distinct words.
    pub words: usize,
    /// Words found in one paper only.
    pub hapax: usize,
    /// Words beginning with `di`.
    pub di: usize,
}

/// The ACL list's figures that only it gives.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct AclOnly {
    /// Heaps' law fitted on its own nested subsets (over papers).
    pub heaps: Heaps,
    /// Its median abstract's length in words.
    pub median_length: f64,
    /// The spread of its abstracts' lengths: the standard deviation of
    /// their logarithm.
    pub length_spread: f64,
    /// The share of its words that begin with two ASCII letters.
    pub letter_share: f64,
    /// The share of its words that begin with a digit.
    pub digit_share: f64,
    /// Two-letter prefixes: the words `di`, `co`, `re`, `pr` open, and the
    /// mean and the reader's mean ([`Fanout`]).
    pub prefix2: ([usize; 4], f64, f64),
    /// Three-letter prefixes: the words `dif`, `con`, `pre` open, and the
    /// mean and the reader's mean.
    pub prefix3: ([usize; 3], f64, f64),
}

/// The real ACL list (ACL 2021–2022, NAACL 2021, 2022 and 2024; 3,891
/// papers, CC BY 4.0), as `explorer-cli vocab
/// ../shared/corpora/acl-anthology` measured it.
pub const ACL: Measured = Measured {
    papers: 3_891,
    words: 18_077,
    hapax: 8_989,
    di: 347,
};

/// What only the ACL list gives, measured by the same command.
pub const ACL_ONLY: AclOnly = AclOnly {
    heaps: Heaps {
        k: 285.03,
        beta: 0.5058,
    },
    median_length: 159.0,
    length_spread: 0.2374,
    letter_share: 0.9192,
    digit_share: 0.0721,
    prefix2: ([347, 882, 714, 437], 31.83, 183.4),
    prefix3: ([28, 380, 131], 5.777, 45.0),
};

/// The ACL list's words by their first two letters (its `prefix2_words`,
/// each prefix then how many words it opens): invented words begin as
/// these do.
pub const ACL_PREFIXES: &str =
    "aa8 ab64 ac129 ad126 ae7 af30 ag41 ah2 ai26 ak5 al101 am55 an111 ao3 ap67 aq3 ar99 as98 \
     at81 au71 av26 aw8 ax6 az3 ba96 bb6 bc3 bd2 be125 bf3 bg2 bh1 bi89 bk1 bl48 bm7 bo61 bp4 \
     br57 bs3 bt3 bu39 bw3 by11 ca171 cb6 cc10 cd10 ce46 cf5 cg7 ch128 ci34 cj2 ck5 cl126 cm16 \
     cn12 co882 cp11 cq4 cr90 cs20 ct12 cu51 cv5 cw7 cx1 cy11 cz2 da70 db3 dc10 dd3 de401 df2 \
     dg3 di347 dj1 dl2 dm10 dn3 do82 dp13 dq3 dr55 ds17 dt4 du35 dv2 dw3 dy21 ea28 eb4 ec27 ed29 \
     ee5 ef18 eg7 eh2 ei12 ek1 el57 em83 en167 eo1 ep15 eq22 er21 es43 et10 eu10 ev59 ex236 ey2 \
     ez2 fa128 fb1 fc3 fd2 fe59 ff2 fg6 fi98 fk2 fl62 fm5 fn2 fo115 fp2 fr63 fs12 ft5 fu40 fv3 \
     ga52 gb1 gc7 gd4 ge96 gh6 gi23 gk4 gl29 gm9 gn3 go25 gp12 gq3 gr97 gs5 gt5 gu36 gv2 gw2 gy2 \
     gz1 ha112 hc4 hd1 he76 hg3 hh1 hi66 hk1 hl5 hm7 ho65 hp9 hq1 hr7 hs3 ht10 hu41 hv2 hw3 hy41 \
     ia9 ib2 ic18 id46 ie3 if5 ig12 ii4 il20 im118 in583 io2 ip5 ir20 is38 it27 iu3 iv1 iw3 iz2 \
     ja26 jb1 je7 jg1 jh1 ji10 jl1 jo25 jp2 jq1 ju32 jw1 jz1 ka15 kb12 kc2 kd4 ke23 kg12 kh3 \
     ki17 kj1 kk1 kl4 km1 kn20 ko11 kp6 kq2 kr5 ks2 kt4 ku7 kv2 kw3 la132 lb2 lc8 ld6 le130 lf6 \
     lg6 lh3 li124 lj2 ll26 lm11 ln4 lo92 lp1 lr14 ls12 lt6 lu10 lv1 lw1 lx2 ly3 ma217 mb8 mc16 \
     md10 me155 mf3 mg6 mh4 mi168 mk2 ml20 mm17 mn8 mo166 mp14 mq6 mr13 ms24 mt15 mu108 mv5 mw5 \
     mx2 my5 na59 nb2 nc6 nd3 ne127 nf1 ng5 ni16 nj1 nk1 nl27 nm4 nn4 no102 np10 nq2 nr3 ns4 nt5 \
     nu26 nv1 ny5 oa1 ob50 oc20 od6 oe1 of28 oh1 oi3 ok1 ol5 om9 on26 oo5 op89 oq1 or50 os7 ot10 \
     ou42 ov59 ow7 ox3 oz2 pa203 pb1 pc13 pd9 pe143 pf4 pg6 ph52 pi53 pj1 pk4 pl70 pm7 pn2 po155 \
     pp8 pq3 pr437 ps17 pt12 pu56 pw1 py8 qa12 qb2 qc1 qd1 qe1 qf1 qg2 qi3 qj1 qk2 ql1 qm1 qn2 \
     qr3 qu90 qv1 qw1 ra95 rb1 rc6 rd3 re714 rg6 rh8 ri37 rl7 rm2 rn5 ro67 rp2 rq1 rr3 rs4 rt7 \
     ru35 rv1 rw2 rx1 sa94 sb3 sc100 sd8 se216 sf3 sg7 sh94 si123 sj3 sk28 sl31 sm23 sn13 so85 \
     sp138 sq14 sr7 ss18 st262 su252 sv7 sw26 sy65 ta105 tb3 tc2 td7 te132 tf2 tg5 th114 ti54 \
     tj1 tk7 tl4 tm4 tn2 to87 tp6 tq1 tr226 ts17 tt6 tu29 tv4 tw16 ty18 ua2 ub6 uc7 ud5 ue3 uf1 \
     ug2 ui6 uk3 ul5 um5 un344 uo1 up28 uq1 ur9 us31 ut17 uu1 ux1 va64 vc4 vd2 ve64 vg3 vh1 vi84 \
     vl9 vo28 vp2 vq4 vr4 vs4 vt1 vu5 wa58 wc1 we68 wf1 wh27 wi85 wl2 wm6 wn4 wo61 wp1 wq1 wr17 \
     ws6 wt3 wu3 ww6 wy1 wz3 xa1 xb1 xc2 xd3 xe2 xf3 xg2 xh1 xi2 xl10 xm5 xn3 xo2 xp3 xq1 xr2 \
     xs8 xt3 xu2 xx3 ya9 ye13 yi8 yo11 yu6 yy1 za1 zd1 ze18 zh11 zi7 zo4 zs8 zw1 zz1";

/// [`ACL_PREFIXES`] read: each prefix and the words it opens.
pub fn acl_prefixes() -> Vec<(&'static str, u32)> {
    ACL_PREFIXES
        .split_whitespace()
        .filter_map(|e| Some((e.get(..2)?, e.get(2..)?.parse().ok()?)))
        .collect()
}

/// A real field list: the 87.4k papers with an abstract of a
/// 91,730-paper list of several conferences, as measured on its abstracts.
pub const FIELD: Measured = Measured {
    papers: 87_400,
    words: 148_085,
    hapax: 91_524,
    di: 1_966,
};

/// `ln(N / the ACL list's papers)`.
fn past_acl(papers: f64) -> f64 {
    (papers / ACL.papers as f64).ln()
}

/// The exponent over papers of the power law through the ACL list's
/// count `acl` and the field's `field`.
fn exponent(acl: usize, field: usize) -> f64 {
    (field as f64 / acl as f64).ln() / past_acl(FIELD.papers as f64)
}

/// Heaps' law through both lists' whole-list figures (`N` papers).
pub fn field_heaps() -> Heaps {
    let beta = exponent(ACL.words, FIELD.words);
    Heaps {
        k: ACL.words as f64 / (ACL.papers as f64).powf(beta),
        beta,
    }
}

/// The distinct words of a list of `papers`: the ACL list's own law
/// ([`AclOnly::heaps`]) up to about its size, then the law through both
/// lists ([`field_heaps`]), whichever is larger.
pub fn words(papers: f64) -> f64 {
    ACL_ONLY.heaps.at(papers).max(field_heaps().at(papers))
}

/// The share of those words found in one paper only: the ACL list's up
/// to its size, then linear in `ln N` up to the field's.
pub fn hapax_share(papers: f64) -> f64 {
    let share = |m: Measured| m.hapax as f64 / m.words as f64;
    let slope = (share(FIELD) - share(ACL)) / past_acl(FIELD.papers as f64);
    (share(ACL) + slope * past_acl(papers).max(0.0)).clamp(0.0, 1.0)
}

/// How much less of the vocabulary a prefix opens at `papers` than in the
/// ACL list: as the share of words beginning with `di` falls from the ACL
/// list's to the field's (a power law of `N`; within the ACL list, its
/// subsets' shares fall about as fast).
pub fn share_scale(papers: f64) -> f64 {
    let fall = exponent(ACL.di, FIELD.di) - exponent(ACL.words, FIELD.words);
    (fall * past_acl(papers)).exp()
}

/// The share of the words that begin with two letters (those a prefix
/// opens): the ACL list's, falling as the share of words beginning with
/// `di` does.
pub fn letter_share(papers: f64) -> f64 {
    (ACL_ONLY.letter_share * share_scale(papers)).min(1.0)
}

/// What the law predicts for a list of `papers`, as [`crate::build::vocab`]
/// measures it (`tokens` from the median length).
pub fn predict(papers: usize) -> Figures {
    let n = papers as f64;
    let words = words(n);
    let scale = words / ACL.words as f64 * share_scale(n);
    let fanout = |names: &[&str], (counts, mean, typed): (&[usize], f64, f64)| Fanout {
        mean: mean * scale,
        typed_mean: typed * scale,
        named: names
            .iter()
            .zip(counts)
            .map(|(p, &c)| (p.to_string(), (c as f64 * scale).round() as usize))
            .collect::<BTreeMap<_, _>>(),
    };
    let (c2, m2, t2) = ACL_ONLY.prefix2;
    let (c3, m3, t3) = ACL_ONLY.prefix3;
    Figures {
        papers,
        tokens: (n * ACL_ONLY.median_length).round() as u64,
        words: words.round() as usize,
        hapax: (words * hapax_share(n)).round() as usize,
        hapax_share: hapax_share(n),
        letter_share: letter_share(n),
        digit_share: ACL_ONLY.digit_share + ACL_ONLY.letter_share - letter_share(n),
        median_length: ACL_ONLY.median_length,
        length_spread: ACL_ONLY.length_spread,
        prefix2: fanout(&crate::build::vocab::NAMED_2, (&c2, m2, t2)),
        prefix3: fanout(&crate::build::vocab::NAMED_3, (&c3, m3, t3)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_law_passes_through_both_lists() {
        let p = predict(FIELD.papers);
        assert_eq!((p.words, p.prefix2.named["di"]), (FIELD.words, FIELD.di));
        assert!(p.hapax.abs_diff(FIELD.hapax) <= 1, "{}", p.hapax);
        let h = field_heaps();
        assert!((h.at(ACL.papers as f64) - ACL.words as f64).abs() < 1.0);
        // The ACL list's own law (3 % above its whole list: a least-squares
        // fit of its subsets) gives way to the field's a little past its size.
        let acl_own = ACL_ONLY.heaps.at(ACL.papers as f64);
        assert!((acl_own / ACL.words as f64 - 1.0).abs() < 0.05, "{acl_own}");
        let meet = |n: f64| ACL_ONLY.heaps.at(n) < h.at(n);
        assert!(!meet(ACL.papers as f64) && meet(1.25 * ACL.papers as f64));
    }
}
