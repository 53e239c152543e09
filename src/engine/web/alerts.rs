//! Alerts: telling the rights holder when a run finds something, without their opening
//! the app.
//!
//! After each watch run (and each discovery), one **digest** is made of what calls for
//! action — copies new, copies back after a takedown, copies still online more than
//! [`AlertSettings::overdue_days`] after a notice — and sent, once per run and never once
//! per page, by e-mail over SMTP (STARTTLS and authentication when set; lettre) and as a
//! JSON POST to a webhook (chat tools take these). A run with nothing to say sends nothing.
//! A channel that fails is reported by the caller; it never undoes the run.
//!
//! The settings are kept in the store (`meta`, key `alerts`), beside the rights holder.

use crate::engine::store::Store;
use crate::engine::store::watch::{Change, Changes};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// Where alerts go.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AlertSettings {
    pub smtp: Option<SmtpSettings>,
    /// A URL that receives the digest as a JSON POST.
    pub webhook: Option<String>,
    /// Copies still online this many days after their notice are listed (0: never).
    pub overdue_days: i64,
    /// Show each digest as a desktop notification (freedesktop notifications over the
    /// session's D-Bus: the desktop's notification daemon).
    pub desktop: bool,
}

/// An SMTP server and the message's addresses.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SmtpSettings {
    pub host: String,
    pub port: u16,
    /// Upgrade the connection with STARTTLS (required when set).
    pub starttls: bool,
    pub user: String,
    /// Read from this environment variable when sending, never stored.
    pub password_env: String,
    pub from: String,
    pub to: Vec<String>,
}

/// What one run found that calls for action.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Digest {
    /// The watch or discovery the run was for.
    pub source: String,
    pub new: Vec<Change>,
    pub back: Vec<Change>,
    /// Still online more than `overdue_days` after a notice.
    pub overdue: Vec<Change>,
}

impl Digest {
    /// The digest of a run's changes; `now` decides which noticed copies are overdue.
    pub fn of(source: &str, changes: &Changes, overdue_days: i64, now: i64) -> Digest {
        let overdue = changes
            .still_online
            .iter()
            .filter(|c| overdue_days > 0 && c.notice_sent_at.is_some_and(|at| now - at > overdue_days * 86_400))
            .cloned()
            .collect();
        Digest { source: source.to_string(), new: changes.new.clone(), back: changes.back.clone(), overdue }
    }

    pub fn is_empty(&self) -> bool {
        self.new.is_empty() && self.back.is_empty() && self.overdue.is_empty()
    }

    /// One line for a subject: `Zhiwen: 3 new copies, 1 back (笔趣阁)`.
    pub fn subject(&self) -> String {
        let mut parts = Vec::new();
        if !self.new.is_empty() {
            parts.push(format!("{} new copies", self.new.len()));
        }
        if !self.back.is_empty() {
            parts.push(format!("{} back after a takedown", self.back.len()));
        }
        if !self.overdue.is_empty() {
            parts.push(format!("{} still online after a notice", self.overdue.len()));
        }
        crate::report::notice::plain(&format!("Zhiwen: {} ({})", parts.join(", "), self.source))
    }

    /// The body as plain text: each copy's URL exactly as found, one per line.
    pub fn text(&self) -> String {
        let mut out = format!("{}\n\n", self.subject());
        for (title, list) in [
            ("New copies", &self.new),
            ("Back after a takedown", &self.back),
            ("Still online after a notice", &self.overdue),
        ] {
            if list.is_empty() {
                continue;
            }
            out += &format!("{title}:\n");
            for c in list {
                out += &format!(
                    "  {}{}\n",
                    crate::report::notice::url_exactly(&c.url),
                    c.notice_sent_at
                        .map_or_else(String::new, |at| format!("  (notice sent {})", crate::report::format_utc(at)))
                );
            }
            out.push('\n');
        }
        out + "Open Zhiwen (Dashboard, Findings) or run `zhiwen stats` for the whole picture.\n"
    }
}

const ALERTS_KEY: &str = "alerts";

impl Store {
    pub fn alert_settings(&self) -> Result<AlertSettings> {
        Ok(self.meta_value(ALERTS_KEY)?.and_then(|j| serde_json::from_str(&j).ok()).unwrap_or_default())
    }

    pub fn set_alert_settings(&mut self, settings: &AlertSettings) -> Result<()> {
        self.set_meta_value(ALERTS_KEY, &serde_json::to_string(settings).expect("settings serialize"))
    }
}

/// Sends `digest` on every channel set; returns what was sent (`e-mail to …`, `webhook …`).
/// An empty digest sends nothing. The first channel that fails is the error (the others
/// are still tried first).
pub fn send(settings: &AlertSettings, digest: &Digest) -> Result<Vec<String>> {
    if digest.is_empty() {
        return Ok(Vec::new());
    }
    let mut sent = Vec::new();
    let mut failed = Vec::new();
    if let Some(smtp) = &settings.smtp {
        match send_mail(smtp, digest) {
            Ok(()) => sent.push(format!("e-mail to {}", smtp.to.join(", "))),
            Err(e) => failed.push(e),
        }
    }
    if let Some(url) = &settings.webhook {
        match post_webhook(url, digest) {
            Ok(()) => sent.push(format!("webhook {url}")),
            Err(e) => failed.push(e),
        }
    }
    if settings.desktop {
        match notify_desktop(digest) {
            Ok(()) => sent.push("desktop notification".into()),
            Err(e) => failed.push(e),
        }
    }
    match failed.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(sent),
    }
}

