//! The paper's own name, among the coined words, defined acronyms and
//! `named X` of its abstract, and the description that goes with it.

use super::*;

/// Acronyms and names everybody uses: never the paper's own.
pub(super) const COMMON_NAMES: &[&str] = &[
    "LLM",
    "LLMs",
    "MLLM",
    "MLLMs",
    "VLM",
    "VLMs",
    "LM",
    "LMs",
    "LVLM",
    "LVLMs",
    "NLP",
    "AI",
    "RL",
    "ML",
    "DNN",
    "DNNs",
    "CNN",
    "CNNs",
    "RNN",
    "RNNs",
    "GNN",
    "GNNs",
    "GAN",
    "GANs",
    "NER",
    "QA",
    "MT",
    "NMT",
    "ASR",
    "TTS",
    "SOTA",
    "API",
    "APIs",
    "GPU",
    "GPUs",
    "CPU",
    "2D",
    "3D",
    "OOD",
    "KG",
    "KGs",
    "RAG",
    "PLM",
    "PLMs",
    "LSTM",
    "LSTMs",
    "MLP",
    "MLPs",
    "VAE",
    "VAEs",
    "SGD",
    "BERT",
    "GPT",
    "GPT-2",
    "GPT-3",
    "GPT-4",
    "GPT-4o",
    "ChatGPT",
    "CoT",
    "RLHF",
    "DPO",
    "PPO",
    "GRPO",
    "SFT",
    "ViT",
    "ViTs",
    "CLIP",
    "NLI",
    "NLU",
    "NLG",
    "MoE",
    "KV",
    "IR",
    "POS",
    "SQL",
    "PDE",
    "PDEs",
    "ODE",
    "ODEs",
    "MDP",
    "MDPs",
    "RLVR",
    "ImageNet",
    "CIFAR-10",
    "CIFAR-100",
    "MNIST",
    "COCO",
    "GitHub",
    "Wikipedia",
    "English",
    "Chinese",
    "OpenAI",
    "LLaMA",
    "Llama",
    "T5",
    "RoBERTa",
    "XLM-R",
    "mBERT",
    "SVM",
    "EM",
    "KL",
    "IID",
    "US",
    "UK",
    "LoRA",
    "LoRAs",
    "SSM",
    "SSMs",
    "Transformer",
    "Transformers",
    "ResNet",
    "ResNets",
];

/// A word that reads as a coined name: two capitals (`CRD`, `DevFT`), a
/// capital and a digit (`K²-Agent`, `T5X`), or a capital after a small
/// letter (`reAR`, `ScaleCap`); not an everyday acronym (`LLMs`, `GPT-4`).
pub(super) fn is_coined(word: &str) -> bool {
    let w = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '²' && c != '³');
    if w.chars().count() < 2
        || COMMON_NAMES.contains(&w)
        || !w.chars().any(char::is_alphabetic)
        || w.contains(char::is_whitespace)
    {
        return false;
    }
    // `LLM-based`, `ELECTRA-style`, `Text-to-SQL`, `18K`, `Theory.We`:
    // descriptions, quantities and run-together sentences, not names.
    let lower = w.to_ascii_lowercase();
    let letters = w.chars().filter(|c| c.is_alphabetic()).count();
    let digits = w.chars().filter(char::is_ascii_digit).count();
    if [
        "-based",
        "-style",
        "-like",
        "-aware",
        "-free",
        "-specific",
        "-level",
        "-wise",
        "-only",
        "-tuned",
        "-driven",
        "-guided",
        "-scale",
        "-shot",
        "-agnostic",
        "-centric",
    ]
    .iter()
    .any(|s| lower.ends_with(s))
        || lower.contains("-to-")
        || (digits > 0 && digits > letters)
        || w.contains('.')
    {
        return false;
    }
    // In a hyphenated word, capitals that only start its parts
    // (`Self-Contrastive`) count once, as a capitalised word's would;
    // capitals inside a part count each (`DPH-RL`).
    let parts: Vec<&str> = w.split('-').collect();
    let hyphenated = parts.len() > 1;
    let capitals = |p: &str| p.chars().filter(|c| c.is_uppercase()).count();
    let initial_only = |p: &str| {
        capitals(p) == 1
            && p.chars().next().is_some_and(char::is_uppercase)
            && p.chars().count() > 1
    };
    let mut upper: usize = parts
        .iter()
        .map(|p| {
            if hyphenated && initial_only(p) {
                0
            } else {
                capitals(p)
            }
        })
        .sum();
    if hyphenated
        && w.chars().next().is_some_and(char::is_uppercase)
        && parts.iter().all(|p| capitals(p) <= 1)
    {
        upper += 1;
    }
    let digit = w
        .chars()
        .any(|c| c.is_ascii_digit() || c == '²' || c == '³');
    let inner_upper = w
        .split('-')
        .any(|part| part.chars().skip(1).any(char::is_uppercase));
    upper >= 2 || inner_upper || (upper >= 1 && digit)
}

