//! Every string the interface shows, in English and Chinese, in one place:
//! the app shows them, and the build writes the first screen with them. A
//! language is one [`Strings`] value: a language missing a string does not
//! compile. The corpus's own text (titles, abstracts, facet values) is
//! content and is shown as written; facet *names* are interface and are
//! translated by facet key.
#![allow(missing_docs)] // the fields are named for what they say

use crate::model::facet::FacetKind;
use crate::model::opened::{OpenError, OpenStage};
use crate::view::reading_list::ImportError;

/// A language of the interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    En,
    Zh,
}

impl Lang {
    /// Its strings.
    pub fn strings(self) -> &'static Strings {
        match self {
            Lang::En => &EN,
            Lang::Zh => &ZH,
        }
    }

    /// Its code, as the reader's choice is stored.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The first language of a browser's list (`navigator.languages`,
    /// most preferred first) that the interface has; English otherwise.
    pub fn from_preferences<'a>(tags: impl IntoIterator<Item = &'a str>) -> Lang {
        for tag in tags {
            let primary = tag
                .split(['-', '_'])
                .next()
                .unwrap_or("")
                .to_ascii_lowercase();
            match primary.as_str() {
                "zh" => return Lang::Zh,
                "en" => return Lang::En,
                _ => {}
            }
        }
        Lang::En
    }
}

pub struct Strings {
    pub html_lang: &'static str,
    /// The toggle's label: the *other* language, in that language.
    pub other_language: &'static str,
    pub switch_language: &'static str,

    pub search_label: &'static str,
    pub search_placeholder: &'static str,
    pub syntax_help: &'static str,
    pub syntax_title: &'static str,
    /// (example, what it does), in the order shown.
    pub syntax: [(&'static str, &'static str); 6],
    pub syntax_facets: &'static str,
    pub syntax_tag: &'static str,
    pub syntax_note: &'static str,

    pub status: fn(usize, usize) -> String,
    /// The status when best matches follow the papers holding every word:
    /// (holding every word, best matches, papers in all).
    pub status_best: fn(usize, usize, usize) -> String,
    /// Above each best match's card: one with some of the words, one
    /// with none that joined them as close in meaning.
    pub best_match: &'static str,
    pub best_by_meaning: &'static str,
    pub sort_by: &'static str,
    pub sort_relevance: &'static str,
    pub sort_list: &'static str,
    pub sort_title: &'static str,
    pub export: &'static str,
    pub export_as: &'static str,
    pub no_results: &'static str,
    /// Said in place of [`Strings::no_results`] when no paper holds the
    /// words but papers close in meaning follow.
    pub no_words_but_meaning: &'static str,
    /// The status while a query waits for the search index (fetched after
    /// the first results).
    pub index_loading: &'static str,
    /// The status when a part of the index a query needs could not be
    /// fetched (offline, and never fetched before).
    pub index_part_failed: &'static str,
    /// The status while a filter waits for the papers' tags (a long list
    /// fetches them after its first answer).
    pub tags_loading: &'static str,
    /// The status when the papers' tags a filter needs could not be
    /// fetched.
    pub tags_failed: &'static str,
    /// The status while a long list's title order, which sorting by title
    /// reads, is on its way.
    pub title_order_loading: &'static str,
    /// The status when it could not be fetched.
    pub title_order_failed: &'static str,
    /// A facet count not known yet (the tags are on their way): the text
    /// shown, and what it says to a screen reader.
    pub count_pending: &'static str,
    pub count_pending_label: &'static str,
    /// "Save for offline use": the button with the most it downloads
    /// (megabytes, formatted), the progress while it does, the state once
    /// done, and a failure.
    pub offline_save: fn(&str) -> String,
    /// The progress of saving for offline use, in percent.
    pub offline_saving: fn(u32) -> String,
    /// Everything this list needs is saved for offline use.
    pub offline_saved: &'static str,
    /// Saving for offline use stopped (offline, or the server failed).
    pub offline_failed: &'static str,
    /// The list of papers close in meaning to the query: its heading, what
    /// it is, and the words that bring each paper.
    pub related_heading: &'static str,
    pub related_note: &'static str,
    pub related_via: &'static str,
    /// Said under the related papers when the query matches nothing and
    /// the filters count them (how many the set holds).
    pub related_counted: fn(usize) -> String,
    /// The reading list's "more like these": the button, and the list's
    /// heading and note.
    pub like_starred: &'static str,
    pub share_list: &'static str,
    pub share_with_notes: &'static str,
    pub share_list_note: &'static str,
    pub shared_heading: fn(usize) -> String,
    pub shared_stale: fn(usize, &str) -> String,
    pub add_to_my_list: &'static str,
    pub shared_added: fn(usize, usize, usize) -> String,
    pub show_all_papers: &'static str,
    pub like_heading: &'static str,
    pub like_note: &'static str,
    pub clear_all: &'static str,
    pub results_label: &'static str,

