//! Argument definitions (clap derive). Engine types never derive clap traits: `run.rs`
//! converts these into engine options in one place.

use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// `zhiwen --version`: the crate version and the commit it was built from (build.rs).
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("ZHIWEN_COMMIT"), ")");

#[derive(Parser, Debug)]
#[command(name = "zhiwen", version = VERSION, about = "指纹 Zhiwen: find which of your works were copied into a suspect text")]
pub struct Args {
    /// Corpus store (SQLite). Default: the user's data folder, e.g. ~/.local/share/zhiwen/corpus.sqlite.
    #[arg(long, global = true, env = "ZHIWEN_DB", value_name = "PATH")]
    pub db: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Import files and folders (recursive) into the corpus.
    Import {
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Never draw a progress bar.
        #[arg(long)]
        quiet: bool,
        /// Documents per transaction: a crash or cancel keeps every committed batch.
        #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..))]
        batch: u32,
    },
    /// Check suspect files or folders against the corpus.
    Check {
        /// Files, folders, or web pages (http:// or https:// URLs).
        #[arg(required = true, value_name = "PATH|URL")]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        out: ReportArgs,
        /// Also compare the suspects with each other: each pair that shares text, with its
        /// passages (in the tables, the JSON's "pairs" and the HTML reports).
        #[arg(long)]
        among: bool,
        #[command(flatten)]
        check: CheckArgs,
        #[command(flatten)]
        web: WebArgs,
    },
    /// The findings library: every check of a file or web page, kept with what was received.
    Findings {
        #[command(subcommand)]
        action: Option<FindingsAction>,
        #[arg(long)]
        json: bool,
        /// Only findings that copy this corpus document (its id, as `list` shows).
        #[arg(long, value_name = "ID")]
        source: Option<u32>,
        /// Only findings checked on or after this day (YYYY-MM-DD, UTC).
        #[arg(long, value_name = "DATE")]
        since: Option<String>,
    },
    /// Write a finding's evidence package (WACZ: its captures as WARC files, the text, the
    /// match report, every file's SHA-256, optionally an RFC 3161 timestamp), or
    /// `evidence verify FILE` to check one.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Evidence {
        #[command(subcommand)]
        action: Option<EvidenceAction>,
        #[arg(value_name = "ID", required = true)]
        id: Option<i64>,
        #[arg(long, value_name = "FILE.wacz", required = true)]
        out: Option<PathBuf>,
        /// The RFC 3161 time-stamping authority to timestamp the package with (its URL);
        /// without one the package says it is not timestamped.
        #[arg(long, value_name = "URL")]
        tsa: Option<String>,
    },
    /// Watch lists: sites and pages checked again on a schedule (run --due from cron).
    Watch {
        #[command(subcommand)]
        action: WatchAction,
    },
    /// The picture of the copies found: per work, per site and per day.
    Stats {
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        /// CSV tables (works, sites, days one after another, UTF-8 with BOM).
        #[arg(long)]
        csv: bool,
        /// Also write the summary report (HTML with a chart) to this file.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
    },
    /// A takedown notice for findings of one site, printed or written with its evidence.
    Notice {
        #[arg(required = true, value_name = "FINDING_ID")]
        ids: Vec<i64>,
        /// dmca: 17 U.S.C. 512(c)(3); cn: 通知书 (信息网络传播权保护条例 第十四条).
        #[arg(long, value_parser = ["dmca", "cn"], default_value = "dmca")]
        kind: String,
        /// Write the notice and each finding's evidence package into this folder.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Look up where to send it: the site's own contact/DMCA/版权 page (linked from its
        /// home page) and the hosting network's abuse contact in RDAP; shown in the notice
        /// as suggested recipients.
        #[arg(long)]
        find_recipients: bool,
        /// The RDAP service asked for the network's abuse contact (`<URL>/ip/<address>`).
        #[arg(long, value_name = "URL", env = "ZHIWEN_RDAP", default_value = zhiwen::engine::web::contacts::DEFAULT_RDAP_BASE)]
        rdap: String,
        #[command(flatten)]
        fetch: FetchArgs,
    },
    /// The rights holder named in notices: shown, or set with the options given.
    Holder {
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        address: Option<String>,
        #[arg(long)]
        email: Option<String>,
        #[arg(long)]
        phone: Option<String>,
        /// Who signs for the rights holder.
        #[arg(long)]
        signatory: Option<String>,
    },
    /// Works (books, columns): their titles, authors and chapters; edit and regroup them.
    Works {
        #[command(subcommand)]
        action: Option<WorksAction>,
        #[arg(long, global = true)]
        json: bool,
    },
    /// Groups of near-duplicate documents in the corpus (the same text, lightly edited).
    Clusters {
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        /// One row per member: group, document id, Jaccard to the group's first, title, path.
        #[arg(long)]
        csv: bool,
        /// Least character 5-shingle Jaccard of two documents joined (minhash).
        #[arg(long, value_name = "J", default_value_t = 0.8)]
        threshold: f64,
        /// minhash: shingles, LSH bands, exact Jaccard; simhash: jieba TF-IDF keywords, within 3 bits.
        #[arg(long, value_parser = ["minhash", "simhash"], default_value = "minhash")]
        method: String,
    },
    /// Write the corpus (documents, texts, stored windows) as Parquet for the Spark job.
    Export {
        /// A new or empty folder that receives manifest.json, documents/, texts/, windows/.
        #[arg(long, value_name = "DIR", required = true)]
        parquet: PathBuf,
    },
    /// Fingerprint suspect files as a check would and write them as Parquet for the Spark job.
    Fingerprint {
        /// A new or empty folder that receives manifest.json, documents/, texts/, windows/.
        #[arg(long, value_name = "DIR", required = true)]
        parquet: PathBuf,
        /// Files or folders.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
    },
    /// Reports from a Spark run (spark/): the same JSON, HTML and CSV as `check`.
    Report {
        /// The run's folder (OUT/<run id>, holding manifest.json, passages/, …).
        #[arg(long = "from-parquet", value_name = "RUN_DIR", required = true)]
        from_parquet: PathBuf,
        /// The corpus export, if not where the run's manifest says (copied from a cluster).
        #[arg(long, value_name = "DIR")]
        corpus: Option<PathBuf>,
        /// The suspects' export, if not where the run's manifest says.
        #[arg(long, value_name = "DIR")]
        suspects: Option<PathBuf>,
        #[command(flatten)]
        out: ReportArgs,
    },
    /// Print the text Zhiwen reads from files, as import and check read it: pages of HTML,
    /// chapters of ebooks, and images and scanned PDFs read by OCR. Several files are each
    /// headed `==> PATH <==`.
    Text {
        /// Files.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
    },
    /// List the documents in the corpus.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Check the store: SQLite's integrity check, and that every document has all its windows.
    Doctor,
    /// Find copies of your works on the web: each chapter's rarest phrases sent to a search
    /// engine (SearXNG) as exact-phrase queries, every result checked, and each site found
    /// copying learned (its contents pages, sitemaps and own search) so chapters the search
    /// engine never indexed are found too. Only verified copies are reported.
    Discover(DiscoverArgs),
    /// Alerts after each watch run: one digest of new copies, copies back after a takedown and
    /// copies still online after a notice, by e-mail (SMTP) and to a webhook.
    Alerts {
        #[command(subcommand)]
        action: AlertsAction,
    },
    /// Sites licensed to carry your works: their copies are counted apart as licensed,
    /// never put in notices.
    Allow {
        #[command(subcommand)]
        action: AllowAction,
    },
    /// Remove documents by id or by path.
    Remove {
        #[arg(required = true, value_name = "ID|PATH")]
        targets: Vec<String>,
    },
    /// Open the desktop app (the default without a subcommand), checking PATHs if given.
    Gui {
        #[arg(value_name = "PATH")]
        paths: Vec<PathBuf>,
    },
    /// Measure detection quality on generated pirated copies of real text (see README).
    Eval(EvalArgs),
    /// Measure speed and scale; prints one JSON line per measurement (see README).
    Bench(BenchArgs),
    /// Print the shell completion script for SHELL (packaging; see scripts/release).
    #[command(hide = true)]
    Completions {
        #[arg(value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Write the man pages (zhiwen.1 and one per sub-command) into DIR (packaging).
    #[command(hide = true)]
    Man {
        #[arg(value_name = "DIR")]
        dir: PathBuf,
    },
}

