//! Watching over time from the command line: `watch`, `stats`, `notice`, `holder`, and
//! `findings notice-sent`.

use super::args::{AlertsAction, WatchAction};
use super::common::{cancel_on_ctrl_c, check_options, open, send_alert, web_options};
use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::ExitCode;
use zhiwen::engine::store::watch::{Change, Changes, DAILY, NewWatch, RightsHolder, Watch};
use zhiwen::engine::time;
use zhiwen::report::format_utc;

/// `hourly`, `daily`, `weekly`, `6h`, `2d` as seconds.
fn every_secs(every: &str) -> Result<i64> {
    let e = every.trim().to_ascii_lowercase();
    let secs = match e.as_str() {
        "hourly" => 3600,
        "daily" => DAILY,
        "weekly" => 7 * DAILY,
        _ => {
            let (n, unit) = e.split_at(e.len().saturating_sub(1));
            let n: i64 = n.parse().ok().filter(|n| *n > 0).with_context(|| {
                format!(
                    "--every {every}: say hourly, daily, weekly, or a number of minutes (5m), hours (6h) or days (2d)"
                )
            })?;
            match unit {
                "m" => n * 60,
                "h" => n * 3600,
                "d" => n * DAILY,
                _ => bail!(
                    "--every {every}: say hourly, daily, weekly, or a number of minutes (5m), hours (6h) or days (2d)"
                ),
            }
        }
    };
    use zhiwen::engine::store::watch::{MAX_EVERY_SECS, MIN_EVERY_SECS};
    if !(MIN_EVERY_SECS..=MAX_EVERY_SECS).contains(&secs) {
        bail!("--every {every}: between every 5 minutes and weekly");
    }
    Ok(secs)
}

fn every_text(secs: i64) -> String {
    match secs {
        DAILY => "daily".into(),
        3600 => "hourly".into(),
        s if s == 7 * DAILY => "weekly".into(),
        s if s % DAILY == 0 => format!("{}d", s / DAILY),
        s if s % 3600 == 0 => format!("{}h", s / 3600),
        s => format!("{}m", s / 60),
    }
}

/// `--now`: unix seconds or a day.
fn parse_now(now: Option<&str>) -> Result<i64> {
    match now {
        None => Ok(time::now()),
        Some(s) => s
            .parse::<i64>()
            .ok()
            .or_else(|| time::parse_date(s))
            .with_context(|| format!("--now {s}: unix seconds or YYYY-MM-DD")),
    }
}

