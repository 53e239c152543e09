//! Render: a page as a reader sees it, through a headless Chromium over the DevTools
//! protocol (headless_chrome).
//!
//! Optional: the user installs Chromium (Debian: `chromium`); it is found by the setting
//! ([`find_chromium`]), `ZHIWEN_CHROMIUM`, `CHROME`, or on `PATH`. A rendered page gives
//! three things: a full-page screenshot (PNG), the DOM after its scripts ran, and its
//! *visible* text only, computed in the page over the rendered layout ([`VISIBLE_TEXT_JS`]):
//! a text node is kept when its element is visible by the computed style
//! (`checkVisibility`: no `display:none` up the tree, `visibility` visible, opacity not 0),
//! its own boxes have a non-zero size inside the document (not off-screen at negative
//! coordinates), and no ancestor clips it to nothing (`overflow` hidden with a zero size).
//! Text of one block joins without a break, so junk spans cut out of a sentence leave the
//! sentence whole.
//!
//! The browser runs with no proxy for loopback, no background networking, component
//! updates or sync, a throw-away profile, and `--no-sandbox` when run as root (Chromium
//! refuses its sandbox there). The browser is what fetches the page and what it loads
//! (scripts, stylesheets, images): those requests are not in the WARC's wire records, which
//! hold the plain fetch; the rendered results are stored beside them (see
//! [`super::warc::rendered_records`]).

use headless_chrome::protocol::cdp::Page as Cdp;
use headless_chrome::{Browser, LaunchOptions};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// A page as Chromium rendered it.
#[derive(Clone, Debug, PartialEq)]
pub struct Rendered {
    /// The URL the browser ended on.
    pub url: String,
    /// When rendering finished: unix time in microseconds (UTC).
    pub rendered_at_micros: i64,
    /// Full-page screenshot, PNG, `width` × `height` CSS pixels at scale 1.
    pub screenshot_png: Vec<u8>,
    pub width: u32,
    pub height: u32,
    /// The DOM after scripts (`<!DOCTYPE html>` and the document element's outer HTML).
    pub dom: String,
    /// The text a reader sees: blocks on lines of their own.
    pub visible_text: String,
}

/// Where Chromium is: `setting` (a path or a command name) when given, else the
/// environment (`ZHIWEN_CHROMIUM`, `CHROME`), else `chromium`, `chromium-browser`,
/// `google-chrome` … on `PATH`.
pub fn find_chromium(setting: Option<&Path>) -> Result<PathBuf, String> {
    let on_path = |name: &OsStr| -> Option<PathBuf> {
        let name = Path::new(name);
        if name.components().count() > 1 {
            return name.is_file().then(|| name.to_path_buf());
        }
        std::env::split_paths(&std::env::var_os("PATH")?).map(|dir| dir.join(name)).find(|p| p.is_file())
    };
    if let Some(setting) = setting.filter(|s| !s.as_os_str().is_empty()) {
        return on_path(setting.as_os_str())
            .ok_or_else(|| format!("Chromium not found at {} (the chromium setting)", setting.display()));
    }
    if let Some(env) = std::env::var_os("ZHIWEN_CHROMIUM").filter(|v| !v.is_empty()) {
        return on_path(&env).ok_or_else(|| format!("Chromium not found at {} (ZHIWEN_CHROMIUM)", env.display()));
    }
    headless_chrome::browser::default_executable().map_err(|_| {
        "Chromium not found: install it (Debian/Ubuntu: `apt install chromium`) or name it in the \
         chromium setting or ZHIWEN_CHROMIUM; pages are read by the plain fetch, without rendering"
            .to_string()
    })
}

/// The script that gives a page's visible text (see the module header).
pub const VISIBLE_TEXT_JS: &str = r#"(() => {
  const doc = document.documentElement;
  const docWidth = Math.max(doc.scrollWidth, document.body ? document.body.scrollWidth : 0);
  const docHeight = Math.max(doc.scrollHeight, document.body ? document.body.scrollHeight : 0);
  const shown = new Map();
  const visible = (el) => {
    if (shown.has(el)) return shown.get(el);
    let ok = el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
    if (ok) {
      for (let a = el; a && a !== doc; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflow !== 'visible' || s.clip !== 'auto') {
          const r = a.getBoundingClientRect();
          if (r.width < 1 || r.height < 1) { ok = false; break; }
        }
      }
    }
    shown.set(el, ok);
    return ok;
  };
  const block = (el) => {
    for (let a = el; a; a = a.parentElement) {
      const d = getComputedStyle(a).display;
      if (!d.startsWith('inline') && d !== 'contents') return a;
    }
    return doc;
  };
  const walker = document.createTreeWalker(document.body || doc, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  let out = '', lastBlock = null;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.data.trim()) continue;
    const el = n.parentElement;
    if (!el || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes(el.tagName) || !visible(el)) continue;
    range.selectNodeContents(n);
    const inside = [...range.getClientRects()].some((r) => {
      const left = r.left + scrollX, top = r.top + scrollY;
      return r.width >= 1 && r.height >= 1 && left + r.width > 0 && top + r.height > 0
        && left < docWidth && top < docHeight;
    });
    if (!inside) continue;
    const b = block(el);
    if (lastBlock !== null && b !== lastBlock) out += '\n';
    out += n.data;
    lastBlock = b;
  }
  return out;
})()"#;