    pub filters: &'static str,
    pub show_more: fn(usize) -> String,
    pub show_fewer: &'static str,
    /// A facet's name.
    pub facet_name: fn(FacetKind) -> &'static str,

    pub reading_list: &'static str,
    pub starred: &'static str,
    pub export_list: &'static str,
    pub import: &'static str,
    pub in_memory: &'static str,
    pub kept_aside: fn(&str, &str) -> String,
    pub imported: fn(usize, usize, usize) -> String,
    pub elsewhere: fn(usize) -> String,
    pub import_failed: fn(&str) -> String,
    pub file_unreadable: &'static str,
    /// Why a reading-list file was not read or written: the part of the
    /// page that does it comes when first used, and the page is offline.
    pub file_code_unfetched: &'static str,
    /// "Nothing exported: <why>."
    pub export_failed: fn(&str) -> String,
    /// Why a file is not a reading list, in this language.
    pub import_error: fn(&ImportError) -> String,
    pub star: &'static str,
    pub unstar: &'static str,
    pub confirm_unstar: &'static str,
    pub note: &'static str,
    pub note_label: &'static str,

    /// A paper's links: its page, PDF and code.
    pub link_labels: [&'static str; 3],
    pub show_full: &'static str,
    pub show_less: &'static str,
    pub similar_papers: &'static str,
    /// In place of an abstract whose pack is on its way.
    pub loading_abstract: &'static str,
    /// What a card says in its abstract's place when the record has none
    /// (a reference manager's entry with its title only).
    pub no_abstract: &'static str,
    /// A title whose pack is on its way (a long list's titles come apart).
    pub loading_title: &'static str,
    pub shares: &'static str,
    /// A card's tag chips, as a screen reader names them.
    pub tags: &'static str,

    pub share: &'static str,
    pub link_to_view: &'static str,
    pub copy: &'static str,
    pub embed_in_wiki: &'static str,
    pub copy_snippet: &'static str,
    pub embed_note: &'static str,
    pub embed_element: &'static str,
    pub embed_element_note: &'static str,

    pub shortcuts: &'static str,
    pub shortcuts_title: &'static str,
    pub shortcuts_tooltip: &'static str,
    pub close: &'static str,
    /// What each of the app's keyboard shortcuts does, in their order.
    pub shortcut_actions: [&'static str; 7],

    /// System, light, dark.
    pub themes: [&'static str; 3],

    pub topic_map: &'static str,
    /// Said in place of the topic map while its file comes (a long list's).
    pub loading_map: &'static str,
    pub map_region: &'static str,
    pub papers_count: fn(usize) -> String,
    pub clear_region: &'static str,
    pub colour_by: &'static str,
    pub map_hint: &'static str,
    pub map_label: &'static str,
    pub map_colours: &'static str,
    pub other: &'static str,

    pub update_ready: &'static str,
    pub reload: &'static str,

    pub crash_title: &'static str,
    pub crash_text: &'static str,
    pub crash_reload: &'static str,
    /// Said, with the crash notice's title and link, when the paper list
    /// itself could not be fetched or read.
    pub load_failed: &'static str,

    /// A list of the reader's own, opened in the page: the button (and
    /// what it takes), each stage of the compile, cancelling it, why it
    /// failed, the retry that skips records without an abstract.
    pub open_list: &'static str,
    pub open_list_hint: &'static str,
    pub open_stage: fn(OpenStage) -> &'static str,
    pub open_cancel: &'static str,
    pub open_failed: fn(&OpenError) -> String,

    /// "Your lists (n)": the lists kept in this browser, the built-in
    /// list, one list's line (papers, megabytes, date), deleting one.
    pub your_lists: fn(usize) -> String,
    pub builtin_list: &'static str,
    pub kept_list_line: fn(u32, &str, &str) -> String,
    /// The compile's summary of the list in view (records, papers, papers
    /// without an abstract, records skipped), and the heading of what the
    /// reader said of its lines (how many).
    pub opened_summary: fn(u32, u32, u32, u32) -> String,
    pub opened_said: fn(usize) -> String,
    pub delete_list: fn(&str) -> String,
    /// The button that downloads a kept list's site, ready to host.
    pub publish_list: &'static str,
    /// Its hint: what the zip holds.
    pub publish_list_hint: fn(&str) -> String,
    /// Said while the site is made.
    pub publishing: &'static str,
    /// The address names a list this browser does not keep.
    pub list_not_kept: &'static str,
    /// The address names a kept list whose files the browser no longer
    /// has (its site data cleared): its record is forgotten.
    pub list_files_gone: &'static str,
}

pub static EN: Strings = Strings {
    html_lang: "en",
    other_language: "中文",
    switch_language: "切换到中文 (Switch to Chinese)",

    search_label: "Search papers",
    search_placeholder:
        "Search titles and abstracts — try \"catastrophic forgetting\" or rl -video",
    syntax_help: "Search syntax help",
    syntax_title: "Search syntax",
    syntax: [
        (
            "diffusion video",
            "papers with both words (any form: model, models, modelling); below a few such papers, the best matches follow: papers with most of the words",
        ),
        ("diffu", "the word being typed also matches as a prefix"),
        (
            "\"catastrophic forgetting\"",
            "an exact phrase; hyphenated words like DPH-RL are phrases too",
        ),
        ("-video", "exclude papers with a word or \"phrase\""),
        ("audio OR speech", "either word"),
        (
            "reinforcment",
            "typos are forgiven (1 in words of 5+ letters, 2 in 9+) where a word is in fewer than 3 papers; such matches rank last",
        ),
    ],
    syntax_facets: "filter by a facet; ",
    syntax_tag: " searches every facet",
    syntax_note: "Case and accents are ignored: bokmal finds Bokmål.",

    status: |shown, total| format!("{shown} of {total} papers"),
    status_best: |all, some, total| match all {
        0 => format!("No paper has every word: {some} best matches of {total} papers"),
        1 => format!("1 of {total} papers has every word, then {some} best matches"),
        _ => format!("{all} of {total} papers have every word, then {some} best matches"),
    },
    best_match: "Best match: has some of the words",
    best_by_meaning: "Best match: close in meaning, none of the words",
    sort_by: "Sort by ",
    sort_relevance: "Relevance",
    sort_list: "List order",
    sort_title: "Title (A–Z)",
    export: "Export",
    export_as: "Export the results as",
    no_results: "No papers match this search.",
    no_words_but_meaning: "No paper holds these words. Below, the papers closest in meaning.",
    index_loading: "Loading the search index…",
    index_part_failed: "Part of the search index this search needs could not be loaded: are you offline?",
    tags_loading: "Loading the filters…",
    tags_failed: "The filters could not be loaded: are you offline?",
    title_order_loading: "Loading the titles' order…",
    title_order_failed: "The titles' order could not be loaded: are you offline?",
    count_pending: "…",
    count_pending_label: "Counting…",
    offline_save: |size| format!("Save for offline use (up to {size})"),
    offline_saving: |percent| format!("Saving for offline use: {percent} %"),
    offline_saved: "Saved for offline use",
    offline_failed: "Saving for offline use stopped: try again online",
    related_heading: "Related by meaning",
    related_note: "Papers close in meaning to your search, whether or not they use its words.",
    related_via: "via:",
    related_counted: |n| format!("The filters count the {n} papers closest in meaning."),
    like_starred: "More like these",
    share_list: "Share list",
    share_with_notes: "Include my notes",
    share_list_note: "The list travels in the link's fragment (after #), which browsers never \
                      send to a server.",
    shared_heading: |n| match n {
        1 => "A shared list of 1 paper".into(),
        n => format!("A shared list of {n} papers"),
    },
    shared_stale: |k, ids| match k {
        1 => format!("1 of its papers is not in this explorer: {ids}."),
        k => format!("{k} of its papers are not in this explorer: {ids}."),
    },
    add_to_my_list: "Add to my list",
    shared_added: |added, joined, total| {
        format!("Added: {added} new, {joined} notes joined; {total} on your list.")
    },
    show_all_papers: "Show all papers",
    like_heading: "More like your reading list",
    like_note: "Papers close in meaning and in words to the ones you starred.",
    clear_all: "Clear search and filters",
    results_label: "Papers",

    filters: "Filters",
    show_more: |n| format!("Show {n} more"),
    show_fewer: "Show fewer",
    facet_name: FacetKind::name_en,

    reading_list: "Reading list",
    starred: "★ Starred",
    export_list: "Export list",
    import: "Import…",
    in_memory: "This browser does not let the page keep data here: stars and notes last until \
                the page is closed. Export the list to keep it.",
    kept_aside: |error, aside| {
        format!(
            "The reading list stored in this browser could not be read ({error}). It is kept \
             unchanged under the key “{aside}”; new stars start a fresh list."
        )
    },
    imported: |added, joined, total| {
        format!("Imported: {added} new, {joined} notes joined; {total} on the list.")
    },
    elsewhere: |n| format!(" {n} are not in this corpus (kept, not shown)."),
    import_failed: |e| format!("Nothing imported: {e}."),
    file_unreadable: "the file could not be read",
    file_code_unfetched: "the part of this page that reads and writes reading-list files \
        comes the first time it is used, and the page is offline; connect and try again",
    export_failed: |e| format!("Nothing exported: {e}."),
    import_error: |e| match e {
        ImportError::NotJson { line, column } => {
            format!("not valid JSON (line {line}, column {column})")
        }
        ImportError::Shape { line, column } => {
            format!("not shaped as a reading list (line {line}, column {column})")
        }
        ImportError::OtherFormat(f) => format!("this is not a reading list (its format is “{f}”)"),
        ImportError::Newer(v) => {
            format!("this reading list was written by a newer version (format {v})")
        }
        ImportError::MissingId => "a paper in the list has no id".into(),
    },
    star: "Star: add to the reading list",
    unstar: "Starred (click to unstar)",
    confirm_unstar: "Unstar this paper and delete your note on it?",
    note: "Note",
    note_label: "Your note on this paper (kept in this browser)",

    link_labels: ["Page", "PDF", "Code"],
    show_full: "Show full abstract",
    show_less: "Show less",
    similar_papers: "Similar papers",
    loading_abstract: "Loading the abstract…",
    no_abstract: "No abstract in this record: its title, authors and venue are searched.",
    loading_title: "Loading the title…",
    shares: " — shares ",
    tags: "Tags",

    share: "Share / embed",
    link_to_view: "Link to this view",
    copy: "Copy",
    embed_in_wiki: "Embed in a wiki page",
    copy_snippet: "Copy snippet",
    embed_note: "The script line sizes the frame to its content; leave it out where scripts are \
                 not allowed.",
    embed_element: "Or as an element (works under a strict Content-Security-Policy)",
    embed_element_note: "The element sizes itself, follows the reader's view in its attributes, \
                         and a page script can set the view (see the guide's host API).",

    shortcuts: "Shortcuts",
    shortcuts_title: "Keyboard shortcuts",
    shortcuts_tooltip: "Keyboard shortcuts (?)",
    close: "Close",
    shortcut_actions: [
        "Go to the search field",
        "Clear the search (or close this list)",
        "Next paper",
        "Previous paper",
        "Open the paper whose title is focused",
        "Star or unstar the focused paper",
        "Show or hide these shortcuts",
    ],

    themes: ["Theme: system", "Theme: light", "Theme: dark"],

    topic_map: "Topic map",
    loading_map: "Loading the map…",
    map_region: "Map region: ",
    papers_count: |n| format!(" · {n} papers"),
    clear_region: "Clear region",
    colour_by: "Colour by ",
    map_hint: "Drag a box to keep the papers inside it; click a dot to open its paper.",
    map_label: "Topic map: papers placed by their content; the results are bright",
    map_colours: "Colours",
    other: "other",

    update_ready: "A new version of this explorer is ready. ",
    reload: "Reload",

    crash_title: "Something went wrong",
    crash_text: "The explorer stopped working. Reloading the page starts it again; your \
                 stars and notes are kept. What happened:",
    crash_reload: "Reload the page",
    load_failed:
        "The list of papers could not be loaded. Reloading the page tries again. What happened:",

    open_list: "Open a list…",
    open_list_hint: "Explore a list of your own: BibTeX, RIS, CSL-JSON, JSON, JSON Lines, CSV or \
                     plain abstracts. Or drop the file on the page. It stays in this browser.",
    open_stage: |stage| match stage {
        OpenStage::Reading => "Reading the file",
        OpenStage::Compiling => "Reading, tagging and indexing the papers",
        OpenStage::Packing => "Building the meaning file and packing",
        OpenStage::Storing => "Keeping it in this browser",
    },
    open_cancel: "Cancel",
    open_failed: |e| match e {
        OpenError::Source { message } => format!("This file could not be read as a list: {message}"),
        OpenError::Format { name } => format!(
            "{name}: not a list this page reads (.bib, .ris, .json, .jsonl, .csv or .txt)."
        ),
        OpenError::TooLarge { bytes, limit } => format!(
            "This file is {:.0} MB, over the {:.0} MB the page can compile. Build it with the \
             command line instead: CORPUS_DIR=<its folder> ./dev build",
            *bytes as f64 / 1e6,
            *limit as f64 / 1e6
        ),
        OpenError::Fetch { url } => format!(
            "{url} could not be fetched: the server is offline, or does not let other sites \
             read it (no CORS header). Download the file and open it here instead."
        ),
        OpenError::Http { url, status } => format!("{url} answered HTTP {status}."),
        OpenError::Storage { reason } => format!(
            "The browser would not keep this list ({reason}). Free some space, or let this \
             site store data, and try again."
        ),
        OpenError::NotPublishable => "This list was kept by an older version of this page: \
             open its file again to download its explorer."
            .into(),
        OpenError::Unfetched => "The part of this page that opens lists could not be \
             fetched: it comes the first time a list is opened, and the page is offline. \
             Connect and try again."
            .into(),
    },
    your_lists: |n| format!("Your lists ({n})"),
    builtin_list: "The built-in list",
    kept_list_line: |papers, size, date| format!("{papers} papers · {size} · {date}"),
    opened_summary: |records, papers, bare, skipped| {
        format!("{records} records: {papers} papers, {bare} without an abstract; {skipped} skipped")
    },
    opened_said: |n| format!("What the reader repaired or skipped ({n})"),
    delete_list: |name| format!("Delete {name}"),
    publish_list: "Download this explorer",
    publish_list_hint: |name| format!(
        "{name} as a site ready to host (a zip): copy its files into any folder a web server serves"
    ),
    publishing: "Making the site…",
    list_not_kept: "This link names a list opened in another browser: it is not kept in this one.",
    list_files_gone: "This list's files are gone from this browser (its site data was cleared): open its file again to keep it.",
};

pub static ZH: Strings = Strings {
    html_lang: "zh-Hans",
    other_language: "English",
    switch_language: "Switch to English (切换到英文)",

    search_label: "搜索论文",
    search_placeholder: "搜索标题和摘要，例如 \"catastrophic forgetting\" 或 rl -video",
    syntax_help: "搜索语法说明",
    syntax_title: "搜索语法",
    syntax: [
        (
            "diffusion video",
            "同时包含两个词的论文（词形不限：model、models、modelling）；这样的论文很少时，其后列出包含大部分词语的最佳匹配",
        ),
        ("diffu", "正在输入的词也按前缀匹配"),
        (
            "\"catastrophic forgetting\"",
            "精确短语；DPH-RL 这类连字符词也按短语处理",
        ),
        ("-video", "排除含有某个词或 \"短语\" 的论文"),
        ("audio OR speech", "任一词即可"),
        (
            "reinforcment",
            "容忍拼写错误（5 个字母以上的词容错 1 处，9 个以上容错 2 处；仅当该词所在论文少于 3 篇时），这类匹配排在最后",
        ),
    ],
    syntax_facets: "按分面筛选；",
    syntax_tag: " 搜索所有分面",
    syntax_note: "忽略大小写和重音符号：bokmal 可以找到 Bokmål。",

    status: |shown, total| format!("共 {total} 篇论文，显示 {shown} 篇"),
    status_best: |all, some, total| match all {
        0 => format!("共 {total} 篇论文，没有论文包含全部词语：显示 {some} 篇最佳匹配"),
        _ => format!("共 {total} 篇论文，{all} 篇包含全部词语，其后是 {some} 篇最佳匹配"),
    },
    best_match: "最佳匹配：包含部分词语",
    best_by_meaning: "最佳匹配：含义相近，不含这些词语",
    sort_by: "排序：",
    sort_relevance: "相关度",
    sort_list: "列表顺序",
    sort_title: "标题（A–Z）",
    export: "导出",
    export_as: "将结果导出为",
    no_results: "没有符合此搜索的论文。",
    no_words_but_meaning: "没有论文包含这些词。下面是含义最接近的论文。",
    index_loading: "正在加载搜索索引…",
    index_part_failed: "无法加载此搜索所需的部分索引：是否处于离线状态？",
    tags_loading: "正在加载筛选条件…",
    tags_failed: "无法加载筛选条件：是否处于离线状态？",
    title_order_loading: "正在加载标题排序…",
    title_order_failed: "无法加载标题排序：是否处于离线状态？",
    count_pending: "…",
    count_pending_label: "正在计数…",
    offline_save: |size| format!("保存以供离线使用（最多 {size}）"),
    offline_saving: |percent| format!("正在保存以供离线使用：{percent}%"),
    offline_saved: "已保存，可离线使用",
    offline_failed: "离线保存已中断：请联网后重试",
    related_heading: "语义相关",
    related_note: "与搜索含义相近的论文，不一定包含相同的词语。",
    related_via: "相关词：",
    related_counted: |n| format!("筛选中的计数为含义最接近的 {n} 篇论文。"),
    like_starred: "更多类似论文",
    share_list: "分享列表",
    share_with_notes: "包含我的笔记",
    share_list_note: "列表保存在链接的 # 之后的部分，浏览器从不把这部分发送给服务器。",
    shared_heading: |n| format!("分享的列表：{n} 篇论文"),
    shared_stale: |k, ids| format!("其中 {k} 篇不在本浏览器中：{ids}。"),
    add_to_my_list: "加入我的列表",
    shared_added: |added, joined, total| {
        format!("已加入：新增 {added} 篇，合并 {joined} 条笔记；你的列表共 {total} 篇。")
    },
    show_all_papers: "显示全部论文",
    like_heading: "与阅读列表相似",
    like_note: "与已加星标的论文在含义和用词上相近的论文。",
    clear_all: "清除搜索和筛选",
    results_label: "论文",

    filters: "筛选",
    show_more: |n| format!("再显示 {n} 项"),
    show_fewer: "收起",
    facet_name: FacetKind::name_zh,

    reading_list: "阅读列表",
    starred: "★ 已加星标",
    export_list: "导出列表",
    import: "导入…",
    in_memory: "此浏览器不允许本页面保存数据：星标和笔记只保留到页面关闭。请导出列表以便保存。",
    kept_aside: |error, aside| {
        format!("无法读取此浏览器中保存的阅读列表（{error}）。它原样保存在键 “{aside}” 下；新的星标将开始一个新列表。")
    },
    imported: |added, joined, total| {
        format!("已导入：新增 {added} 篇，合并 {joined} 条笔记；列表共 {total} 篇。")
    },
    elsewhere: |n| format!("其中 {n} 篇不在本语料中（已保留，不显示）。"),
    import_failed: |e| format!("未导入任何内容：{e}。"),
    file_unreadable: "无法读取该文件",
    file_code_unfetched: "本页面读写阅读列表文件的部分在第一次使用时下载，而页面当前离线；请联网后重试",
    export_failed: |e| format!("未导出任何内容：{e}。"),
    import_error: |e| match e {
        ImportError::NotJson { line, column } => {
            format!("不是有效的 JSON（第 {line} 行第 {column} 列）")
        }
        ImportError::Shape { line, column } => {
            format!("不是阅读列表的格式（第 {line} 行第 {column} 列）")
        }
        ImportError::OtherFormat(f) => format!("这不是阅读列表（其格式为“{f}”）"),
        ImportError::Newer(v) => format!("此阅读列表由更新的版本写入（格式 {v}）"),
        ImportError::MissingId => "列表中有一篇论文缺少 id".into(),
    },
    star: "加星标：加入阅读列表",
    unstar: "已加星标（点击取消）",
    confirm_unstar: "取消此论文的星标并删除你的笔记？",
    note: "笔记",
    note_label: "你对这篇论文的笔记（保存在此浏览器中）",

    link_labels: ["页面", "PDF", "代码"],
    show_full: "显示完整摘要",
    show_less: "收起",
    similar_papers: "相似论文",
    loading_abstract: "正在载入摘要……",
    no_abstract: "此条目没有摘要：可按标题、作者和出处检索。",
    loading_title: "正在载入标题……",
    shares: " — 共同词：",
    tags: "标签",

    share: "分享 / 嵌入",
    link_to_view: "当前视图的链接",
    copy: "复制",
    embed_in_wiki: "嵌入到 wiki 页面",
    copy_snippet: "复制代码",
    embed_note: "其中的 script 行会让框架随内容调整高度；不允许脚本的地方可以省略。",
    embed_element: "或者作为元素嵌入（在严格的内容安全策略下也可用）",
    embed_element_note: "该元素会自动调整高度，用属性反映读者当前的视图，页面脚本也可以设置视图（见使用指南的 Host API 一节）。",

    shortcuts: "快捷键",
    shortcuts_title: "键盘快捷键",
    shortcuts_tooltip: "键盘快捷键（?）",
    close: "关闭",
    shortcut_actions: [
        "跳到搜索框",
        "清空搜索（或关闭此列表）",
        "下一篇论文",
        "上一篇论文",
        "打开标题获得焦点的论文",
        "为获得焦点的论文加星标或取消",
        "显示或隐藏快捷键列表",
    ],

    themes: ["主题：跟随系统", "主题：浅色", "主题：深色"],

    topic_map: "主题地图",
    loading_map: "正在载入地图……",
    map_region: "地图区域：",
    papers_count: |n| format!(" · {n} 篇论文"),
    clear_region: "清除区域",
    colour_by: "着色依据：",
    map_hint: "拖出一个方框，只保留框内的论文；点击圆点打开对应论文。",
    map_label: "主题地图：论文按内容排布；高亮的是当前结果",
    map_colours: "颜色",
    other: "其他",

    update_ready: "本浏览器已准备好新版本。",
    reload: "重新加载",

    crash_title: "出错了",
    crash_text:
        "浏览器中的检索工具停止了运行。重新加载页面即可重启；你的星标和笔记都会保留。出错信息：",
    crash_reload: "重新加载页面",
    load_failed: "论文列表未能加载。重新加载页面会再试一次。出错信息：",

    open_list: "打开列表…",
    open_list_hint: "浏览你自己的论文列表：BibTeX、RIS、CSL-JSON、JSON、JSON Lines、CSV 或纯摘要文本。\
                     也可以把文件拖到页面上。列表只保存在本浏览器中。",
    open_stage: |stage| match stage {
        OpenStage::Reading => "正在读取文件",
        OpenStage::Compiling => "正在读取论文、添加标签并建立索引",
        OpenStage::Packing => "正在生成语义文件并打包",
        OpenStage::Storing => "正在保存到本浏览器",
    },
    open_cancel: "取消",
    open_failed: |e| match e {
        OpenError::Source { message } => format!("无法将此文件读取为论文列表：{message}"),
        OpenError::Format { name } => {
            format!("{name}：本页面不能读取这种文件（.bib、.ris、.json、.jsonl、.csv 或 .txt）。")
        }
        OpenError::TooLarge { bytes, limit } => format!(
            "此文件为 {:.0} MB，超过页面可编译的 {:.0} MB。请改用命令行构建：CORPUS_DIR=<所在文件夹> ./dev build",
            *bytes as f64 / 1e6,
            *limit as f64 / 1e6
        ),
        OpenError::Fetch { url } => format!(
            "无法获取 {url}：服务器离线，或不允许其他网站读取（缺少 CORS 头）。请下载该文件后在此打开。"
        ),
        OpenError::Http { url, status } => format!("{url} 返回了 HTTP {status}。"),
        OpenError::Storage { reason } => {
            format!("浏览器未能保存此列表（{reason}）。请释放一些空间，或允许本网站存储数据，然后重试。")
        }
        OpenError::NotPublishable => {
            "此列表由本页面的旧版本保存：请重新打开其文件，再下载它的浏览器。".into()
        }
        OpenError::Unfetched => {
            "无法获取本页面用于打开列表的部分：它在第一次打开列表时下载，而页面当前离线。请联网后重试。".into()
        }
    },
    your_lists: |n| format!("你的列表（{n}）"),
    builtin_list: "内置列表",
    kept_list_line: |papers, size, date| format!("{papers} 篇论文 · {size} · {date}"),
    opened_summary: |records, papers, bare, skipped| {
        format!("{records} 条记录：{papers} 篇论文，其中 {bare} 篇没有摘要；跳过 {skipped} 条")
    },
    opened_said: |n| format!("读取时修复或跳过的条目（{n}）"),
    delete_list: |name| format!("删除 {name}"),
    publish_list: "下载此浏览器",
    publish_list_hint: |name| {
        format!("{name}：可直接托管的网站（zip）。把其中的文件复制到任一由网页服务器提供的文件夹即可")
    },
    publishing: "正在生成网站…",
    list_not_kept: "此链接指向在另一个浏览器中打开的列表：本浏览器中没有保存。",
    list_files_gone: "此列表的文件已不在本浏览器中（网站数据已被清除）：请重新打开它的文件以保存。",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_language_we_have_wins() {
        assert_eq!(Lang::from_preferences(["zh-CN", "en-US"]), Lang::Zh);
        assert_eq!(Lang::from_preferences(["de-DE", "zh_TW", "en"]), Lang::Zh);
        assert_eq!(Lang::from_preferences(["en-GB", "zh-CN"]), Lang::En);
        assert_eq!(Lang::from_preferences(["fr", "de"]), Lang::En);
        assert_eq!(Lang::from_preferences([]), Lang::En);
        assert_eq!(Lang::from_preferences(["", "ZH-hk"]), Lang::Zh);
    }

    #[test]
    fn both_languages_say_everything() {
        for s in [&EN, &ZH] {
            for text in [s.search_placeholder, s.reading_list, s.topic_map, s.other] {
                assert!(!text.trim().is_empty());
            }
            assert!((s.status)(3, 57).contains("57"));
            assert!((s.imported)(1, 2, 3).contains('3'));
        }
        assert_ne!((EN.status)(1, 2), (ZH.status)(1, 2));
    }
}