pub fn watch(db: &Path, action: WatchAction) -> Result<ExitCode> {
    let mut corpus = open(db)?;
    match action {
        WatchAction::Add { targets, discover, search, label, follow, every } => {
            let every_secs = every_secs(&every)?;
            if discover {
                let id = super::discover::add_discovery_watch(&mut corpus, &targets, &search, every_secs)?;
                eprintln!(
                    "discovering {} on the web ({}, discovery watch {id})",
                    if targets.is_empty() { "every work".to_string() } else { targets.join(", ") },
                    every_text(every_secs)
                );
                return Ok(ExitCode::SUCCESS);
            }
            let [url] = targets.as_slice() else {
                bail!("watch add takes one URL (or --discover and the works to look for)");
            };
            if !zhiwen::engine::web::fetch::is_url(url) {
                bail!("{url}: not a web address (http:// or https://)");
            }
            let id =
                corpus.store_mut().add_watch(&NewWatch { url: url.clone(), label, follow, every_secs }, time::now())?;
            eprintln!("watching {url} ({}, id {id})", every_text(every_secs));
            Ok(ExitCode::SUCCESS)
        }
        WatchAction::List { json } => {
            let watches = corpus.store().watches()?;
            let discoveries = corpus.store().discovery_watches()?;
            if json {
                // Site watches as before; scheduled discoveries after them, marked.
                let mut all: Vec<serde_json::Value> =
                    watches.iter().map(serde_json::to_value).collect::<serde_json::Result<_>>()?;
                for d in &discoveries {
                    let mut v = serde_json::to_value(d)?;
                    v["discover"] = serde_json::Value::Bool(true);
                    all.push(v);
                }
                println!("{}", serde_json::to_string_pretty(&all)?);
            } else {
                print!("{}", watch_table(&watches, time::now()));
                for d in &discoveries {
                    println!(
                        "discovery {}: works {} via {} ({}, last run {})",
                        d.id,
                        if d.works.is_empty() { "all".to_string() } else { format!("{:?}", d.works) },
                        super::render::fit(&d.settings.searx, 80),
                        every_text(d.every_secs),
                        d.last_run_at.map_or_else(|| "never".into(), format_utc)
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        WatchAction::Rm { ids } => {
            let n = corpus.store_mut().remove_watches(&ids)?;
            eprintln!("removed {n} of {} watches", ids.len());
            Ok(if n == ids.len() { ExitCode::SUCCESS } else { ExitCode::from(1) })
        }
        WatchAction::Run { ids, due, json, now, check, web, allow_private, budget, parallel } => {
            let now = parse_now(now.as_deref())?;
            let opts = check_options(&check);
            corpus.ensure_distance(opts.max_distance)?;
            if web.named_as_browser {
                bail!("--named-as-browser is for pages checked by name: watches obey robots.txt");
            }
            let web = web_options(&web)?;
            let watches: Vec<Watch> = corpus
                .store()
                .watches()?
                .into_iter()
                .filter(|w| ids.is_empty() || ids.contains(&w.id))
                .filter(|w| !due || w.is_due(now))
                .collect();
            if !due && let Some(missing) = ids.iter().find(|id| !watches.iter().any(|w| w.id == **id)) {
                bail!("no watch {missing} (see zhiwen watch list)");
            }
            let discoveries: Vec<_> = corpus
                .store()
                .discovery_watches()?
                .into_iter()
                .filter(|d| ids.is_empty() && (!due || d.is_due(now)))
                .collect();
            if watches.is_empty() && discoveries.is_empty() {
                eprintln!("{}", if due { "no watch is due" } else { "no watches (add one with zhiwen watch add URL)" });
                return Ok(ExitCode::SUCCESS);
            }
            // Ctrl-C stops after the page being fetched; a stopped run changes no status.
            let cancel = cancel_on_ctrl_c();
            // The time budget stops the runs as Ctrl-C would, and is said so at the end.
            let budget_spent = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            if let Some(secs) = budget {
                let budget = super::common::seconds(secs, "budget")?;
                let (cancel, spent) = (cancel.clone(), budget_spent.clone());
                std::thread::spawn(move || {
                    std::thread::sleep(budget);
                    spent.store(true, std::sync::atomic::Ordering::Relaxed);
                    cancel.cancel();
                });
            }
            let progress = |url: &str| eprintln!("fetching {url}");
            // Sites run in parallel (one host's watches one after another); each run is
            // printed as it ends.
            let print = |run: &zhiwen::engine::web::watch::WatchRunReport| {
                if !json {
                    print!("{}", run_text(&run.watch, &run.changes, run.cancelled, now));
                }
            };
            let done = zhiwen::engine::web::watch::run_in_parallel(
                &mut corpus,
                &watches,
                &web,
                &opts,
                now,
                parallel.max(1),
                &progress,
                &print,
                &cancel,
            );
            let mut runs = Vec::new();
            let mut failed = false;
            let spent = budget_spent.load(std::sync::atomic::Ordering::Relaxed);
            let (mut stopped, mut not_started) = (0, 0);
            for (w, run) in watches.iter().zip(done) {
                let run = match run {
                    Ok(run) => run,
                    Err(zhiwen::Error::Cancelled) => {
                        not_started += 1;
                        runs.push(serde_json::json!({ "watch": w, "not_run": "stopped before it started" }));
                        continue;
                    }
                    Err(e) => {
                        eprintln!("{}: {e}", w.url);
                        failed = true;
                        continue;
                    }
                };
                failed |= !run.changes.unreachable.is_empty();
                stopped += usize::from(run.cancelled);
                if !run.cancelled {
                    let name = if w.label.is_empty() { &w.url } else { &w.label };
                    failed |= !send_alert(&corpus, name, &run.changes, now);
                }
                runs.push(serde_json::json!({
                    "watch": run.watch,
                    "run_id": run.run_id,
                    "cancelled": run.cancelled,
                    "pages": run.checked.len(),
                    "changes": run.changes,
                }));
            }
            for d in &discoveries {
                if cancel.is_cancelled() {
                    break;
                }
                let (run, ok) = super::discover::run_discovery_watch(
                    &mut corpus,
                    d,
                    &web.fetch,
                    &opts,
                    allow_private,
                    now,
                    json,
                    &cancel,
                )?;
                failed |= !ok;
                runs.push(run);
            }
            if spent {
                eprintln!(
                    "time budget spent: {} watch runs finished, {stopped} stopped midway (the pages they checked \
                     are kept as findings), {not_started} not started; those stay due",
                    watches.len() - stopped - not_started
                );
            }
            if json {
                println!("{}", serde_json::to_string_pretty(&runs)?);
            }
            Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
        }
    }
}

fn watch_table(watches: &[Watch], now: i64) -> String {
    let mut out = format!("{:>4}  {:<8}  {:<6}  {:<16}  {:<16}  url\n", "id", "every", "follow", "last run", "due");
    for w in watches {
        let due = if w.is_due(now) { "now".to_string() } else { format_utc(w.due_at()) };
        out += &format!(
            "{:>4}  {:<8}  {:<6}  {:<16}  {:<16}  {}{}\n",
            w.id,
            every_text(w.every_secs),
            if w.follow { "yes" } else { "no" },
            w.last_run_at.map_or_else(|| "never".into(), format_utc),
            due,
            w.url,
            if w.label.is_empty() { String::new() } else { format!("  ({})", w.label) }
        );
    }
    out + &format!("{} watches\n", watches.len())
}

/// How long since a notice, in days, for "still online N days after the notice".
fn since_notice(c: &Change, now: i64) -> String {
    match (c.notice_sent_at, &c.notice_to) {
        (Some(at), to) => format!(
            "  [notice sent {} to {}: {} days ago]",
            format_utc(at),
            to.as_deref().unwrap_or("?"),
            (now - at).max(0) / DAILY
        ),
        _ => String::new(),
    }
}

pub fn run_text(w: &Watch, c: &Changes, cancelled: bool, now: i64) -> String {
    let mut out = format!("{} ({})\n", w.url, if w.label.is_empty() { "watch" } else { &w.label });
    if cancelled {
        return out + "  cancelled: no status changed; the watch stays due\n";
    }
    let lines = [("new", &c.new), ("back", &c.back), ("gone", &c.gone), ("still online", &c.still_online)];
    for (what, list) in lines {
        for ch in list.iter() {
            let detail = if ch.detail.is_empty() { String::new() } else { format!(" ({})", ch.detail) };
            out += &format!("  {what:<12}  {}{detail}{}\n", ch.url, since_notice(ch, now));
        }
    }
    for (url, reason) in &c.unreachable {
        out += &format!("  {:<12}  {url}: {reason}\n", "unreachable");
    }
    out + &format!("  {}\n", c.counts())
}

pub fn notice_sent(db: &Path, ids: &[i64], to: &str, on: Option<&str>) -> Result<ExitCode> {
    let mut corpus = open(db)?;
    let at = match on {
        Some(d) => time::parse_date(d).with_context(|| format!("--on {d}: not a date (YYYY-MM-DD)"))?,
        None => time::now(),
    };
    let n = corpus.store_mut().mark_notice_sent(ids, to, at)?;
    eprintln!("notice recorded for {n} of {} findings (those of web pages that copy)", ids.len());
    Ok(if n == ids.len() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

pub fn stats(db: &Path, json: bool, csv: bool, html: Option<&Path>) -> Result<ExitCode> {
    let corpus = open(db)?;
    let picture = zhiwen::engine::web::stats::picture(corpus.store(), time::now())?;
    if let Some(path) = html {
        std::fs::write(path, zhiwen::report::summary::summary_html(&picture))
            .with_context(|| format!("cannot write {}", path.display()))?;
        eprintln!("summary written to {}", path.display());
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&picture)?);
    } else if csv {
        print!("{}", zhiwen::report::summary_csv(&picture));
    } else {
        print!("{}", stats_text(&picture));
    }
    Ok(ExitCode::SUCCESS)
}

fn stats_text(p: &zhiwen::engine::web::stats::Picture) -> String {
    let mut out =
        format!("{} pages copy your works, {} still online, on {} sites\n\n", p.copies, p.online, p.sites.len());
    out += &format!("{:>5}  {:>5}  {:>6}  {:>6}  {:>6}  work\n", "sites", "pages", "online", "best", "doc");
    for w in &p.works {
        out += &format!(
            "{:>5}  {:>5}  {:>6}  {:>5.1}%  {:>6}  {}\n",
            w.sites,
            w.pages,
            w.online,
            w.best_similarity * 100.0,
            w.doc_id,
            w.title
        );
    }
    out += &format!("\n{:>5}  {:>5}  {:>7}  {:>6}  site\n", "pages", "works", "copied", "online");
    for s in &p.sites {
        out +=
            &format!("{:>5}  {:>5}  {:>6.1}%  {:>6}  {}\n", s.pages, s.works, s.copied_share * 100.0, s.online, s.host);
    }
    out
}

/// `zhiwen notice`; `lookup` (RDAP base, fetch settings) asks where the notice should go.
pub fn notice(
    db: &Path,
    ids: &[i64],
    kind: &str,
    out: Option<&Path>,
    lookup: Option<(&str, &super::args::FetchArgs)>,
) -> Result<ExitCode> {
    use zhiwen::report::notice::{Jurisdiction, notice_input, notice_text, plain, write_notice_folder};
    let corpus = open(db)?;
    let j = if kind == "cn" { Jurisdiction::Cn } else { Jurisdiction::Dmca };
    let mut input = notice_input(corpus.store(), ids, time::now())?;
    if let (Some((rdap, fetch)), Some(first)) = (lookup, input.items.first()) {
        let mut fetcher = zhiwen::engine::web::fetch::Fetcher::new(super::common::fetch_options(fetch)?)?;
        let found = zhiwen::engine::web::contacts::suggest(&mut fetcher, rdap, &first.final_url);
        for note in &found.notes {
            eprintln!("recipients: {}", plain(note));
        }
        for r in &found.suggestions {
            eprintln!("suggested recipient: {}  ({})", plain(&r.email), plain(&r.source));
        }
        if found.suggestions.is_empty() {
            eprintln!("no recipient found; send it to the site's designated agent or its host's abuse desk");
        }
        input.recipients = found.suggestions;
    }
    let text = notice_text(j, &input);
    match out {
        Some(dir) => {
            let path = write_notice_folder(corpus.store(), j, &input, &text, dir)?;
            eprintln!("notice written to {} with {} evidence packages", path.display(), input.items.len());
        }
        None => print!("{text}"),
    }
    if input.holder.name.trim().is_empty() {
        eprintln!("note: no rights holder set; fill in the placeholders or set them with zhiwen holder --name ...");
    }
    Ok(ExitCode::SUCCESS)
}

pub fn holder(db: &Path, update: [Option<String>; 5]) -> Result<ExitCode> {
    let mut corpus = open(db)?;
    let mut h = corpus.store().rights_holder()?;
    if update.iter().any(Option::is_some) {
        let [name, address, email, phone, signatory] = update;
        let fields = [&mut h.name, &mut h.address, &mut h.email, &mut h.phone, &mut h.signatory];
        for (field, value) in fields.into_iter().zip([name, address, email, phone, signatory]) {
            if let Some(v) = value {
                *field = v;
            }
        }
        corpus.store_mut().set_rights_holder(&h)?;
    }
    let RightsHolder { name, address, email, phone, signatory } = h;
    println!("name:      {name}\naddress:   {address}\nemail:     {email}\nphone:     {phone}\nsignatory: {signatory}");
    Ok(ExitCode::SUCCESS)
}

/// `zhiwen alerts set|show|test`.
pub fn alerts(db: &Path, action: AlertsAction) -> Result<ExitCode> {
    use zhiwen::engine::web::alerts::{self, Digest, SmtpSettings};
    let mut corpus = open(db)?;
    let mut settings = corpus.store().alert_settings()?;
    match action {
        AlertsAction::Set {
            smtp_host,
            smtp_port,
            starttls,
            smtp_user,
            smtp_password_env,
            from,
            to,
            webhook,
            overdue_days,
            no_email,
            no_webhook,
            desktop,
        } => {
            let touches_smtp = smtp_host.is_some()
                || smtp_port.is_some()
                || starttls.is_some()
                || smtp_user.is_some()
                || smtp_password_env.is_some()
                || from.is_some()
                || !to.is_empty();
            if touches_smtp {
                let smtp = settings.smtp.get_or_insert_with(|| SmtpSettings {
                    port: 587,
                    starttls: true,
                    password_env: "ZHIWEN_SMTP_PASSWORD".into(),
                    ..Default::default()
                });
                smtp.host = smtp_host.unwrap_or(std::mem::take(&mut smtp.host));
                smtp.port = smtp_port.unwrap_or(smtp.port);
                smtp.starttls = starttls.unwrap_or(smtp.starttls);
                smtp.user = smtp_user.unwrap_or(std::mem::take(&mut smtp.user));
                smtp.password_env = smtp_password_env.unwrap_or(std::mem::take(&mut smtp.password_env));
                smtp.from = from.unwrap_or(std::mem::take(&mut smtp.from));
                if !to.is_empty() {
                    smtp.to = to;
                }
                if smtp.host.is_empty() || smtp.from.is_empty() || smtp.to.is_empty() {
                    bail!("e-mail alerts need --smtp-host, --from and --to");
                }
            }
            if no_email {
                settings.smtp = None;
            }
            if let Some(url) = webhook {
                if !zhiwen::engine::web::fetch::is_url(&url) {
                    bail!("--webhook {url}: not a web address");
                }
                settings.webhook = Some(url);
            }
            if no_webhook {
                settings.webhook = None;
            }
            if let Some(days) = overdue_days {
                settings.overdue_days = days.max(0);
            }
            if let Some(on) = desktop {
                settings.desktop = on;
            }
            corpus.store_mut().set_alert_settings(&settings)?;
            eprintln!("alerts set");
        }
        AlertsAction::Show { json } => {
            if json {
                println!("{}", serde_json::to_string_pretty(&settings)?);
            } else {
                match &settings.smtp {
                    Some(s) => println!(
                        "e-mail: {}:{}{} from {} to {}{}",
                        s.host,
                        s.port,
                        if s.starttls { " (STARTTLS)" } else { " (no TLS)" },
                        s.from,
                        s.to.join(", "),
                        if s.user.is_empty() {
                            String::new()
                        } else {
                            format!(", as {} (password from ${})", s.user, s.password_env)
                        }
                    ),
                    None => println!("e-mail: off"),
                }
                println!("webhook: {}", settings.webhook.as_deref().unwrap_or("off"));
                println!("desktop notifications: {}", if settings.desktop { "on" } else { "off" });
                println!(
                    "copies still online after a notice: {}",
                    match settings.overdue_days {
                        0 => "not listed".to_string(),
                        d => format!("listed after {d} days"),
                    }
                );
            }
        }
        AlertsAction::Test => {
            let sample = zhiwen::engine::store::watch::Change {
                url: "https://pirate.example/book/1/1.html".into(),
                ..Default::default()
            };
            let digest =
                Digest { source: "a test from zhiwen alerts test".into(), new: vec![sample], ..Default::default() };
            let sent = alerts::send(&settings, &digest)?;
            if sent.is_empty() {
                bail!("no alert channel is set (zhiwen alerts set --smtp-host …, --webhook … or --desktop on)");
            }
            for s in sent {
                eprintln!("sent: {s}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
