//! Fetch: web pages as suspects, politely.
//!
//! A [`Fetcher`] is a small, well-behaved crawler over ureq (blocking, rustls, gzip and
//! brotli): it reads each site's robots.txt once (texting_robots, Google's rules) and never
//! requests what it forbids (but for a page the user names, when
//! [`FetchOptions::named_as_browser`] asks for it: [`Fetcher::fetch_named`]); it waits at least [`FetchOptions::delay`] (or the site's
//! `Crawl-delay`, if longer) between two requests to one host; it names itself in its
//! User-Agent; it follows at most [`MAX_REDIRECTS`] redirects itself, so each hop is checked
//! against robots.txt and the delay too; it gives up on a page after the timeout and refuses
//! bodies over the size cap (counted after decompression, so a gzip bomb stops at the cap).
//! It does not log in, keep cookies, run scripts or solve captchas. Every page comes with
//! its capture as a WARC file ([`warc`]): each request and response of it, redirects
//! included, byte for byte as on the wire ([`wire`] records them under ureq).
//!
//! [`crawl`] turns pages into suspects: a chapter split over pages is fetched page by
//! page, and a table of contents leads to its chapters.

use super::{render, warc, wire};
use crate::engine::check::{self, LONG_TEXT_BYTES};
use crate::{Error, Result};
use std::collections::HashMap;
use std::io::Read;
use std::time::{Duration, Instant};
use url::Url;

/// The name robots.txt groups are matched against (`User-agent: Zhiwen`).
pub const ROBOTS_NAME: &str = "Zhiwen";

/// Redirects followed for one page at most.
pub const MAX_REDIRECTS: usize = 10;

/// Where requests go through.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ProxySetting {
    /// `HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY` (and `NO_PROXY`) from the environment.
    #[default]
    Environment,
    /// Straight to the sites.
    Direct,
    /// This proxy (`http://host:port`, `socks5://host:port`).
    Url(String),
}

impl ProxySetting {
    /// The proxy ureq goes through, if any; only http(s) proxies (SOCKS is not built in).
    pub fn ureq_proxy(&self) -> Result<Option<ureq::Proxy>> {
        let proxy = match self {
            ProxySetting::Environment => ureq::Proxy::try_from_env(),
            ProxySetting::Direct => None,
            ProxySetting::Url(u) => Some(ureq::Proxy::new(u).map_err(|e| Error::Parameter(format!("proxy {u}: {e}")))?),
        };
        if proxy
            .as_ref()
            .is_some_and(|p| !matches!(p.protocol(), ureq::ProxyProtocol::Http | ureq::ProxyProtocol::Https))
        {
            return Err(Error::Parameter(format!(
                "proxy {self:?}: only http(s) proxies are supported (SOCKS is not built in)"
            )));
        }
        Ok(proxy)
    }

    /// A proxy as users write it: empty for the environment's, `none` for none, else its URL.
    pub fn parse(setting: &str) -> ProxySetting {
        match setting.trim() {
            "" => ProxySetting::Environment,
            "none" => ProxySetting::Direct,
            url => ProxySetting::Url(url.to_string()),
        }
    }
}