/// Where the results of a check go, beside the tables (`check`, `report --from-parquet`).
#[derive(clap::Args, Debug, Clone)]
pub struct ReportArgs {
    /// Print the JSON contract (see README) instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Write a self-contained HTML report: a file for one suspect; for several, or when
    /// PATH ends in '/' or is a folder, one report per suspect plus index.html there.
    #[arg(long, value_name = "PATH")]
    pub report: Option<PathBuf>,
    /// Write one CSV row per passage (UTF-8 with BOM) to this file.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write PAN text-alignment XML, one file per suspect, into this folder.
    #[arg(long, value_name = "DIR")]
    pub pan: Option<PathBuf>,
}

#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// The evaluation data folder (layout of ../shared/data).
    #[arg(long, default_value = "../shared/data", value_name = "DIR")]
    pub data: PathBuf,
    /// Index sizes to measure (stored fingerprints), comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1000000,10000000")]
    pub index_sizes: Vec<usize>,
    /// Windows the check corpus is padded to.
    #[arg(long, default_value_t = 10_000_000)]
    pub check_windows: usize,
    /// Times the check (and each of its steps) is run; the median is reported.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub check_runs: u32,
    /// Run only these measurements: import, index, check, open, clusters, watch, ocr
    /// (comma-separated; watch and ocr run only when named).
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    /// The watch benchmark: how many sites (each a loopback host of its own).
    #[arg(long, default_value_t = 200)]
    pub watch_sites: usize,
    /// The watch benchmark: sites checked at once.
    #[arg(long, default_value_t = 200)]
    pub watch_parallel: usize,
    /// The watch benchmark: chapters per site (the last one posted only before the second run).
    #[arg(long, default_value_t = 11)]
    pub watch_chapters: usize,
    /// The watch benchmark: every this many sites, one chapter is a page of 15 MiB (0: none).
    #[arg(long, default_value_t = 40)]
    pub watch_big_every: usize,
    /// Folder for the temporary stores (default: the system's temporary folder).
    #[arg(long, value_name = "DIR")]
    pub scratch: Option<PathBuf>,
}