/// Words that end the search for a name in a cue sentence: what follows
/// names baselines and results (`… that outperforms GPT-4`).
pub(super) const NAME_STOPS: &[&str] = &[
    "outperforms",
    "outperform",
    "than",
    "compared",
    "against",
    "over",
    "including",
    "such",
    "e.g.,",
    "e.g.",
    "i.e.,",
    "i.e.",
    "like",
    "surpasses",
    "beats",
    "versus",
    "vs.",
    "achieves",
    "achieving",
    "improves",
    "improving",
    "based",
    "built",
    "using",
    "on",
];

/// What a candidate loses when the abstract uses it before it says what
/// the paper does (background: `Event Detection (ED) is the task of …`),
/// and what it gains by being found as a name in the first sentence that
/// proposes something. (Set on the ACL list: at 3 and 0 a much-repeated
/// background acronym outranked the name a paper gave its dataset.)
pub(super) const BACKGROUND_PENALTY: i32 = 5;

pub(super) const FIRST_PROPOSAL_BONUS: i32 = 1;

/// The candidates for a paper's own name, each scored as it is found; the
/// best so far is kept (the higher score, then the earlier place).
pub(super) struct Candidates<'a> {
    text: &'a str,
    /// Where the first sentence saying what the paper does starts.
    first_cue: Option<usize>,
    /// The first sentence that proposes something (start and end): the
    /// paper's own name is usually introduced there, its parts later.
    first_proposal: Option<std::ops::Range<usize>>,
    /// Words of a definition's long form, before its parenthesis (`Long
    /// Form (LF)`) or inside it (`LF (Long Form)`), are not names. (Found
    /// once per definition, not once per word asked about.)
    long_forms: Vec<std::ops::Range<usize>>,
    /// (score, place, name).
    best: Option<(i32, usize, String)>,
}