#[derive(Clone, Debug)]
pub struct FetchOptions {
    /// Least time between two requests to one host.
    pub delay: Duration,
    /// Longest time for one request, from connecting to the last byte.
    pub timeout: Duration,
    /// Largest body accepted, after decompression.
    pub max_bytes: u64,
    pub proxy: ProxySetting,
    pub user_agent: String,
    /// A page the user names (not one reached by following links) is fetched as a browser
    /// would fetch it, even where robots.txt shuts Zhiwen out; off by default, recorded in
    /// the capture. robots.txt still governs everything crawled: links followed, a
    /// chapter's next pages, contents pages, watches.
    pub named_as_browser: bool,
    /// Fetch only hosts that resolve to public addresses (every hop, after DNS): loopback,
    /// private, link-local and other special networks are refused. Discovery turns this on
    /// for addresses it did not get from the user; tests serving a fake web on loopback
    /// turn it off.
    pub public_only: bool,
    /// Render each chapter page in headless Chromium too ([`render`]): its screenshot, DOM
    /// after scripts and visible text go into the capture, and the visible text is what is
    /// checked. Without Chromium, pages are read by the plain fetch. Never for
    /// `public_only` fetches (the browser loads what the page asks for, unchecked).
    pub render: bool,
    /// Where Chromium is (a path or command name); `None`: see [`render::find_chromium`].
    pub chromium: Option<std::path::PathBuf>,
    /// Certificates (DER) trusted beside the Mozilla roots: an organisation's own
    /// authority, or a test's self-signed server.
    pub trusted_certificates: Vec<Vec<u8>>,
    /// A body longer than [`LONG_TEXT_BYTES`] is read only in this thread's long-text turn
    /// ([`check::hold_long_text_turn`]), which stays held (through decoding, checking and
    /// recording the page) until [`check::release_held_turn`]: many threads at once then
    /// hold one long page, not one each. With [`Fetcher::put_off_long_pages`], a page
    /// whose `Content-Length` says it is long while another thread has the turn is not read
    /// but put off ([`Error::PutOff`]). For callers that handle each page on the thread that
    /// fetched it and release the turn after it (watch runs).
    pub long_pages_take_turns: bool,
}

impl Default for FetchOptions {
    fn default() -> Self {
        FetchOptions {
            delay: Duration::from_secs(1),
            timeout: Duration::from_secs(30),
            max_bytes: 16 << 20,
            proxy: ProxySetting::Environment,
            user_agent: user_agent(),
            named_as_browser: false,
            public_only: false,
            render: false,
            chromium: None,
            trusted_certificates: Vec::new(),
            long_pages_take_turns: false,
        }
    }
}

/// `Zhiwen/0.1.0 (piracy and plagiarism checker; obeys robots.txt)`: the name and version
/// site owners see in their logs.
pub fn user_agent() -> String {
    format!("Zhiwen/{} (piracy and plagiarism checker; obeys robots.txt)", env!("CARGO_PKG_VERSION"))
}

/// One page as it was received.
#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    /// The URL asked for.
    pub url: String,
    /// The URL that answered, after redirects.
    pub final_url: String,
    pub status: u16,
    /// Response headers in the order received (names lower-case).
    pub headers: Vec<(String, String)>,
    /// The body as received (after content decoding: gzip and brotli undone).
    pub bytes: Vec<u8>,
    /// Unix seconds (UTC) when the response arrived.
    pub fetched_at: i64,
    /// The capture as a WARC/1.1 file (gzip per record): every request made for the page,
    /// redirects included, and its response as on the wire; see [`warc::capture`].
    pub warc: Vec<u8>,
    /// The page as Chromium rendered it, when rendering is on and worked
    /// ([`Fetcher::render_page`]); its records are in `warc` too.
    pub rendered: Option<render::Rendered>,
}

impl Page {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// An HTTP answer: status, headers (names lower-case), body (decoded), and the exchange
/// as on the wire.
type Answer = (u16, Vec<(String, String)>, Vec<u8>, wire::Exchange);

/// robots.txt of one origin: its rules, or none (no file: everything allowed).
struct Robots {
    rules: Option<texting_robots::Robot>,
}

/// Whether `ip` is an address of the public internet: not loopback, private (RFC 1918,
/// unique local), link-local, shared (CGNAT), documentation, benchmarking, multicast,
/// unspecified or reserved. IPv4-mapped IPv6 addresses are judged as IPv4.
pub fn is_public(ip: std::net::IpAddr) -> bool {
    use std::net::IpAddr;
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, c, _] = v4.octets();
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_documentation()
                || v4.is_multicast()
                || a == 0
                || (a == 100 && (64..128).contains(&b)) // shared address space (CGNAT)
                || (a == 192 && b == 0 && c == 0) // IETF protocol assignments
                || (a == 198 && (b == 18 || b == 19)) // benchmarking
                || a >= 240) // reserved
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00 // unique local
                || (first & 0xffc0) == 0xfe80 // link-local
                || first == 0x2001 && v6.segments()[1] == 0x0db8) // documentation
        }
    }
}