#[derive(clap::Args, Debug, Clone)]
pub struct EvalArgs {
    /// The evaluation data folder (layout of ../shared/data).
    #[arg(long, default_value = "../shared/data", value_name = "DIR")]
    pub data: PathBuf,
    /// Write summary.json, cases.jsonl and report.md here.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Cases per generated kind.
    #[arg(long, default_value_t = 40)]
    pub cases: usize,
    #[arg(long, default_value_t = 20261121)]
    pub seed: u64,
    /// Skip the reports on real data (editions, abridgements, English answers).
    #[arg(long)]
    pub no_real: bool,
    /// Skip the kinds whose suspects are pictures read by OCR (they take minutes).
    #[arg(long)]
    pub no_ocr: bool,
    /// Instead of the kinds, measure translated copies on real translations
    /// (`en-translations/` against all of `zh-classics/`, `en-gutenberg/` as negatives).
    #[arg(long)]
    pub translations: bool,
    /// With --translations: also score the candidates by multilingual sentence embeddings
    /// (bitext mining) and search 聊斋志异 by embeddings alone, side by side with the
    /// dictionary (needs the e5 model: tools/e5-model; takes ~15 min on 2 cores).
    #[arg(long, requires = "translations")]
    pub embeddings: bool,
    #[command(flatten)]
    pub fingerprint: FingerprintArgs,
    #[command(flatten)]
    pub check: CheckArgs,
}