/// The digest as a desktop notification: its subject as the summary, its first lines as the
/// body (notification daemons show a few lines; the rest is in the app and the e-mail).
#[cfg(all(feature = "desktop-notifications", unix, not(target_os = "macos")))]
fn notify_desktop(digest: &Digest) -> Result<()> {
    let text = digest.text();
    let body: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).take(8).collect();
    notify_rust::Notification::new()
        .appname("Zhiwen")
        .summary(&digest.subject())
        .body(&body.join("\n"))
        .show()
        .map(|_| ())
        .map_err(|e| alert_error("desktop notification", e))
}

#[cfg(not(all(feature = "desktop-notifications", unix, not(target_os = "macos"))))]
fn notify_desktop(_: &Digest) -> Result<()> {
    Err(alert_error("desktop notification", "this build has no desktop notifications"))
}

fn alert_error(channel: &str, reason: impl std::fmt::Display) -> Error {
    Error::Parameter(format!("alert by {channel} not sent: {reason}"))
}

fn send_mail(smtp: &SmtpSettings, digest: &Digest) -> Result<()> {
    use lettre::message::{Mailbox, header::ContentType};
    use lettre::transport::smtp::authentication::Credentials;
    use lettre::{Message, SmtpTransport, Transport};
    let mail = |r: std::result::Result<Mailbox, lettre::address::AddressError>, what: &str| {
        r.map_err(|e| alert_error("e-mail", format!("{what}: {e}")))
    };
    let mut message = Message::builder()
        .from(mail(smtp.from.parse(), "from")?)
        .subject(digest.subject())
        .header(ContentType::TEXT_PLAIN);
    if smtp.to.is_empty() {
        return Err(alert_error("e-mail", "no recipient (--to)"));
    }
    for to in &smtp.to {
        message = message.to(mail(to.parse(), "to")?);
    }
    let message = message.body(digest.text()).map_err(|e| alert_error("e-mail", e))?;
    let builder = if smtp.starttls {
        SmtpTransport::starttls_relay(&smtp.host).map_err(|e| alert_error("e-mail", e))?
    } else {
        // Plain SMTP: a relay on the same machine or network the user trusts.
        SmtpTransport::builder_dangerous(&smtp.host)
    };
    let mut builder = builder.port(smtp.port).timeout(Some(std::time::Duration::from_secs(30)));
    if !smtp.user.is_empty() {
        let password = std::env::var(&smtp.password_env).map_err(|_| {
            alert_error("e-mail", format!("the password is read from ${}, which is not set", smtp.password_env))
        })?;
        builder = builder.credentials(Credentials::new(smtp.user.clone(), password));
    }
    builder.build().send(&message).map_err(|e| alert_error("e-mail", format!("{}:{}: {e}", smtp.host, smtp.port)))?;
    Ok(())
}

fn post_webhook(url: &str, digest: &Digest) -> Result<()> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(std::time::Duration::from_secs(30)))
        .http_status_as_error(false)
        .user_agent(crate::engine::web::fetch::user_agent().as_str())
        .build()
        .into();
    let body = serde_json::json!({ "text": digest.text(), "digest": digest });
    let response = agent
        .post(url)
        .header("Content-Type", "application/json")
        .send(body.to_string().as_bytes())
        .map_err(|e| alert_error("webhook", format!("{url}: {e}")))?;
    let status = response.status().as_u16();
    if !(200..300).contains(&status) {
        return Err(alert_error("webhook", format!("{url}: HTTP {status}")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(url: &str, notice: Option<i64>) -> Change {
        Change { url: url.into(), notice_sent_at: notice, ..Default::default() }
    }

    #[test]
    fn a_digest_lists_what_calls_for_action_and_nothing_else() {
        let changes = Changes {
            new: vec![change("http://p.test/1.html", None)],
            still_online: vec![
                change("http://p.test/2.html", Some(0)),
                change("http://p.test/3.html", Some(9 * 86_400)),
            ],
            ..Default::default()
        };
        let d = Digest::of("笔趣阁", &changes, 7, 10 * 86_400);
        assert_eq!(d.overdue.len(), 1, "only the copy noticed more than 7 days ago");
        assert!(d.subject().contains("1 new copies") && d.subject().contains("1 still online after a notice"));
        assert!(d.text().contains("http://p.test/1.html") && d.text().contains("http://p.test/2.html"));
        assert!(!d.text().contains("3.html"));
        assert!(Digest::of("x", &Changes::default(), 7, 0).is_empty());
        assert_eq!(send(&AlertSettings::default(), &Digest::default()).unwrap(), Vec::<String>::new());
    }

    #[test]
    fn settings_are_kept_in_the_store() {
        let mut store = Store::open_in_memory(Default::default()).unwrap();
        assert_eq!(store.alert_settings().unwrap(), AlertSettings::default());
        let s = AlertSettings {
            smtp: Some(SmtpSettings {
                host: "127.0.0.1".into(),
                port: 2525,
                to: vec!["a@b.test".into()],
                ..Default::default()
            }),
            webhook: Some("http://127.0.0.1:9/hook".into()),
            overdue_days: 7,
            desktop: true,
        };
        store.set_alert_settings(&s).unwrap();
        assert_eq!(store.alert_settings().unwrap(), s);
    }
}