/// Refuses `url` when its host is, or resolves to, an address that is not public. The
/// answer is the system resolver's at this moment; ureq resolves again when it connects, so a
/// name whose answer changes between the two (DNS rebinding) is not caught here.
fn ensure_public(url: &Url) -> std::result::Result<(), String> {
    use std::net::ToSocketAddrs;
    let host = url.host_str().unwrap_or("");
    let port = url.port_or_known_default().unwrap_or(80);
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let addrs: Vec<std::net::IpAddr> =
        (host, port).to_socket_addrs().map_err(|e| format!("host not found (DNS): {e}"))?.map(|a| a.ip()).collect();
    match addrs.iter().find(|ip| !is_public(**ip)) {
        Some(ip) => Err(format!(
            "{host} resolves to {ip}, a loopback, private or link-local address: not fetched \
             (only the public web is read unless the setting allows private addresses)"
        )),
        None => Ok(()),
    }
}

pub struct Fetcher {
    agent: ureq::Agent,
    opts: FetchOptions,
    robots: HashMap<String, Robots>,
    last_request: HashMap<String, Instant>,
    wire: wire::SharedLog,
    /// Chromium, started at the first page to render; the reason when it could not be.
    renderer: Option<std::result::Result<render::Renderer, String>>,
    /// See [`FetchOptions::long_pages_take_turns`].
    pub put_off_long_pages: bool,
    /// The last request was put off ([`Error::PutOff`]).
    put_off: bool,
}

