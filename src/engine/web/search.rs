//! Search engines as a source of candidate pages: exact-phrase queries in, result URLs out.
//!
//! [`SearchEngine`] is the small trait discovery talks to; [`Searx`] speaks the JSON API of
//! SearXNG, the self-hosted metasearch engine (`GET {base}/search?q=…&format=json&pageno=K`,
//! answering `results[].url/title/content` and `unresponsive_engines`). Another back end (a
//! paid search API) is one more implementation of the trait.
//!
//! Politeness to the engine is the client's job: queries are spaced by
//! [`SearchOptions::min_interval`], and a `429 Too Many Requests` or `503` is waited out
//! (the `Retry-After` header, else a doubling back-off) a few times before the query is
//! given up and reported. Nothing here panics on what a server sends.

use crate::Result;
use crate::engine::web::fetch::ProxySetting;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// How recent the results must be (SearXNG's `time_range`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeRange {
    Day,
    Week,
    Month,
    Year,
}

impl TimeRange {
    pub fn as_str(self) -> &'static str {
        match self {
            TimeRange::Day => "day",
            TimeRange::Week => "week",
            TimeRange::Month => "month",
            TimeRange::Year => "year",
        }
    }

    /// The narrowest range that still covers `secs` since the last look.
    pub fn covering(secs: i64) -> TimeRange {
        if secs <= 86_400 {
            TimeRange::Day
        } else if secs <= 7 * 86_400 {
            TimeRange::Week
        } else if secs <= 31 * 86_400 {
            TimeRange::Month
        } else {
            TimeRange::Year
        }
    }
}

/// One query: an exact phrase (sent in double quotes) and which page of results.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchQuery {
    pub phrase: String,
    /// Results page, from 1.
    pub page: u32,
    pub time_range: Option<TimeRange>,
}

/// One result as the engine gave it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchHit {
    pub url: String,
    pub title: String,
    pub snippet: String,
}

/// The answer to one query: its results and the engines that did not answer (SearXNG
/// reports them; they are worth telling the user, since results may be missing).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchAnswer {
    pub hits: Vec<SearchHit>,
    pub unresponsive: Vec<String>,
}

/// Why a query gave no answer. Never fatal to a discovery run: it is counted and reported.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SearchError {
    /// 429 or 503 even after waiting and retrying.
    #[error("{url}: the search engine is rate-limiting (HTTP {status}) after {tries} tries")]
    RateLimited { url: String, status: u16, tries: u32 },
    #[error("{url}: {reason}")]
    Failed { url: String, reason: String },
}

/// A search back end.
pub trait SearchEngine {
    /// Runs one query; waits as the engine's rate requires.
    fn search(&mut self, query: &SearchQuery) -> std::result::Result<SearchAnswer, SearchError>;
    /// A name for reports (`searxng at http://…`).
    fn describe(&self) -> String;
}

#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Least time between two queries to the engine.
    pub min_interval: Duration,
    /// Tries of one query while the engine answers 429/503.
    pub max_tries: u32,
    /// First wait after a 429/503 without `Retry-After` (doubled each time).
    pub backoff: Duration,
    /// Longest wait the client accepts from `Retry-After`.
    pub max_backoff: Duration,
    pub timeout: Duration,
    pub proxy: ProxySetting,
    /// SearXNG `engines` (comma-separated; empty: the instance's defaults).
    pub engines: String,
    /// SearXNG `language` (e.g. `zh-CN`; empty: the instance's default).
    pub language: String,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            min_interval: Duration::from_secs(2),
            max_tries: 4,
            backoff: Duration::from_secs(5),
            max_backoff: Duration::from_secs(120),
            timeout: Duration::from_secs(30),
            proxy: ProxySetting::Direct,
            engines: String::new(),
            language: String::new(),
        }
    }
}

/// A SearXNG instance through its JSON API (`search.formats` must include `json` in the
/// instance's `settings.yml`).
pub struct Searx {
    base: String,
    agent: ureq::Agent,
    opts: SearchOptions,
    last_query: Option<Instant>,
}

#[derive(Deserialize)]
struct SearxAnswer {
    #[serde(default)]
    results: Vec<SearxResult>,
    /// `[[engine, reason], …]`
    #[serde(default)]
    unresponsive_engines: Vec<serde_json::Value>,
}

#[derive(Deserialize)]
struct SearxResult {
    #[serde(default)]
    url: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    content: String,
}