/// Fingerprinting parameters; only for a new store or an evaluation (a store keeps its own).
#[derive(clap::Args, Debug, Clone)]
pub struct FingerprintArgs {
    /// Tokens per window.
    #[arg(long)]
    pub window: Option<usize>,
    /// Tokens between stored windows.
    #[arg(long)]
    pub step: Option<usize>,
    /// Tokens per simhash feature.
    #[arg(long)]
    pub ngram: Option<usize>,
    /// How features vote: by their rarity (default) or uniformly (stores made before 0.2).
    #[arg(long, value_parser = ["rarity", "uniform"])]
    pub weighting: Option<String>,
    /// Where windows start: at content-defined anchors on both sides (default), or every
    /// step stored and every token queried (stores made before anchors).
    #[arg(long, value_parser = ["winnowed", "every-step"])]
    pub anchoring: Option<String>,
    /// What tokenizing undoes: disguises too (invisible characters, look-alike letters,
    /// noise letters, pinyin-written passages; default), disguises and look-alike Han
    /// characters (形近字 such as 己/已: one token per set, at the cost of homophone swaps of
    /// those characters), or the fixed rules only (stores made before disguises were undone).
    #[arg(long, value_parser = ["undisguised", "lookalikes", "plain"])]
    pub normalizing: Option<String>,
}

#[derive(clap::Subcommand, Debug, Clone)]
pub enum EvidenceAction {
    /// Check an evidence package: every file's hash, every WARC record's digests, the
    /// timestamp; says what holds and where a changed byte is (exit 1 if anything fails).
    Verify {
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
}

#[derive(clap::Subcommand, Debug, Clone)]
pub enum FindingsAction {
    /// Remove findings by id.
    Rm {
        #[arg(required = true, value_name = "ID")]
        ids: Vec<i64>,
    },
    /// Record that a takedown notice was sent for these findings' pages.
    NoticeSent {
        #[arg(required = true, value_name = "ID")]
        ids: Vec<i64>,
        /// Who it was sent to (the site's agent, an email address).
        #[arg(long, value_name = "WHOM")]
        to: String,
        /// The day it was sent (YYYY-MM-DD, UTC); today by default.
        #[arg(long, value_name = "DATE")]
        on: Option<String>,
    },
}

#[derive(clap::Args, Debug, Clone)]
pub struct DiscoverArgs {
    /// Works to look for: ids or titles (as `works list` shows).
    #[arg(value_name = "WORK", required_unless_present = "all")]
    pub works: Vec<String>,
    /// Look for every work of the corpus.
    #[arg(long, conflicts_with = "works")]
    pub all: bool,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Least time between two queries to the search engine.
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0)]
    pub query_interval: f64,
    /// Only results this recent.
    #[arg(long, value_parser = ["day", "week", "month", "year"])]
    pub time_range: Option<String>,
    /// Pages fetched per site at most; reaching it is reported.
    #[arg(long, value_name = "N", default_value_t = 300)]
    pub max_site_pages: usize,
    /// Time spent on one site at most; reaching it is reported.
    #[arg(long, value_name = "SECONDS", default_value_t = 600.0)]
    pub max_site_time: f64,
    /// Check only the search results; do not learn the sites they lead to.
    #[arg(long)]
    pub no_site_learning: bool,
    /// Also fetch addresses on loopback, private and link-local networks (refused by
    /// default: a planted search result must not make Zhiwen read your intranet).
    #[arg(long)]
    pub allow_private: bool,
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub check: CheckArgs,
    #[command(flatten)]
    pub fetch: FetchArgs,
}

#[derive(clap::Subcommand, Debug, Clone)]
pub enum AlertsAction {
    /// Set where alerts go (options not given keep their value).
    Set {
        /// The SMTP server (host name).
        #[arg(long, value_name = "HOST")]
        smtp_host: Option<String>,
        #[arg(long, value_name = "PORT")]
        smtp_port: Option<u16>,
        /// Upgrade the SMTP connection with STARTTLS (required once set).
        #[arg(long)]
        starttls: Option<bool>,
        #[arg(long, value_name = "USER")]
        smtp_user: Option<String>,
        /// The environment variable holding the SMTP password (never stored).
        #[arg(long, value_name = "VAR")]
        smtp_password_env: Option<String>,
        #[arg(long, value_name = "ADDRESS")]
        from: Option<String>,
        /// Who receives the e-mails (repeat for several).
        #[arg(long, value_name = "ADDRESS")]
        to: Vec<String>,
        /// A URL that receives each digest as a JSON POST ({"text": …, "digest": …}).
        #[arg(long, value_name = "URL")]
        webhook: Option<String>,
        /// List copies still online this many days after their notice (0: never).
        #[arg(long, value_name = "DAYS")]
        overdue_days: Option<i64>,
        /// Stop sending e-mails.
        #[arg(long)]
        no_email: bool,
        /// Stop posting to the webhook.
        #[arg(long)]
        no_webhook: bool,
        /// Show each digest as a desktop notification (on or off; needs a desktop session's D-Bus).
        #[arg(long, value_name = "on|off", value_parser = clap::builder::BoolishValueParser::new())]
        desktop: Option<bool>,
    },
    /// Show where alerts go.
    Show {
        #[arg(long)]
        json: bool,
    },
    /// Send a sample digest on every channel set, to check them.
    Test,
}