impl Fetcher {
    pub fn new(opts: FetchOptions) -> Result<Fetcher> {
        let proxy = opts.proxy.ureq_proxy()?;
        let proxied = proxy.is_some();
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(opts.timeout))
            .max_redirects(0)
            .http_status_as_error(false)
            .user_agent(opts.user_agent.as_str())
            .proxy(proxy)
            .build();
        // ureq's default chain with its TCP connector swapped for one that notes the peer,
        // and a recorder last, after TLS (see wire.rs).
        use ureq::unversioned::transport::{ConnectProxyConnector, Connector};
        let log = wire::SharedLog::default();
        let tls = wire::CertTlsConnector::new(log.clone(), &opts.trusted_certificates).map_err(Error::Parameter)?;
        let connector =
            ().chain(ConnectProxyConnector::default())
                .chain(wire::PeerTcpConnector { log: log.clone() })
                .chain(tls)
                .chain(wire::RecordingConnector { log: log.clone(), proxied });
        let resolver = wire::RecordingResolver { inner: Default::default(), log: log.clone() };
        let agent = ureq::Agent::with_parts(config, connector, resolver);
        Ok(Fetcher {
            agent,
            opts,
            robots: HashMap::new(),
            last_request: HashMap::new(),
            wire: log,
            renderer: None,
            put_off_long_pages: false,
            put_off: false,
        })
    }

    /// The settings a capture records: what the fetcher sent and how it behaved (the proxy
    /// by kind only: its URL may hold a password).
    pub fn capture_settings(&self, obeyed_robots: bool) -> serde_json::Value {
        serde_json::json!({
            "user_agent": self.opts.user_agent,
            "robots_txt": if obeyed_robots {
                "obeyed (pages and redirect targets it forbids are not requested)"
            } else {
                "not consulted: a page the user named, fetched as a browser would (setting named_as_browser)"
            },
            "delay_between_requests_ms": self.opts.delay.as_millis() as u64,
            "timeout_ms": self.opts.timeout.as_millis() as u64,
            "max_body_bytes": self.opts.max_bytes,
            "max_redirects": MAX_REDIRECTS,
            "proxy": match &self.opts.proxy {
                ProxySetting::Environment => "from the environment, if set",
                ProxySetting::Direct => "none",
                ProxySetting::Url(_) => "a proxy named in the settings",
            },
        })
    }

    /// Fetches `url`, following redirects; a page robots.txt forbids is never requested.
    /// Errors name the URL and say why: not allowed, host not found, refused, timed out,
    /// an HTTP error status, too large.
    pub fn fetch(&mut self, url: &str) -> Result<Page> {
        self.fetch_obeying(url, true)
    }

    /// Fetches a page the user named: as [`Fetcher::fetch`], except that with
    /// [`FetchOptions::named_as_browser`] robots.txt is not consulted for it (nor for its
    /// redirects), as a browser would not; the capture records which.
    pub fn fetch_named(&mut self, url: &str) -> Result<Page> {
        let obey = !self.opts.named_as_browser;
        self.fetch_obeying(url, obey)
    }

    fn fetch_obeying(&mut self, url: &str, obey_robots: bool) -> Result<Page> {
        let fail = |reason: String| Error::Fetch { url: url.to_string(), reason };
        let mut current = parse_url(url)?;
        let mut exchanges = Vec::new();
        for _ in 0..=MAX_REDIRECTS {
            if self.opts.public_only {
                ensure_public(&current).map_err(|reason| {
                    fail(if current.as_str() == url { reason } else { format!("redirected to {current}: {reason}") })
                })?;
            }
            if obey_robots && !self.allowed(&current)? {
                return Err(fail(if current.as_str() == url {
                    "forbidden by the site's robots.txt (not requested)".into()
                } else {
                    format!("redirected to {current}, which the site's robots.txt forbids (not requested)")
                }));
            }
            let answer = self.get(&current);
            if std::mem::take(&mut self.put_off) {
                return Err(Error::PutOff { url: url.to_string() });
            }
            let (status, headers, bytes, exchange) = answer.map_err(fail)?;
            exchanges.push(exchange);
            if (300..400).contains(&status)
                && let Some(location) = headers.iter().find(|(n, _)| n == "location").map(|(_, v)| v.clone())
            {
                current = current.join(&location).map_err(|e| fail(format!("bad redirect to {location}: {e}")))?;
                continue;
            }
            if !(200..300).contains(&status) {
                return Err(Error::HttpStatus { url: url.to_string(), status });
            }
            return Ok(Page {
                url: url.to_string(),
                final_url: current.to_string(),
                status,
                headers,
                bytes,
                fetched_at: crate::engine::time::now(),
                warc: warc::capture(&exchanges, &self.capture_settings(obey_robots)),
                rendered: None,
            });
        }
        Err(fail(format!("more than {MAX_REDIRECTS} redirects")))
    }

    /// With [`FetchOptions::render`], renders `page` in Chromium (started on first use) and
    /// appends the rendering's records to its capture. Returns why it was not rendered
    /// (rendering off gives `None`; no Chromium gives its reason at every page, the caller
    /// says it once); the page stays as fetched then.
    pub fn render_page(&mut self, page: &mut Page) -> Option<String> {
        if !self.opts.render || self.opts.public_only {
            return None;
        }
        let renderer = self.renderer.get_or_insert_with(|| {
            let path = render::find_chromium(self.opts.chromium.as_deref())?;
            let proxy = match &self.opts.proxy {
                ProxySetting::Url(u) => Some(u.clone()),
                ProxySetting::Direct => None,
                ProxySetting::Environment => ureq::Proxy::try_from_env().map(|p| format!("{}:{}", p.host(), p.port())),
            };
            render::Renderer::launch(&path, proxy.as_deref(), self.opts.timeout)
        });
        let renderer = match renderer {
            Ok(r) => r,
            Err(reason) => return Some(reason.clone()),
        };
        match renderer.render(&page.final_url) {
            Ok(rendered) => {
                page.warc.extend(warc::rendered_records(&page.final_url, &rendered));
                page.rendered = Some(rendered);
                None
            }
            Err(reason) => Some(reason),
        }
    }

    /// Whether robots.txt of `url`'s origin allows fetching it; reads robots.txt once.
    fn allowed(&mut self, url: &Url) -> Result<bool> {
        let origin = url.origin().ascii_serialization();
        if !self.robots.contains_key(&origin) {
            let robots_url = url.join("/robots.txt").expect("a path joins any http URL");
            // Google's rules: a missing robots.txt (4xx) allows everything; a server error
            // or no answer means the site cannot say, so nothing is fetched.
            let rules = match self.get(&robots_url) {
                Ok((status, _, bytes, _)) if (200..300).contains(&status) => {
                    Some(texting_robots::Robot::new(ROBOTS_NAME, &bytes).map_err(|e| Error::Fetch {
                        url: robots_url.to_string(),
                        reason: format!("unreadable robots.txt: {e}"),
                    })?)
                }
                Ok((status, _, _, _)) if (400..500).contains(&status) => None,
                Ok((status, _, _, _)) => {
                    return Err(Error::Fetch {
                        url: url.to_string(),
                        reason: format!("the site's robots.txt answered HTTP {status}: not crawled"),
                    });
                }
                Err(reason) => return Err(Error::Fetch { url: url.to_string(), reason }),
            };
            self.robots.insert(origin.clone(), Robots { rules });
        }
        Ok(self.robots[&origin].rules.as_ref().is_none_or(|r| r.allowed(url.as_str())))
    }

    /// Waits until `url`'s host may be asked again (its delay since the last request);
    /// `true`, or `false` for a string that is not a URL.
    pub fn wait_for_host(&mut self, url: &str) -> bool {
        Url::parse(url).map(|u| self.wait_turn(&u)).is_ok()
    }

    /// One GET, after waiting for the host's turn: status, headers, body (size-capped).
    fn get(&mut self, url: &Url) -> std::result::Result<Answer, String> {
        self.wait_turn(url);
        wire::begin(&self.wire, url.as_str());
        let answer = (|| {
            let mut response = self.agent.get(url.as_str()).call()?;
            let status = response.status().as_u16();
            let headers: Vec<(String, String)> = response
                .headers()
                .iter()
                .map(|(n, v)| (n.as_str().to_ascii_lowercase(), String::from_utf8_lossy(v.as_bytes()).into_owned()))
                .collect();
            let body = response.body_mut().with_config().limit(self.opts.max_bytes);
            if !self.opts.long_pages_take_turns {
                return Ok(Some((status, headers, body.read_to_vec()?, wire::take(&self.wire))));
            }
            let length = response_length(&headers);
            if length.is_some_and(|n| n > LONG_TEXT_BYTES as u64)
                && !check::hold_long_text_turn(!self.put_off_long_pages)
            {
                return Ok(None);
            }
            // Without a length, the first LONG_TEXT_BYTES + 1 bytes say whether it is long.
            let mut bytes = Vec::new();
            let mut reader = body.reader();
            let unwrap = |e: std::io::Error| e.downcast::<ureq::Error>().unwrap_or_else(ureq::Error::Io);
            (&mut reader).take(LONG_TEXT_BYTES as u64 + 1).read_to_end(&mut bytes).map_err(unwrap)?;
            if bytes.len() > LONG_TEXT_BYTES {
                check::hold_long_text_turn(true);
            }
            reader.read_to_end(&mut bytes).map_err(unwrap)?;
            Ok(Some((status, headers, bytes, wire::take(&self.wire))))
        })();
        let answer = match answer {
            Ok(Some(answer)) => Ok(answer),
            Ok(None) => {
                self.put_off = true;
                Err(ureq::Error::Other("put off".into()))
            }
            Err(e) => Err(e),
        };
        // A request that failed (timed out, too large) still counts for the host's delay.
        self.last_request.insert(url.host_str().unwrap_or("").to_string(), Instant::now());
        answer.map_err(|e| self.reason(e))
    }

    /// The sitemaps the robots.txt of `url`'s origin names (`Sitemap:` lines), reading
    /// robots.txt if it was not read yet; none when it cannot be read.
    pub fn sitemaps_of(&mut self, url: &Url) -> Vec<String> {
        if self.opts.public_only && ensure_public(url).is_err() {
            return Vec::new();
        }
        if self.allowed(url).is_err() {
            return Vec::new();
        }
        let origin = url.origin().ascii_serialization();
        self.robots.get(&origin).and_then(|r| r.rules.as_ref()).map_or_else(Vec::new, |r| r.sitemaps.clone())
    }

    /// The options this fetcher was made with.
    pub fn options(&self) -> &FetchOptions {
        &self.opts
    }

    /// Sleeps until `url`'s host may be asked again.
    fn wait_turn(&mut self, url: &Url) {
        let host = url.host_str().unwrap_or("");
        let origin = url.origin().ascii_serialization();
        let crawl_delay = self
            .robots
            .get(&origin)
            .and_then(|r| r.rules.as_ref())
            .and_then(|r| r.delay)
            .map_or(Duration::ZERO, |d| Duration::from_secs_f32(d.clamp(0.0, 60.0)));
        let delay = self.opts.delay.max(crawl_delay);
        if let Some(last) = self.last_request.get(host) {
            let since = last.elapsed();
            if since < delay {
                std::thread::sleep(delay - since);
            }
        }
    }

    fn timed_out(&self) -> String {
        format!("no complete answer within {} s (timed out)", self.opts.timeout.as_secs_f32())
    }

    fn reason(&self, e: ureq::Error) -> String {
        match e {
            ureq::Error::HostNotFound => "host not found (DNS)".into(),
            ureq::Error::ConnectionFailed => "connection refused or failed".into(),
            ureq::Error::Timeout(_) => self.timed_out(),
            ureq::Error::BodyExceedsLimit(_) => {
                format!("larger than the size cap ({} MiB)", self.opts.max_bytes >> 20)
            }
            ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => "connection refused".into(),
            ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::TimedOut => self.timed_out(),
            ureq::Error::Io(e) => format!("connection error: {e}"),
            other => other.to_string(),
        }
    }
}