impl Searx {
    /// A client for the instance at `base` (`http://localhost:8888`).
    pub fn new(base: &str, opts: SearchOptions) -> Result<Searx> {
        let parsed =
            url::Url::parse(base).map_err(|e| crate::Error::Parameter(format!("search engine URL {base}: {e}")))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(crate::Error::Parameter(format!("search engine URL {base}: only http and https")));
        }
        let proxy = opts.proxy.ureq_proxy()?;
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(opts.timeout))
            .http_status_as_error(false)
            .user_agent(crate::engine::web::fetch::user_agent().as_str())
            .proxy(proxy)
            .build()
            .into();
        Ok(Searx { base: base.trim_end_matches('/').to_string(), agent, opts, last_query: None })
    }

    fn wait_turn(&mut self) {
        if let Some(last) = self.last_query {
            let since = last.elapsed();
            if since < self.opts.min_interval {
                std::thread::sleep(self.opts.min_interval - since);
            }
        }
    }

    /// The request URL of `query` (the phrase in double quotes: an exact-phrase query).
    pub fn query_url(&self, query: &SearchQuery) -> String {
        let mut url = url::Url::parse(&format!("{}/search", self.base)).expect("checked in new");
        {
            let mut pairs = url.query_pairs_mut();
            pairs.append_pair("q", &format!("\"{}\"", query.phrase));
            pairs.append_pair("format", "json");
            pairs.append_pair("pageno", &query.page.max(1).to_string());
            if let Some(range) = query.time_range {
                pairs.append_pair("time_range", range.as_str());
            }
            if !self.opts.engines.is_empty() {
                pairs.append_pair("engines", &self.opts.engines);
            }
            if !self.opts.language.is_empty() {
                pairs.append_pair("language", &self.opts.language);
            }
        }
        url.to_string()
    }
}

impl SearchEngine for Searx {
    fn describe(&self) -> String {
        format!("SearXNG at {}", self.base)
    }

    fn search(&mut self, query: &SearchQuery) -> std::result::Result<SearchAnswer, SearchError> {
        let url = self.query_url(query);
        let failed = |reason: String| SearchError::Failed { url: url.clone(), reason };
        let mut wait = self.opts.backoff;
        for attempt in 1..=self.opts.max_tries.max(1) {
            self.wait_turn();
            let answer = self.agent.get(&url).header("Accept", "application/json").call();
            self.last_query = Some(Instant::now());
            let mut response = answer.map_err(|e| failed(format!("no answer: {e}")))?;
            let status = response.status().as_u16();
            if status == 429 || status == 503 {
                if attempt == self.opts.max_tries.max(1) {
                    return Err(SearchError::RateLimited { url, status, tries: attempt });
                }
                let asked = response
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.trim().parse::<u64>().ok())
                    .map(Duration::from_secs);
                std::thread::sleep(asked.unwrap_or(wait).min(self.opts.max_backoff));
                wait = (wait * 2).min(self.opts.max_backoff);
                continue;
            }
            if !(200..300).contains(&status) {
                return Err(failed(format!(
                    "HTTP {status}{} (is `json` in search.formats of the instance's settings.yml?)",
                    crate::engine::web::fetch::status_text(status)
                )));
            }
            let body = response
                .body_mut()
                .with_config()
                .limit(8 << 20)
                .read_to_vec()
                .map_err(|e| failed(format!("unreadable answer: {e}")))?;
            let parsed: SearxAnswer =
                serde_json::from_slice(&body).map_err(|e| failed(format!("not SearXNG's JSON: {e}")))?;
            return Ok(SearchAnswer {
                hits: parsed
                    .results
                    .into_iter()
                    .filter(|r| !r.url.is_empty())
                    .map(|r| SearchHit { url: r.url, title: r.title, snippet: r.content })
                    .collect(),
                unresponsive: parsed
                    .unresponsive_engines
                    .iter()
                    .map(|e| match e {
                        serde_json::Value::Array(parts) => parts
                            .iter()
                            .map(|p| p.as_str().map_or_else(|| p.to_string(), str::to_string))
                            .collect::<Vec<_>>()
                            .join(": "),
                        other => other.as_str().map_or_else(|| other.to_string(), str::to_string),
                    })
                    .collect(),
            });
        }
        unreachable!("the last try returns")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_url_quotes_the_phrase_and_carries_the_options() {
        let opts = SearchOptions { engines: "baidu,sogou".into(), language: "zh-CN".into(), ..Default::default() };
        let searx = Searx::new("http://127.0.0.1:8888/", opts).unwrap();
        let url = searx.query_url(&SearchQuery {
            phrase: "灵根育孕源流出".into(),
            page: 2,
            time_range: Some(TimeRange::covering(86_400)),
        });
        let parsed = url::Url::parse(&url).unwrap();
        let pairs: std::collections::HashMap<_, _> = parsed.query_pairs().into_owned().collect();
        assert_eq!(parsed.path(), "/search");
        assert_eq!(pairs["q"], "\"灵根育孕源流出\"");
        assert_eq!(pairs["format"], "json");
        assert_eq!(pairs["pageno"], "2");
        assert_eq!(pairs["time_range"], "day");
        assert_eq!(pairs["engines"], "baidu,sogou");
        assert_eq!(pairs["language"], "zh-CN");
        assert!(Searx::new("ftp://x", SearchOptions::default()).is_err());
        assert_eq!(TimeRange::covering(3 * 86_400), TimeRange::Week);
        assert_eq!(TimeRange::covering(20 * 86_400), TimeRange::Month);
    }
}