#[derive(clap::Subcommand, Debug, Clone)]
pub enum AllowAction {
    /// Allow a host (its subdomains too) or a URL prefix to carry the works (or one work).
    Add {
        #[arg(value_name = "HOST|URL_PREFIX")]
        pattern: String,
        /// Only this work (its id or title).
        #[arg(long, value_name = "WORK")]
        work: Option<String>,
        #[arg(long, default_value = "")]
        note: String,
    },
    /// List the allowed sites.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Remove allowed sites by id.
    Rm {
        #[arg(required = true, value_name = "ID")]
        ids: Vec<i64>,
    },
}

#[derive(clap::Subcommand, Debug, Clone)]
pub enum WatchAction {
    /// Watch a site or page (the same URL again changes its settings), or with --discover
    /// search the web for works on a schedule.
    Add {
        /// The site or page; with --discover, the works to look for (none: every work).
        #[arg(value_name = "URL|WORK")]
        targets: Vec<String>,
        /// A scheduled discovery of the works given (see `discover`).
        #[arg(long)]
        discover: bool,
        #[command(flatten)]
        search: SearchArgs,
        /// A name for the site.
        #[arg(long, default_value = "")]
        label: String,
        /// The URL is a contents page: check the chapters it lists.
        #[arg(long)]
        follow: bool,
        /// How often: hourly, daily, weekly, or a number of minutes (5m, at least), hours (6h) or days (2d).
        #[arg(long, default_value = "daily")]
        every: String,
    },
    /// List the watches with their last run and when they are due.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Stop watching (the copies and findings found stay).
    Rm {
        #[arg(required = true, value_name = "ID")]
        ids: Vec<i64>,
    },
    /// Run watches now: all, those given, or with --due only those due, then exit.
    Run {
        #[arg(value_name = "ID")]
        ids: Vec<i64>,
        #[arg(long)]
        due: bool,
        #[arg(long)]
        json: bool,
        /// The time the run counts as (unix seconds or YYYY-MM-DD); for testing schedules.
        #[arg(long, hide = true)]
        now: Option<String>,
        /// Discoveries may fetch addresses on loopback, private and link-local networks.
        #[arg(long)]
        allow_private: bool,
        /// Stop after this long: the pages checked so far are kept, the runs stopped and the
        /// watches not started stay due.
        #[arg(long, value_name = "SECONDS")]
        budget: Option<f64>,
        /// Sites checked at once (each with its own thread and connection to the store; a
        /// host is still asked one request at a time). More sites at once fetch more pages a
        /// second and take more memory (see `zhiwen bench --only watch`).
        #[arg(long, default_value_t = zhiwen::engine::web::watch::PARALLEL_SITES, value_name = "N")]
        parallel: usize,
        #[command(flatten)]
        check: CheckArgs,
        #[command(flatten)]
        web: WebArgs,
    },
}

/// How web pages are gathered (for URL suspects).
#[derive(clap::Args, Debug, Clone)]
pub struct WebArgs {
    /// Treat each URL as a table of contents: check the same-site chapters it links to
    /// (over all the pages the contents continue on).
    #[arg(long)]
    pub follow: bool,
    /// Fetch at most this many pages in all; chapters left unchecked are reported.
    #[arg(long, value_name = "N", default_value_t = 500)]
    pub max_pages: usize,
    /// Fetch the pages named here as a browser would, even where robots.txt shuts Zhiwen
    /// out (for evidence of a known page); recorded in the capture. Links followed with
    /// --follow and a chapter's next pages still obey robots.txt.
    #[arg(long)]
    pub named_as_browser: bool,
    #[command(flatten)]
    pub fetch: FetchArgs,
}