impl<'a> Candidates<'a> {
    fn new(text: &'a str, cues: &[Cue<'_>], defs: &[Definition]) -> Self {
        let long_forms = defs
            .iter()
            .flat_map(|d| {
                let before = text[..d.paren]
                    .rfind(d.long.as_str())
                    .map(|start| start..d.paren);
                let inside = text[d.paren..]
                    .find(d.long.as_str())
                    .map(|i| d.paren..d.paren + i + d.long.len());
                before.into_iter().chain(inside)
            })
            .collect();
        Candidates {
            text,
            first_cue: cues.first().map(|c| c.sentence.start),
            first_proposal: cues
                .iter()
                .find(|c| c.proposes)
                .map(|c| c.sentence.start..c.sentence.start + c.sentence.text.len()),
            long_forms,
            best: None,
        }
    }

    fn in_long_form(&self, at: usize) -> bool {
        self.long_forms.iter().any(|r| r.contains(&at))
    }

    /// Scores `name`, found at `at` with a `bonus` for how it was found: it
    /// gains by recurring, loses by appearing before the paper says what it
    /// does (background) or after a baseline cue.
    fn consider(&mut self, name: &str, at: usize, bonus: i32) {
        let text = self.text;
        let name = name.trim_matches(|c: char| !c.is_alphanumeric() && !"²³+".contains(c));
        let name_chars = name
            .chars()
            .all(|c| c.is_alphanumeric() || " -+²³_.".contains(c));
        if name.chars().count() < 2 || COMMON_NAMES.contains(&name) || !name_chars {
            return;
        }
        let occurrences = word_positions(text, name);
        let first = occurrences.first().copied().unwrap_or(at);
        let mut score = bonus + (occurrences.len() as i32).min(4);
        if self.first_cue.is_some_and(|c| first < c) {
            score -= BACKGROUND_PENALTY;
        }
        // (Found as a name there, not merely standing there: `… trained via
        // gradient descent (GD)` in that sentence is no name.)
        if bonus >= 3
            && self
                .first_proposal
                .as_ref()
                .is_some_and(|r| r.contains(&at))
        {
            score += FIRST_PROPOSAL_BONUS;
        }
        if occurrences.iter().any(|&i| after_baseline_cue(&text[..i])) {
            score -= 3;
        }
        if self
            .best
            .as_ref()
            .is_none_or(|(s, a, _)| score > *s || (score == *s && at < *a))
        {
            self.best = Some((score, at, name.to_string()));
        }
    }

    /// Coined words and `named X` in the object of a sentence saying what
    /// the paper does, the nearer the verb the better.
    ///
    /// (One pass over each object's words, where a word is a name in one of
    /// three ways — after a naming word, coined, or set off by a comma — and
    /// each way is judged by the word's place and where the baselines
    /// start, which the pass holds.)
    fn in_cues(&mut self, cues: &[Cue<'_>], defs: &[Definition]) {
        for cue in cues {
            let end = cue.sentence.start + cue.sentence.text.len();
            let words = word_offsets(&self.text[cue.object..end]);
            let stop = words
                .iter()
                .position(|(_, w)| NAME_STOPS.contains(&w.to_ascii_lowercase().as_str()))
                .unwrap_or(words.len());
            for (i, &(off, w)) in words.iter().enumerate() {
                let at = cue.object + off;
                if is_naming_word(w) {
                    self.after_naming_word(&words, i, at);
                    continue;
                }
                if i >= stop {
                    continue;
                }
                let bare = bare_word(w);
                let set_off = w.ends_with(',')
                    || w.ends_with(':')
                    || words.get(i + 1).is_some_and(|n| n.1.starts_with('('));
                let proposes = i32::from(cue.proposes);
                // A defined acronym is judged with its definition, below.
                let defined_here = w.starts_with('(') && defs.iter().any(|d| d.paren == at);
                if is_coined(bare) && !self.in_long_form(at) && !defined_here {
                    let near = match i {
                        0 => 4,
                        i if i < NEAR_WORDS => 3,
                        _ => 2,
                    };
                    // What a paper studies or applies is seldom its own.
                    self.consider(bare, at, near + proposes + i32::from(set_off));
                } else if set_off && bare.chars().count() >= 3 && !is_function_word(bare) {
                    self.set_off_name(&words, i, at, proposes);
                }
            }
        }
    }

    /// The name after the naming word `words[i]` of a cue's object (`named
    /// X`, `termed X`), found at `at`.
    fn after_naming_word(&mut self, words: &[(usize, &str)], i: usize, at: usize) {
        // `termed Distribution-based Structure Mining … (DEMO)`: the coined
        // form in parentheses is the name. `named as AANN`, `known as
        // TRUE-UIE`, `refer to as X`.
        let mut from = i + 1;
        while words
            .get(from)
            .is_some_and(|w| matches!(w.1, "as" | "to" | "it" | "this"))
        {
            from += 1;
        }
        let run = name_run(words.get(from..).unwrap_or(&[]));
        let coined_paren = words[i + 1..]
            .iter()
            .take(12)
            .map(|(_, w)| *w)
            .find(|w| w.starts_with('(') && is_coined(bare_word(w)));
        match (run, coined_paren) {
            (Some(name), _) if is_coined(&name) => self.consider(&name, at, 6),
            (_, Some(p)) => self.consider(bare_word(p), at, 6),
            (Some(name), None) => self.consider(&name, at, 6),
            (None, None) => {}
        }
    }

    /// A word set off by a comma, colon or parenthesis in a cue's object
    /// (`words[i]`, found at `at`), as a name: when it stands first or
    /// after a naming noun and the abstract keeps using it.
    fn set_off_name(&mut self, words: &[(usize, &str)], i: usize, at: usize, proposes: i32) {
        let w = words[i].1;
        let bare = bare_word(w);
        // `we introduce Echo, a …`, `a new approach, Ethos, that …`, when the
        // abstract names it again; `we introduce pyvene, an …` when it keeps
        // naming it.
        let capital = bare.chars().next().is_some_and(char::is_uppercase);
        let after_noun = i > 0
            && i < NEAR_WORDS
            && words[i - 1]
                .1
                .strip_suffix(',')
                .is_some_and(|n| NAMED_NOUNS.contains(&n.to_ascii_lowercase().as_str()));
        let recurs = word_positions(self.text, bare).len();
        // An apposition right after the verb (`we introduce Toolink, a …`,
        // `textless-lib, a …`) defines the name.
        let apposition = i == 0
            && w.ends_with(',')
            && words
                .get(1)
                .is_some_and(|n| matches!(n.1, "a" | "an" | "the"));
        // A small-letter name opens a sentence of its own (`pyvene supports
        // …`); `a failure mode we term copy-paste, …` names no method.
        let lower_name = recurs >= 3
            && (self.text.starts_with(bare) || self.text.contains(&format!(". {bare} ")));
        if (i == 0 || after_noun) && (lower_name || (capital && recurs >= 2)) {
            self.consider(bare, at, 4 + proposes + i32::from(apposition));
        } else if apposition && recurs >= 2 && bare.contains('-') {
            self.consider(bare, at, 4 + proposes);
        }
    }

    /// Defined acronyms (`… (HRE)`), judged with their definitions.
    fn in_definitions(&mut self, cues: &[Cue<'_>], defs: &[Definition]) {
        for d in defs {
            // `HumanRankEval (HRE)`, `RedCoast (Redco)`: the name is the one
            // word, its short form an abbreviation of it.
            if !d.long.contains(char::is_whitespace) && is_coined(&d.long) {
                let in_cue = cues.iter().any(|c| {
                    d.paren >= c.object && d.paren < c.sentence.start + c.sentence.text.len()
                });
                self.consider(&d.long, d.paren, if in_cue { 5 } else { 1 });
                continue;
            }
            // Its long form opens the object of a proposing cue (`we
            // propose an answer space clustered prompting model (ASCM)`, `a
            // fine-grained Token-level retrieval-augmented mechanism (Tram)`).
            let opens_cue = cues.iter().any(|c| {
                c.proposes
                    && d.paren >= c.object
                    && d.paren < c.sentence.start + c.sentence.text.len()
                    && self.text[c.object..d.paren]
                        .rfind(d.long.as_str())
                        .is_some_and(|i| {
                            self.text[c.object..c.object + i].split_whitespace().count() <= 3
                        })
            });
            if is_facet_acronym(&d.short)
                || is_coined(&d.short)
                || proposed_definition(self.text, d)
                || opens_cue
            {
                let in_cue = cues.iter().any(|c| {
                    d.paren >= c.object && d.paren < c.sentence.start + c.sentence.text.len()
                });
                let after_cue = i32::from(self.first_cue.is_some_and(|c| d.paren >= c));
                let proposed = proposed_definition(self.text, d) || opens_cue;
                // A task or background term defined in passing (`… for
                // semantic textual similarity (STS)`) needs to recur a lot.
                let bonus = match (in_cue, proposed) {
                    (true, true) => 4,
                    (false, true) => 1 + after_cue,
                    _ => -1,
                };
                // `word error rates (WERs)`: a plural names a kind of thing.
                let plural = d.short.ends_with('s')
                    && d.short.chars().rev().nth(1).is_some_and(char::is_uppercase);
                self.consider(&d.short, d.paren, bonus - 2 * i32::from(plural));
            }
        }
    }

    /// Coined words anywhere, `X is a …` sentences and the repository's name.
    fn elsewhere(&mut self, sentences: &[Sentence<'_>]) {
        // A coined word the abstract keeps using, wherever it stands
        // (`… It incorporates KinyaBERT …`, `SimKGC outperforms …`).
        // `our WebWISE method`, `Our mixture-of-experts SummaReranker`: a
        // coined word the abstract calls its own.
        let words = word_offsets(self.text);
        for (k, &(off, w)) in words.iter().enumerate() {
            let bare = bare_word(w);
            if is_coined(bare) && !self.in_long_form(off) {
                let after_cue = i32::from(self.first_cue.is_some_and(|c| off >= c));
                let ours = words[k.saturating_sub(2)..k]
                    .iter()
                    .any(|(_, p)| p.eq_ignore_ascii_case("our"));
                self.consider(bare, off, after_cue + 3 * i32::from(ours));
            }
        }
        // `Espresso is a compact library …`: a sentence that opens with a
        // recurring capitalised word defining it.
        for sentence in sentences {
            let mut ws = sentence.text.split_whitespace();
            if let (Some(first), Some(verb), Some(article)) = (ws.next(), ws.next(), ws.next()) {
                let defines = matches!(verb, "is") && matches!(article, "a" | "an" | "the");
                if defines
                    && first.chars().next().is_some_and(char::is_uppercase)
                    && first.chars().count() >= 3
                    && word_positions(self.text, first).len() >= 2
                    && !matches!(
                        first,
                        "This" | "It" | "There" | "That" | "These" | "Our" | "The"
                    )
                {
                    self.consider(first, sentence.start, 2);
                }
            }
        }
        // The repository a paper links to is usually named after it
        // (`github.com/starsuzi/Adaptive-RAG`).
        for (off, w) in word_offsets(self.text) {
            if let Some(repo) = repository_name(w) {
                let repo = repo.to_string();
                if repo.chars().next().is_some_and(char::is_uppercase) || is_coined(&repo) {
                    self.consider(&repo, off, 3);
                }
            }
        }
    }
}

/// The paper's own name and its description. Every coined word, defined
/// acronym and `named X` of the abstract is a candidate; the paper's own
/// recurs, stands in a sentence saying what the paper does (right after
/// the verb, best) and is neither background the abstract opens with nor a
/// baseline it is compared with.
pub(super) fn proposed_name(
    text: &str,
    sentences: &[Sentence<'_>],
    cues: &[Cue<'_>],
    defs: &[Definition],
) -> Option<(String, Vec<String>)> {
    let mut candidates = Candidates::new(text, cues, defs);
    candidates.in_cues(cues, defs);
    candidates.in_definitions(cues, defs);
    candidates.elsewhere(sentences);
    let best = candidates.best;
    let (score, _, name) = best?;
    (score >= 3).then(|| {
        // Its description, else what the paper does.
        let rest = without_name(cues, &name);
        let descs = describe(text, cues, defs, &name)
            .into_iter()
            .chain(contributions(&rest).filter(|d| !d.contains(name.as_str())))
            .collect();
        (name, descs)
    })
}

/// Whether a definition names what the paper proposes: its long form
/// follows the verb, an article or an adjective (`we propose Adversarial
/// Dropout Regularization (ADR)`, `we introduce a Self-Contrastive …`),
/// not a preposition (`… for machine reading comprehension (MRC)`), and is
/// written as a name, in capitals.
/// The cues with `name` taken off the front of what follows each (what
/// the paper does, once its name is said).
pub(super) fn without_name<'a>(cues: &[Cue<'a>], name: &str) -> Vec<Cue<'a>> {
    cues.iter()
        .map(|c| Cue {
            rest: c.rest.strip_prefix(name).unwrap_or(c.rest),
            ..*c
        })
        .collect()
}

pub(super) fn proposed_definition(text: &str, d: &Definition) -> bool {
    let Some(start) = text[..d.paren].rfind(d.long.as_str()) else {
        return false;
    };
    let before = text[..start].split_whitespace().next_back().unwrap_or("");
    let preposition = matches!(
        before.to_ascii_lowercase().as_str(),
        "for"
            | "in"
            | "on"
            | "of"
            | "to"
            | "with"
            | "from"
            | "under"
            | "across"
            | "between"
            | "about"
            | "by"
            | "via"
            | "as"
            | "into"
            | "over"
            | "against"
            | "and"
            | "or"
    );
    let capitals = d
        .long
        .split_whitespace()
        .filter(|w| w.chars().next().is_some_and(char::is_uppercase))
        .count();
    // A mixed-case short form (`AdaLoGN`) is coined even when its long
    // form is written in small letters.
    let mixed = d.short.chars().any(char::is_lowercase) && is_coined(&d.short);
    !preposition && (mixed || capitals * 2 >= d.long.split_whitespace().count())
}

/// The repository of a GitHub or GitLab link: its last path part.
pub(super) fn repository_name(word: &str) -> Option<&str> {
    let rest = ["github.com/", "gitlab.com/"]
        .iter()
        .find_map(|h| word.find(h).map(|i| &word[i + h.len()..]))?;
    let mut parts = rest.split('/');
    let (_owner, repo) = (parts.next()?, parts.next()?);
    let repo = repo.trim_end_matches(|c: char| !c.is_alphanumeric());
    let repo = repo.strip_suffix(".git").unwrap_or(repo);
    (repo.chars().count() >= 3 && !repo.contains('.')).then_some(repo)
}

pub(super) fn is_naming_word(w: &str) -> bool {
    matches!(
        w.to_ascii_lowercase().as_str(),
        "named"
            | "called"
            | "dubbed"
            | "termed"
            | "coined"
            | "nicknamed"
            | "known"
            | "refer"
            | "namely"
    )
}

/// A word without the punctuation around it.
pub(super) fn bare_word(w: &str) -> &str {
    w.trim_start_matches(['(', '"', '“', '\'', '‘'])
        .trim_end_matches([',', ';', ':', '.', ')', '"', '”', '\'', '’'])
}

/// Where `name` stands in `text` as a whole word (a plural `s` allowed).
pub(super) fn word_positions(text: &str, name: &str) -> Vec<usize> {
    text.match_indices(name)
        .filter(|(i, _)| {
            let before = text[..*i].chars().next_back();
            let after = text[i + name.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric)
                && !after.is_some_and(|c| c.is_alphanumeric() && c != 's')
        })
        .map(|(i, _)| i)
        .collect()
}

/// Whether the text before a name compares the paper with it: `than X`,
/// `outperforms X`, `such as X`, `e.g., X`.
pub(super) fn after_baseline_cue(before: &str) -> bool {
    let tail: Vec<String> = before
        .split_whitespace()
        .rev()
        .take(2)
        .map(|w| w.to_ascii_lowercase())
        .collect();
    tail.iter().any(|w| {
        matches!(
            w.trim_end_matches([',', '(']),
            "than"
                | "outperforms"
                | "outperform"
                | "outperforming"
                | "surpasses"
                | "beats"
                | "e.g."
                | "e.g"
                | "including"
                | "like"
                | "versus"
                | "vs."
                | "over"
        )
    }) || (tail.len() == 2 && tail[1] == "such" && tail[0] == "as")
}

/// A name's description: its definition's long form, else what stands
/// beside it where the abstract introduces it.
pub(super) fn describe(
    text: &str,
    cues: &[Cue<'_>],
    defs: &[Definition],
    name: &str,
) -> Option<String> {
    if let Some(d) = defs.iter().find(|d| d.short == name) {
        if d.long.split_whitespace().count() >= 2 && !d.long.eq_ignore_ascii_case(name) {
            return Some(d.long.clone());
        }
    }
    let within = |p: usize, c: &Cue<'_>| {
        p >= c.sentence.start && p < c.sentence.start + c.sentence.text.len()
    };
    // Occurrences inside a cue sentence first.
    let mut order: Vec<(usize, Option<&Cue<'_>>)> = word_positions(text, name)
        .into_iter()
        .map(|p| (p, cues.iter().find(|c| within(p, c))))
        .collect();
    order.sort_by_key(|(p, c)| (c.is_none(), *p));
    for &(p, cue) in &order {
        if let Some(d) = description_after(text, p + name.len()) {
            return Some(d);
        }
        if let Some(c) = cue.filter(|c| p > c.object) {
            let before = text[c.object..p]
                .trim_end()
                .trim_end_matches(|ch: char| !ch.is_alphanumeric())
                .trim_end();
            let before = ["named", "called", "dubbed", "termed", "coined"]
                .iter()
                .find_map(|w| before.strip_suffix(w))
                .unwrap_or(before);
            if let Some(d) = phrase_before(before) {
                // `a … self-consistency (SC) training strategy`: the noun
                // the name qualifies ends the description.
                let after = text[p + name.len()..].trim_start_matches([')', ' ']);
                let head: Vec<&str> = after
                    .split_whitespace()
                    .take(3)
                    .scan(false, |ended, w| {
                        // Up to the word that ends the clause, included.
                        let bare = w.trim_end_matches(['.', ',', ';']);
                        let noun = !*ended
                            && !bare.is_empty()
                            && bare.chars().all(|c| c.is_lowercase() || c == '-')
                            && !is_function_word(bare)
                            && !matches!(bare, "is" | "was" | "has" | "uses" | "which" | "that");
                        *ended = bare.len() != w.len();
                        noun.then_some(bare)
                    })
                    .collect();
                return Some(if head.is_empty() {
                    d
                } else {
                    format!("{d} {}", head.join(" "))
                });
            }
        }
    }
    // `X is a …` in the sentence after, or the rest of the cue sentence.
    let cue = order.iter().find_map(|(_, c)| *c).or(cues.first())?;
    description_near(text, cue, name)
}

/// A name of one to four words: coined words, capitalised words and the
/// connectors between them (`Chekhov GAN`, `Slow-Fast Policy Optimization`).
pub(super) fn name_run(words: &[(usize, &str)]) -> Option<String> {
    let mut run: Vec<&str> = Vec::new();
    for (i, &(_, w)) in words.iter().enumerate().take(4) {
        let bare = w
            .trim_start_matches(['(', '"', '“', '\''])
            .trim_end_matches([',', ';', ':', '.', ')', '"', '”', '\'']);
        let capital = bare.chars().next().is_some_and(char::is_uppercase) || is_coined(bare);
        // `MCECR (Multilingual …)`: a parenthesis after the name is not
        // part of it.
        if !capital || bare.is_empty() || bare.starts_with('\\') || (i > 0 && w.starts_with('(')) {
            break;
        }
        run.push(bare);
        if bare.len() != w.len() || i + 1 == words.len() {
            break;
        }
    }
    // `Feature Prompt Tuning FPT`: an acronym after the words it stands
    // for is the name.
    if run.len() >= 2 {
        let last = run[run.len() - 1];
        if is_facet_acronym(last) && !run[..run.len() - 1].iter().any(|w| is_coined(w)) {
            return Some(last.to_string());
        }
    }
    (!run.is_empty()).then(|| run.join(" "))
}

/// What follows a name: `X, a novel contrastive technique that …`,
/// `X: a benchmark of …`, `X (…), which is a …`, `X is a …`.
pub(super) fn description_after(text: &str, end: usize) -> Option<String> {
    let mut rest = text.get(end..)?;
    // Skip a parenthesis right after the name (`X (Long Form)`).
    let trimmed = rest.trim_start_matches([')', '"', '”', '\'']).trim_start();
    rest = trimmed;
    if rest.starts_with('(') {
        rest = rest[rest.find(')').map_or(rest.len(), |i| i + 1)..].trim_start();
    }
    let rest = rest
        .strip_prefix(',')
        .or_else(|| rest.strip_prefix(':'))
        .or_else(|| rest.strip_prefix('—'))
        .or_else(|| rest.strip_prefix("--"))
        .or_else(|| rest.strip_prefix(" -"))
        .map(str::trim_start)
        .or_else(|| {
            // `X is a …`, `X, which is a …`: keep the article.
            ["is a ", "is an ", ", which is a ", ", which is an "]
                .iter()
                .find(|p| rest.starts_with(*p))
                .map(|p| &rest[p.len() - if p.ends_with("an ") { 3 } else { 2 }..])
        })?;
    let lower = rest.to_ascii_lowercase();
    let appositive = [
        "a ",
        "an ",
        "the ",
        "our ",
        "which is a ",
        "which is an ",
        "that is a ",
        "i.e., a ",
    ]
    .iter()
    .any(|p| lower.starts_with(p))
        || rest.chars().next().is_some_and(char::is_lowercase)
            && !lower.starts_with("which")
            && !lower.starts_with("that")
            && !lower.starts_with("and")
            && !lower.starts_with("where")
            && !starts_with_verb(&lower);
    if !appositive {
        return None;
    }
    let end = sentence_end_in(rest);
    let phrase = rest[..end]
        .trim_start_matches("which is ")
        .trim_start_matches("that is ")
        .trim_start_matches("i.e., ");
    let out = compress(phrase, MAX_WORDS - 2);
    (content_count(&out) >= 2).then_some(out)
}

/// `X, rewrites sentences …`, `X, can compress …`: a verb after the name
/// starts a clause, not an apposition.
pub(super) fn starts_with_verb(lower: &str) -> bool {
    let first = lower.split_whitespace().next().unwrap_or("");
    matches!(
        first,
        "can" | "could" | "will" | "may" | "is" | "was" | "has" | "does" | "uses" | "achieves"
    ) || (first.ends_with('s')
        && !first.ends_with("ss")
        && !first.ends_with("ous")
        && !first.ends_with("ics")
        && !first.ends_with("is")
        && lower
            .split_whitespace()
            .nth(1)
            .is_some_and(|w| !w.ends_with(',')))
}

/// The object phrase before a name (`we propose a novel training method
/// named …` → `a novel training method`), when it says something.
pub(super) fn phrase_before(before: &str) -> Option<String> {
    let phrase = before
        .trim()
        .trim_end_matches([',', ':', '—', '-', '('])
        .trim();
    let out = compress(phrase, MAX_WORDS - 2);
    // `augmentation technique` says enough; `a novel framework` does not.
    (content_count(&out) >= 1 && out.split_whitespace().count() >= 2).then_some(out)
}

/// The rest of the cue sentence without the name, or the next sentence
/// with the name as its subject (`X is a …`, `X learns …`).
pub(super) fn description_near(text: &str, cue: &Cue<'_>, name: &str) -> Option<String> {
    let s = cue.sentence;
    let after = s.start + s.text.len();
    let next = sentences(&text[after.min(text.len())..]);
    for n in next.iter().take(2) {
        if let Some(rest) = n.text.strip_prefix(name) {
            let rest = rest.trim_start().trim_start_matches(',').trim_start();
            let lower = rest.to_ascii_lowercase();
            for p in ["is a ", "is an ", "consists of ", "comprises "] {
                if let Some(r) = lower.strip_prefix(p) {
                    let r = &rest[rest.len() - r.len()..];
                    let out = compress(
                        &format!(
                            "{}{}",
                            &p[2..]
                                .trim_start_matches("of ")
                                .trim_start_matches("prises "),
                            r
                        ),
                        MAX_WORDS - 2,
                    );
                    let out = out.trim_start_matches("sists ").to_string();
                    if content_count(&out) >= 2 {
                        return Some(out);
                    }
                }
            }
        }
    }
    let object = cue.rest.replace(name, " ");
    let out = compress(strip_lead(&object), MAX_WORDS - 2);
    (content_count(&out) >= 2).then_some(out)
}

/// `NAME: Description`, or the name alone when nothing describes it.
pub(super) fn join(name: &str, desc: &str) -> String {
    let desc =
        tidy_description(desc.trim_start_matches(|c: char| !c.is_alphanumeric() && c != '“'));
    let clause = [
        "which ", "that ", "and ", "where ", "or ", "but ", "whose ", "whom ",
    ]
    .iter()
    .any(|p| desc.to_ascii_lowercase().starts_with(p));
    let desc = if clause { String::new() } else { desc };
    if desc.is_empty() || desc.eq_ignore_ascii_case(name) {
        name.to_string()
    } else {
        format!("{name}: {}", capitalize(&desc))
    }
}

/// Drops the words no title says (`novel`, `new`) and the connectors a
/// cut left at the end.
pub(super) fn tidy_description(desc: &str) -> String {
    let mut words: Vec<&str> = desc
        .split_whitespace()
        .filter(|w| !matches!(w.to_ascii_lowercase().as_str(), "novel" | "new"))
        .collect();
    // `a novel efficient approach` → `an efficient approach`.
    for i in 1..words.len() {
        let vowel = words[i].starts_with(['a', 'e', 'i', 'o', 'u']);
        match words[i - 1] {
            "a" if vowel => words[i - 1] = "an",
            "A" if vowel => words[i - 1] = "An",
            "an" if !vowel && words[i].starts_with(char::is_lowercase) => words[i - 1] = "a",
            "An" if !vowel && words[i].starts_with(char::is_lowercase) => words[i - 1] = "A",
            _ => {}
        }
    }
    let mut words = &words[..];
    while let Some((last, rest)) = words.split_last() {
        if is_function_word(last) {
            words = rest;
        } else {
            break;
        }
    }
    let s = words.join(" ");
    s.trim_end_matches([',', ';', ':', '(', '—', '-'])
        .trim()
        .to_string()
}

/// How far after a cue (“we introduce a framework (CRD)”) a definition may stand.
pub(super) const NEAR_WORDS: usize = 8;