/// A running headless Chromium.
pub struct Renderer {
    browser: Browser,
    timeout: Duration,
}

/// Whether this process runs as root (Chromium's sandbox refuses to start there).
fn running_as_root() -> bool {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: geteuid has no preconditions and cannot fail.
        unsafe { libc::geteuid() == 0 }
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

impl Renderer {
    /// Starts Chromium at `path`; `proxy` is the proxy URL pages go through, if any
    /// (loopback is never proxied).
    pub fn launch(path: &Path, proxy: Option<&str>, timeout: Duration) -> Result<Renderer, String> {
        let proxy_arg = proxy.map(|p| format!("--proxy-server={p}"));
        let mut args: Vec<&OsStr> = vec![
            OsStr::new("--hide-scrollbars"),
            OsStr::new("--mute-audio"),
            OsStr::new("--disable-component-update"),
            OsStr::new("--disable-domain-reliability"),
            OsStr::new("--no-default-browser-check"),
            OsStr::new("--no-pings"),
            OsStr::new("--proxy-bypass-list=<-loopback>"),
        ];
        match &proxy_arg {
            Some(p) => args.push(OsStr::new(p)),
            None => args.push(OsStr::new("--no-proxy-server")),
        }
        let options = LaunchOptions::default_builder()
            .path(Some(path.to_path_buf()))
            .headless(true)
            .sandbox(!running_as_root())
            .window_size(Some((1280, 900)))
            .idle_browser_timeout(Duration::from_secs(600))
            .args(args)
            .build()
            .map_err(|e| format!("Chromium options: {e}"))?;
        let browser =
            Browser::new(options).map_err(|e| format!("Chromium at {} did not start: {e}", path.display()))?;
        Ok(Renderer { browser, timeout })
    }

    /// Renders `url`: loads it, lets its scripts run, and takes the screenshot, the DOM and
    /// the visible text. Errors name the URL and the reason.
    pub fn render(&self, url: &str) -> Result<Rendered, String> {
        let fail = |what: &str, e: &dyn std::fmt::Display| format!("rendering {url} in Chromium: {what}: {e}");
        let tab = self.browser.new_tab().map_err(|e| fail("no tab", &e))?;
        let result = self.render_in(&tab, url, &fail);
        let _ = tab.close(false);
        result
    }

    fn render_in(
        &self,
        tab: &Arc<headless_chrome::Tab>,
        url: &str,
        fail: &dyn Fn(&str, &dyn std::fmt::Display) -> String,
    ) -> Result<Rendered, String> {
        tab.set_default_timeout(self.timeout);
        tab.navigate_to(url).map_err(|e| fail("navigation", &e))?;
        tab.wait_until_navigated().map_err(|e| fail("loading", &e))?;
        // Scripts run on load; a moment more for those that wait a tick.
        let eval = |js: &str, promise: bool| -> Result<serde_json::Value, String> {
            let value = tab.evaluate(js, promise).map_err(|e| fail("script", &e))?.value;
            Ok(value.unwrap_or(serde_json::Value::Null))
        };
        eval("new Promise(r => setTimeout(r, 300))", true)?;
        let size = eval(
            "JSON.stringify([Math.max(document.documentElement.scrollWidth, document.body ? document.body.scrollWidth : 0), \
             Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0)])",
            false,
        )?;
        let (width, height): (u32, u32) =
            serde_json::from_str(size.as_str().unwrap_or("")).map_err(|e| fail("page size", &e))?;
        let (width, height) = (width.clamp(1, 16_384), height.clamp(1, 16_384));
        let visible_text = eval(VISIBLE_TEXT_JS, false)?.as_str().unwrap_or_default().to_string();
        let dom = eval(
            "(document.doctype ? new XMLSerializer().serializeToString(document.doctype) + '\\n' : '') + document.documentElement.outerHTML",
            false,
        )?
        .as_str()
        .unwrap_or_default()
        .to_string();
        let shot = tab
            .call_method(Cdp::CaptureScreenshot {
                format: Some(Cdp::CaptureScreenshotFormatOption::Png),
                quality: None,
                clip: Some(Cdp::Viewport { x: 0.0, y: 0.0, width: width as f64, height: height as f64, scale: 1.0 }),
                from_surface: Some(true),
                capture_beyond_viewport: Some(true),
                optimize_for_speed: None,
            })
            .map_err(|e| fail("screenshot", &e))?;
        use base64::Engine;
        let screenshot_png =
            base64::engine::general_purpose::STANDARD.decode(shot.data).map_err(|e| fail("screenshot data", &e))?;
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        Ok(Rendered {
            url: tab.get_url(),
            rendered_at_micros: now.as_micros() as i64,
            screenshot_png,
            width,
            height,
            dom,
            visible_text,
        })
    }
}

/// Width and height of a PNG, from its header.
pub fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    if png.len() < 24 || &png[..8] != b"\x89PNG\r\n\x1a\n" || &png[12..16] != b"IHDR" {
        return None;
    }
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    Some((be(&png[16..20]), be(&png[20..24])))
}