/// How each web page is fetched.
#[derive(clap::Args, Debug, Clone)]
pub struct FetchArgs {
    /// Wait at least this long between two requests to one site (or its robots.txt
    /// Crawl-delay, if longer).
    #[arg(long, value_name = "SECONDS", default_value_t = 1.0)]
    pub delay: f64,
    /// Give up on a page after this long.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    pub timeout: f64,
    /// Refuse pages larger than this (after decompression).
    #[arg(long, value_name = "MIB", default_value_t = 16)]
    pub max_page_mib: u64,
    /// A proxy (http://host:port), or "none"; by default the environment's
    /// HTTPS_PROXY/HTTP_PROXY/ALL_PROXY.
    #[arg(long, value_name = "URL")]
    pub proxy: Option<String>,
    /// Render each page in headless Chromium too: a full-page screenshot, the DOM after
    /// scripts and the visible text go into the capture, and the visible text is checked.
    #[arg(long)]
    pub render: bool,
    /// Chromium to render with (a path or command name); by default `chromium`,
    /// `chromium-browser` or `google-chrome` on PATH.
    #[arg(long, value_name = "PATH", env = "ZHIWEN_CHROMIUM")]
    pub chromium: Option<std::path::PathBuf>,
}

/// How discovery searches and how far it goes (`discover`, `watch add --discover`).
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// The SearXNG instance to query (its JSON API must be on: `json` in search.formats).
    #[arg(long, value_name = "URL", env = "ZHIWEN_SEARX")]
    pub searx: Option<String>,
    /// Exact phrases searched per chapter.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub per_chapter: u32,
    /// Queries sent per run at most (spread over every chapter).
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub max_queries: usize,
    /// Every newly found pirate site becomes a site watch of its own.
    #[arg(long)]
    pub watch_new_sites: bool,
}

#[derive(clap::Args, Debug, Clone)]
pub struct CheckArgs {
    /// Largest Hamming distance (bits of 64) at which two windows match.
    #[arg(long, value_name = "BITS")]
    pub max_distance: Option<u32>,
    /// Drop copied regions shorter than this many characters (Han characters, letters, digits).
    #[arg(long, value_name = "CHARS")]
    pub min_passage: Option<usize>,
    /// Drop copied regions with less verified shared text than this, in bits (a Han
    /// character is 4.2, an English word 4-16 by its rarity).
    #[arg(long, value_name = "BITS")]
    pub min_evidence: Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Args::command().debug_assert();
    }
}

#[derive(Subcommand, Debug)]
pub enum WorksAction {
    /// Every work: id, title, authors, language, chapters (the default).
    List,
    /// One work with its chapters in order.
    Show {
        #[arg(value_name = "WORK_ID")]
        id: u32,
    },
    /// Change a work's fields (import leaves an edited work's fields alone from then on).
    Set {
        #[arg(value_name = "WORK_ID")]
        id: u32,
        #[arg(long)]
        title: Option<String>,
        /// An author; repeat for several (`--author ""` clears them).
        #[arg(long = "author", value_name = "NAME")]
        authors: Vec<String>,
        /// A language tag: zh, en, …
        #[arg(long)]
        language: Option<String>,
        /// The rights holder.
        #[arg(long)]
        holder: Option<String>,
    },
    /// Move every chapter of one work into another (after its last chapter).
    Merge {
        #[arg(value_name = "FROM_WORK_ID")]
        from: u32,
        #[arg(value_name = "INTO_WORK_ID")]
        into: u32,
    },
    /// Move documents (ids, as `list` shows) to a work, or to a new work with --new.
    Move {
        #[arg(required = true, value_name = "DOC_ID")]
        docs: Vec<u32>,
        /// The work that receives them.
        #[arg(long, value_name = "WORK_ID", conflicts_with = "new", required_unless_present = "new")]
        to: Option<u32>,
        /// Make a new work with this title for them.
        #[arg(long, value_name = "TITLE")]
        new: Option<String>,
    },
}