/// The body's length from `Content-Length`, when the server gives one.
fn response_length(headers: &[(String, String)]) -> Option<u64> {
    headers.iter().find(|(n, _)| n == "content-length").and_then(|(_, v)| v.trim().parse().ok())
}

fn parse_url(url: &str) -> Result<Url> {
    let parsed =
        Url::parse(url).map_err(|e| Error::Fetch { url: url.to_string(), reason: format!("not a URL: {e}") })?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(Error::Fetch { url: url.to_string(), reason: "only http and https URLs can be fetched".into() });
    }
    Ok(parsed)
}

/// Whether a command-line argument is a web address (`scheme://…`) rather than a file;
/// schemes other than http and https are refused when fetched, with a message.
pub fn is_url(arg: &str) -> bool {
    arg.split_once("://").is_some_and(|(scheme, _)| {
        !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    })
}

/// The words after an HTTP status in messages: ` Not Found` after 404.
pub fn status_text(status: u16) -> &'static str {
    match status {
        401 => " Unauthorized (the page needs a login)",
        403 => " Forbidden",
        404 => " Not Found",
        410 => " Gone",
        429 => " Too Many Requests",
        500 => " Internal Server Error",
        502 => " Bad Gateway",
        503 => " Service Unavailable",
        _ => "",
    }
}

/// An HTML page as if fetched from `url`, for the web steps' unit tests.
#[cfg(test)]
pub(crate) fn test_page(url: &str, html: &str) -> Page {
    Page {
        url: url.into(),
        final_url: url.into(),
        status: 200,
        headers: vec![("content-type".into(), "text/html; charset=utf-8".into())],
        bytes: html.as_bytes().to_vec(),
        fetched_at: 0,
        warc: Vec::new(),
        rendered: None,
    }
}
