//! The desktop app driven without a display (egui_kittest): import through the button
//! and a stubbed dialog, drop a pirated file, view, navigate, export.

use crate::util::*;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use zhiwen::gui::ZhiwenApp;
use zhiwen::gui::jobs::Dialog;
use zhiwen::gui::settings::Settings;

#[derive(Debug)]
struct Dropped(PathBuf);

impl eframe::egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

/// Drops `path` on the Check zone (the right half of the window).
fn drop_to_check(h: &mut Harness<'_, ZhiwenApp>, path: &Path) {
    drop_at(h, path, eframe::egui::pos2(1000.0, 400.0));
}

/// Drops `path` with the pointer at `at`: the hover, the pointer, then the drop.
fn drop_at(h: &mut Harness<'_, ZhiwenApp>, path: &Path, at: eframe::egui::Pos2) {
    // Events queued by an earlier click (its pointer moves) go first.
    h.run_steps(2);
    h.input_mut().hovered_files.push(eframe::egui::HoveredFile { path: Some(path.to_path_buf()), mime: String::new() });
    h.input_mut().events.push(eframe::egui::Event::PointerMoved(at));
    h.step();
    h.input_mut().hovered_files.clear();
    h.input_mut().dropped_files.push(Arc::new(Dropped(path.to_path_buf())));
    h.step();
}

fn app_harness(db: PathBuf, export: PathBuf) -> Harness<'static, ZhiwenApp> {
    app_harness_importing(db, corpus_dir(), export)
}

/// A harness whose import dialog picks `corpus` and whose save dialog picks `export`.
fn app_harness_importing(db: PathBuf, corpus: PathBuf, export: PathBuf) -> Harness<'static, ZhiwenApp> {
    // The worker wakes this context; the test steps frames itself, so it need not be the harness's.
    let mut app = ZhiwenApp::new(&eframe::egui::Context::default(), db, Settings::default());
    app.dialogs = Arc::new(Box::new(move |d, _| {
        Ok(match d {
            Dialog::ImportFolder => Some(vec![corpus.clone()]),
            Dialog::SaveReport => Some(vec![export.clone()]),
            _ => None,
        })
    }));
    Harness::builder()
        .with_size([1280.0, 800.0])
        .with_context_setup(zhiwen::gui::install_fonts)
        .build_ui_state(|ui, app: &mut ZhiwenApp| app.show(ui), app)
}

/// Steps frames until `done` holds; the engine works on other threads meanwhile.
fn step_until(h: &mut Harness<'_, ZhiwenApp>, what: &str, done: impl Fn(&ZhiwenApp) -> bool) {
    let start = Instant::now();
    while !done(h.state()) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}; messages: {:?}",
            h.state().messages
        );
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    h.step();
}

#[test]
fn import_drop_view_navigate_and_export() {
    let dir = tempfile::tempdir().unwrap();
    let export = dir.path().join("report.json");
    let mut h = app_harness(dir.path().join("corpus.sqlite"), export.clone());
    h.step();
    h.get_by_label_contains("The corpus is empty");

    // Import through the toolbar button; the stubbed dialog picks the fixture corpus.
    h.get_by_label("Import folder…").click();
    step_until(&mut h, "the import", |a| a.import.as_ref().is_some_and(|j| j.report.is_some()));
    h.get_by_label("Import finished");
    h.get_by_label("Close").click();
    step_until(&mut h, "the corpus table", |a| a.corpus.docs.len() == 5 && a.import.is_none());
    h.get_by_label("第一回　灵根育孕源流出　心性修持大道生");
    h.get_by_label_contains("5 documents");

    // Files hovering show the drop zones; dropped on the Check zone they are checked.
    let pirated = suspect("ads_xiyouji_000.txt");
    h.input_mut().hovered_files.push(eframe::egui::HoveredFile { path: Some(pirated.clone()), mime: String::new() });
    h.run_steps(2);
    h.get_by_label("Check");
    h.get_by_label("Add to corpus");
    drop_to_check(&mut h, &pirated);
    step_until(&mut h, "the check", |a| a.results.len() == 1 && a.viewer.is_some());
    assert!(h.query_by_label("Add to corpus").is_none());

    // The result is listed and the viewer opens at the first passage.
    // In the results list and as the viewer's heading.
    assert_eq!(h.query_all_by_label("ads_xiyouji_000.txt").count(), 2);
    let passages = h.state().results[0].outcome.report.sources[0].passages.len();
    assert!(passages > 10);
    // The ads cut one copy into many passages; the passage list shows it as one region.
    let regions: std::collections::BTreeSet<usize> =
        h.state().results[0].outcome.report.sources[0].passages.iter().map(|p| p.region).collect();
    assert!(regions.len() * 10 < passages, "{} regions for {passages} passages", regions.len());
    assert_eq!(h.query_all_by_label_contains("Copied region ").count(), regions.len());
    h.get_by_label("Copied region 1");
    assert_eq!(h.state().viewer.as_ref().unwrap().passage, 0);
    h.get_by_label(&format!("1 / {passages}"));

    // Next and previous, by button and by keyboard.
    h.get_by_label("Next ▶").click();
    h.run_steps(2);
    assert_eq!(h.state().viewer.as_ref().unwrap().passage, 1);
    h.get_by_label(&format!("2 / {passages}"));
    h.key_press(eframe::egui::Key::N);
    h.run_steps(2);
    assert_eq!(h.state().viewer.as_ref().unwrap().passage, 2);
    h.get_by_label("◀ Previous").click();
    h.run_steps(2);
    assert_eq!(h.state().viewer.as_ref().unwrap().passage, 1);

    // Export writes the report in the format of the chosen name: here the JSON contract...
    h.get_by_label("Export report…").click();
    step_until(&mut h, "the export", |_| export.exists());
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    assert_eq!(json["suspects"][0]["sources"][0]["passages"].as_array().unwrap().len(), passages);
    assert!(json["suspects"][0]["path"].as_str().unwrap().ends_with("ads_xiyouji_000.txt"));
    // ...and the HTML report through the same code as the CLI.
    let html = export.with_extension("html");
    let ctx = h.ctx.clone();
    h.state_mut().apply(&ctx, zhiwen::gui::Action::ExportTo(html.clone()));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("第一回　灵根育孕源流出　心性修持大道生"));
    assert_eq!(page.matches("class=\"passage\"").count(), passages);
}

#[test]
fn unreadable_suspects_show_their_error_and_the_language_switches() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_harness(dir.path().join("corpus.sqlite"), dir.path().join("r.json"));
    h.step();
    drop_to_check(&mut h, &suspect("binary.txt"));
    step_until(&mut h, "the check", |a| a.results.len() == 1);
    // In the results list and in the viewer.
    assert!(h.query_all_by_label_contains("binary file (contains NUL bytes)").count() >= 1);

    h.state_mut().settings.lang = zhiwen::gui::i18n::Lang::Zh;
    h.run_steps(2);
    h.get_by_label("导入文件夹…");
    h.get_by_label("检测文件…");
}

/// A harness with the fixture corpus imported (through the button and the stubbed dialog).
fn imported_harness(dir: &Path) -> Harness<'static, ZhiwenApp> {
    let mut h = app_harness(dir.join("corpus.sqlite"), dir.join("r.json"));
    h.step();
    h.get_by_label("Import folder…").click();
    step_until(&mut h, "the import", |a| a.import.as_ref().is_some_and(|j| j.report.is_some()));
    h.get_by_label("Close").click();
    step_until(&mut h, "the corpus", |a| a.corpus.docs.len() == 5 && a.import.is_none());
    h
}

/// An app at rest draws nothing: once the corpus table, and then the viewer, have settled,
/// no frame asks for another (a title sent every frame once kept the idle app at 180% CPU).
#[test]
fn a_settled_app_requests_no_more_frames() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = imported_harness(dir.path());
    let settled = |h: &mut Harness<'_, ZhiwenApp>, what: &str| {
        let steps = h.try_run().unwrap_or_else(|e| panic!("{what} never settles: {e}"));
        assert!(steps <= 10, "{what}: {steps} frames to settle");
    };
    settled(&mut h, "the corpus table");
    drop_to_check(&mut h, &suspect("ads_xiyouji_000.txt"));
    step_until(&mut h, "the check", |a| a.results.len() == 1 && a.viewer.is_some());
    settled(&mut h, "the viewer");
    h.key_press(eframe::egui::Key::N);
    settled(&mut h, "the viewer after moving to the next passage");
}

#[test]
fn corpus_table_searches_sorts_and_removes() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = imported_harness(dir.path());
    // Search narrows the table to matching titles.
    let search = h.get_by_role(eframe::egui::accesskit::Role::TextInput);
    search.click();
    search.type_text("灵根");
    h.run_steps(3);
    assert!(h.query_by_label("第一回　灵根育孕源流出　心性修持大道生").is_some());
    assert!(h.query_by_label("第一回 甄士隐梦幻识通灵　贾雨村风尘怀闺秀").is_none());
    h.state_mut().search.clear();
    h.run_steps(2);
    // Sorting by title, then the other way.
    h.get_by_label("Title").click();
    h.run_steps(2);
    assert_eq!(h.state().sort, (zhiwen::gui::panels::corpus::SortBy::Title, true));
    h.get_by_label("Title ▲").click();
    h.run_steps(2);
    assert!(!h.state().sort.1, "descending after a second click");
    // Select a row and remove it.
    h.get_by_label("第一回 甄士隐梦幻识通灵　贾雨村风尘怀闺秀").click();
    h.run_steps(2);
    assert_eq!(h.state().selected_docs.len(), 1);
    // Removal asks first; Cancel keeps the document.
    h.get_by_label("Remove selected (1)").click();
    h.run_steps(2);
    h.get_by_label_contains("1 documents will be removed");
    h.get_by_label("Cancel").click();
    h.run_steps(3);
    assert_eq!(h.state().corpus.docs.len(), 5);
    assert!(h.query_by_label_contains("will be removed").is_none());
    h.get_by_label("Remove selected (1)").click();
    h.run_steps(2);
    h.get_by_label("Remove").click();
    step_until(&mut h, "the removal", |a| a.corpus.docs.len() == 4);
    assert!(h.query_by_label("第一回 甄士隐梦幻识通灵　贾雨村风尘怀闺秀").is_none());
    h.get_by_label_contains("4 documents");
}

/// The corpus tab is a tree of works (work ▸ chapters in order) whose fields are edited and
/// whose chapters are regrouped in place, through the engine calls `zhiwen works` uses.
#[test]
fn the_corpus_is_a_tree_of_works_edited_and_regrouped_in_place() {
    use zhiwen::gui::panels::corpus::{Row, rows, work_label};
    let dir = tempfile::tempdir().unwrap();
    let mut h = imported_harness(dir.path());
    step_until(&mut h, "the works", |a| a.corpus.works.len() == 3);
    let lines = |h: &Harness<'_, ZhiwenApp>| -> Vec<String> {
        let app = h.state();
        rows(app)
            .into_iter()
            .map(|r| match r {
                Row::Work(i) => work_label(&app.corpus.works[i]),
                Row::Document(i) => format!("  {}", zhiwen::report::file_name(&app.corpus.docs[i].path)),
            })
            .collect()
    };
    // Each work is followed by its chapters in chapter order.
    let tree = lines(&h);
    assert_eq!(tree.len(), 8, "{tree:?}");
    let at = tree.iter().position(|l| l == "《三国演义》 罗贯中").unwrap();
    assert_eq!(tree[at + 1..at + 4], ["  sanguoyanyi_000.txt", "  sanguoyanyi_001.txt", "  sanguoyanyi_002.txt"]);
    h.get_by_label("《西游记》 吴承恩");
    // Folding a work hides its chapters.
    h.query_all_by_label("▼").next().unwrap().click();
    h.run_steps(2);
    let first_chapters = tree.iter().skip(1).take_while(|l| l.starts_with("  ")).count();
    assert_eq!(lines(&h).len(), 8 - first_chapters, "{:?}", lines(&h));
    h.state_mut().corpus_tree.collapsed.clear();
    h.run_steps(2);

    // Editing a work: a second author, saved to the store.
    h.get_by_label("《红楼梦》 曹雪芹").click();
    h.run_steps(2);
    h.get_by_label("Authors").click();
    h.run_steps(1);
    h.get_by_label("Authors").type_text("，脂砚斋");
    h.run_steps(1);
    h.get_by_label("Save").click();
    step_until(&mut h, "the edit", |a| a.corpus.works.iter().any(|w| w.authors == ["曹雪芹", "脂砚斋"]));
    h.get_by_label("《红楼梦》 曹雪芹、脂砚斋");

    // Moving a chapter to a new work named after it, then merging that work back.
    h.get_by_label("Close").click();
    h.run_steps(2);
    h.get_by_label("第三回　议温明董卓叱丁原　馈金珠李肃说吕布").click();
    h.run_steps(2);
    assert_eq!(h.state().selected_docs.len(), 1);
    h.get_by_label("Move").click();
    step_until(&mut h, "the move", |a| a.corpus.works.len() == 4);
    let sanguo = |a: &ZhiwenApp| a.corpus.works.iter().find(|w| w.title == "三国演义").unwrap().clone();
    assert_eq!(sanguo(h.state()).documents.len(), 2);
    let moved = h.state().corpus.works.iter().find(|w| w.title.starts_with("第三回")).unwrap().clone();
    assert_eq!(moved.authors, ["罗贯中"], "a new work takes the moved chapter's work's fields");
    h.get_by_label(&work_label(&moved)).click();
    h.run_steps(2);
    h.state_mut().corpus_tree.merge_into = Some(sanguo(h.state()).id);
    h.run_steps(1);
    h.get_by_label("Merge").click();
    step_until(&mut h, "the merge", |a| a.corpus.works.len() == 3);
    let tree = lines(&h);
    let at = tree.iter().position(|l| l == "《三国演义》 罗贯中").unwrap();
    assert!(tree[at + 1..at + 4].contains(&"  sanguoyanyi_002.txt".to_string()), "{tree:?}");
    // The store agrees (a new app on it shows the same works).
    let works = zhiwen::Corpus::open(&dir.path().join("corpus.sqlite")).unwrap().works().unwrap();
    assert_eq!(works.len(), 3);
    assert!(works.iter().any(|w| w.authors == ["曹雪芹", "脂砚斋"]));
}

/// A notice asks a website's host to take pages down: ticked file findings disable it and
/// say why in plain words (it answered "invalid setting: …").
#[test]
fn a_notice_is_refused_for_file_findings_in_plain_words() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = imported_harness(dir.path());
    drop_to_check(&mut h, &suspect("ads_xiyouji_000.txt"));
    step_until(&mut h, "the finding", |a| a.findings.len() == 1 && a.checks_running == 0);
    h.get_by_label("Findings (1)").click();
    h.run_steps(2);
    let id = h.state().findings[0].id;
    h.get_by_label(&id.to_string()).click();
    h.run_steps(2);
    h.get_by_label_contains("1 of the ticked findings are files, not web pages");
    h.get_by_label("Notice…").click();
    h.run_steps(3);
    assert!(h.state().notice.is_none());
    assert!(!h.state().messages.iter().any(|m| m.contains("invalid setting")), "{:?}", h.state().messages);
}

/// Unrelated text that matches nothing: Han characters from a pseudo-random sequence, in lines.
fn filler(chars: usize, seed: u64) -> String {
    let pool: Vec<char> = "天地玄黄宇宙洪荒日月盈昃辰宿列张寒来暑往秋收冬藏闰余成岁律吕调阳云腾致雨露结为霜金生丽水玉出昆冈剑号巨阙珠称夜光果珍李柰菜重芥姜海咸河淡鳞潜羽翔龙师火帝鸟官人皇始制文字乃服衣裳推位让国有虞陶唐吊民伐罪周发殷汤坐朝问道垂拱平章爱育黎首臣伏戎羌遐迩一体率宾归王鸣凤在竹白驹食场化被草木赖及万方".chars().collect();
    let mut x = seed;
    let mut out = String::with_capacity(chars * 3);
    for i in 0..chars {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        out.push(pool[(x >> 33) as usize % pool.len()]);
        if i % 60 == 59 {
            out.push('\n');
        }
    }
    out
}

/// A long suspect (400,000 characters before the copy) opens with the suspect side at
/// passage #1, and Next/Previous scroll both sides there.
#[test]
fn a_long_suspect_opens_at_its_first_passage() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = imported_harness(dir.path());
    let chapter = std::fs::read_to_string(fixtures().join("corpus/xiyouji_000.txt")).unwrap();
    let long = dir.path().join("long.txt");
    std::fs::write(&long, format!("{}\n{chapter}\n{}", filler(400_000, 7), filler(20_000, 9))).unwrap();
    drop_to_check(&mut h, &long);
    step_until(&mut h, "the long check", |a| a.results.len() == 1 && a.viewer.is_some() && a.checks_running == 0);
    h.run_steps(12);
    let first = |h: &Harness<'_, ZhiwenApp>| {
        let a = h.state();
        let v = a.viewer.as_ref().unwrap();
        let p = &a.results[v.result].outcome.report.sources[v.source].passages[v.passage];
        (v.left.first_visible(), p.suspect_start, v.right.first_visible(), p.source_start)
    };
    let (left, start, _, _) = first(&h);
    assert!(start > 400_000, "passage #1 starts at {start}");
    assert!(left + 2_000 > start && left <= start, "the suspect side shows character {left}, passage #1 is at {start}");

    // Scrolling the suspect through the passage brings the source along (linked scrolling).
    assert!(h.state().settings.link_scrolling);
    let (_, _, right_before, _) = first(&h);
    use eframe::egui::{Event, Modifiers, MouseWheelSource, MouseWheelUnit, TouchPhase, vec2};
    for _ in 0..10 {
        h.input_mut().events.push(Event::PointerMoved(eframe::egui::pos2(850.0, 500.0)));
        h.input_mut().events.push(Event::MouseWheel {
            unit: MouseWheelUnit::Point,
            delta: vec2(0.0, -200.0),
            phase: TouchPhase::Move,
            source: MouseWheelSource::Unknown,
            modifiers: Modifiers::NONE,
        });
        h.run_steps(3);
    }
    h.run_steps(10);
    let (left, start, right, source_start) = first(&h);
    assert!(left > start + 100, "the suspect side moved into the passage: {left} (passage at {start})");
    assert!(right > right_before && right > source_start + 50, "the source side followed: {right_before} → {right}");
}

/// Status messages clear themselves after a while; a new one shows again.
#[test]
fn status_messages_clear_themselves() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_harness(dir.path().join("corpus.sqlite"), dir.path().join("r.json"));
    h.step();
    h.state_mut().messages.push("Report written to r.html".into());
    h.run_steps(2);
    h.get_by_label("Report written to r.html");
    // As if the message had been shown longer than it is shown for.
    let (n, at) = h.state().message_shown.unwrap();
    let long_ago = at.checked_sub(zhiwen::gui::app::MESSAGE_SHOWN_FOR + Duration::from_secs(1)).unwrap();
    h.state_mut().message_shown = Some((n, long_ago));
    h.run_steps(2);
    assert!(h.query_by_label("Report written to r.html").is_none());
    h.state_mut().messages.push("Exported r.csv".into());
    h.run_steps(2);
    h.get_by_label("Exported r.csv");
}

/// With Follow links ticked, a chapter link (not a contents page) and a contents page that
/// answers 404 are each said: in the results with their error and in the status bar.
#[test]
fn failed_web_checks_are_said_in_the_results_and_the_status_bar() {
    let dir = tempfile::tempdir().unwrap();
    let site = crate::web::serve();
    let mut h = imported_harness(dir.path());
    h.state_mut().settings.proxy = "none".into();
    h.state_mut().settings.crawl_delay = 0.0;
    h.state_mut().tab = zhiwen::gui::app::Tab::Checks;
    h.state_mut().follow_links = true;
    h.state_mut().url_input = format!("{}/no/such/book/", site.base);
    h.run_steps(1);
    h.get_by_label("Check page").click();
    step_until(&mut h, "the missing contents page", |a| a.checks_running == 0 && !a.results.is_empty());
    let r = &h.state().results[0].outcome.report;
    assert!(r.error.as_deref().is_some_and(|e| e.contains("404")), "{r:?}");
    assert!(h.state().messages.last().is_some_and(|m| m.contains("404")), "{:?}", h.state().messages);
    h.run_steps(2);
    assert!(h.query_all_by_label_contains("404").count() >= 2, "in its row and in the status bar");

    // A chapter page (no chapter links on it) with Follow links: checked, or said why not.
    h.state_mut().url_input = format!("{}/book/1/4b.html", site.base);
    h.run_steps(1);
    h.get_by_label("Check page").click();
    step_until(&mut h, "the followed chapter", |a| a.checks_running == 0 && a.results.len() == 2);
    let r = &h.state().results[1].outcome.report;
    match &r.error {
        Some(e) => assert!(h.state().messages.iter().any(|m| m.contains(e.as_str())), "{e} not said"),
        None => assert!(!r.sources.is_empty(), "{r:?}"),
    }
}

/// The app runs its watches with sites in parallel, as `watch run` does: a slow site does not
/// hold up a fast one.
#[test]
fn the_app_runs_watches_of_different_sites_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let (slow, slow_log, _s) = crate::watch::slow_site(
        "127.0.0.53",
        &[("1", "sanguoyanyi_000.txt"), ("2", "sanguoyanyi_001.txt"), ("3", "sanguoyanyi_002.txt")],
        Duration::from_millis(1500),
    );
    let (fast, fast_log, _f) = crate::watch::slow_site("127.0.0.54", &[("1", "xiyouji_000.txt")], Duration::ZERO);
    let mut h = imported_harness(dir.path());
    h.state_mut().settings.crawl_delay = 0.0;
    h.state_mut().settings.proxy = "none".into();
    // Both added to the store at once (the CLI's way), then run from the dashboard.
    let mut corpus = zhiwen::Corpus::open(&dir.path().join("corpus.sqlite")).unwrap();
    for url in [&slow, &fast] {
        let watch = zhiwen::engine::store::watch::NewWatch {
            url: format!("{url}/book/"),
            label: String::new(),
            follow: true,
            every_secs: zhiwen::engine::store::watch::DAILY,
        };
        corpus.store_mut().add_watch(&watch, 0).unwrap();
    }
    drop(corpus);
    // What *Run due watches* does (the dashboard lists the watches once it has heard of them).
    h.state_mut().actions.push(zhiwen::gui::app::Action::RunWatches(Vec::new()));
    step_until(&mut h, "both runs", |a| !a.watch_running && a.watching.picture.as_ref().is_some_and(|p| p.copies == 4));
    let last = |log: &crate::watch::RequestLog| log.lock().unwrap().iter().map(|(_, t)| *t).max().unwrap();
    assert!(last(&fast_log) < last(&slow_log), "the fast site waited for the slow one");
    assert!(h.state().messages.iter().any(|m| m.contains("3 new")), "{:?}", h.state().messages);
}

#[test]
fn settings_apply_reset_and_theme() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_harness(dir.path().join("corpus.sqlite"), dir.path().join("r.json"));
    h.step();
    h.get_by_label("Settings").click();
    h.run_steps(5);
    assert!(h.state().show_settings);
    // Every setting explains itself in plain words when hovered.
    for (label, words) in [
        ("Maximum distance (bits)", "64 bits may differ"),
        ("Minimum evidence (bits)", "about 4 bits per Chinese character"),
        ("Step (units)", "How far apart fingerprints start"),
        ("Windows at content anchors (about 2-4× faster checks)", "inserted or deleted by a pirate"),
    ] {
        h.get_by_label(label).hover();
        h.run_steps(30);
        assert!(h.query_by_label_contains(words).is_some(), "no explanation of {label} when hovered");
    }
    h.state_mut().draft.check.min_passage_chars = 120;
    h.state_mut().draft.check.max_distance = 4;
    h.get_by_label("Apply").click();
    h.run_steps(2);
    assert_eq!(h.state().settings.check.min_passage_chars, 120);
    assert_eq!(h.state().settings.check.max_distance, 4);
    assert!(!h.state().show_settings);
    // Reset to defaults, then apply.
    h.get_by_label("Settings").click();
    h.run_steps(5);
    h.get_by_label("Reset to defaults").click();
    h.get_by_label("Apply").click();
    h.run_steps(2);
    assert_eq!(h.state().settings.check, zhiwen::CheckOptions::default());
    // Theme toggle.
    h.get_by_label("Dark").click();
    h.run_steps(2);
    assert_eq!(h.state().settings.theme, zhiwen::gui::settings::Theme::Dark);
    assert!(h.ctx.global_style().visuals.dark_mode);
    h.get_by_label("Light").click();
    h.run_steps(2);
    assert_eq!(h.state().settings.theme, zhiwen::gui::settings::Theme::Light);
}

#[test]
fn cancelling_an_import_stops_it_promptly_and_keeps_the_committed_batches() {
    let dir = tempfile::tempdir().unwrap();
    let works = many_files(dir.path(), 1500);
    let db = dir.path().join("corpus.sqlite");
    let mut h = app_harness_importing(db.clone(), works, dir.path().join("r.json"));
    h.step();
    h.get_by_label("Import folder…").click();
    // Cancel once the first batch (256 files) is in the store.
    step_until(&mut h, "the first batch", |_| doc_count(&db) > 0);
    h.get_by_label("Cancel").click();
    let cancelled_at = Instant::now();
    step_until(&mut h, "the cancel", |a| a.import.as_ref().is_some_and(|j| j.report.is_some()));
    assert!(cancelled_at.elapsed() < Duration::from_secs(20), "the cancel took {:?}", cancelled_at.elapsed());
    let report = h.state().import.as_ref().unwrap().report.clone().unwrap();
    assert!(report.cancelled);
    h.get_by_label("Import cancelled: the files imported before the cancel are kept");
    let kept = doc_count(&db);
    assert!(kept > 0 && kept < 1500 && kept.is_multiple_of(256), "whole batches only, some but not all: {kept}");
    assert_eq!(report.imported.len(), kept, "the report counts what was kept");
    h.get_by_label("Close").click();
    step_until(&mut h, "the corpus table", |a| a.corpus.docs.len() == kept && a.import.is_none());
    assert!(h.state().messages.is_empty(), "{:?}", h.state().messages);
    let store = zhiwen::engine::store::Store::open(&db, Default::default()).unwrap();
    assert_eq!(store.verify().unwrap(), Vec::<String>::new());
}

#[test]
fn the_cli_imports_while_the_app_is_open_and_the_app_picks_the_documents_up() {
    let dir = tempfile::tempdir().unwrap();
    let works = many_files(dir.path(), 400);
    let db = dir.path().join("corpus.sqlite");
    let mut h = app_harness(db.clone(), dir.path().join("r.json"));
    h.step();
    // The CLI imports in small batches (many write transactions) while the app imports
    // the fixture corpus and checks a suspect against the same store.
    let mut cli = std::process::Command::new(assert_cmd::cargo::cargo_bin("zhiwen"))
        .arg("--db")
        .arg(&db)
        .args(["import", "--quiet", "--batch", "4"])
        .arg(&works)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    h.get_by_label("Import folder…").click();
    step_until(&mut h, "the app's import", |a| a.import.as_ref().is_some_and(|j| j.report.is_some()));
    h.get_by_label("Close").click();
    drop_to_check(&mut h, &suspect("ads_xiyouji_000.txt"));
    step_until(&mut h, "the check", |a| a.results.len() == 1);
    assert!(h.state().results[0].outcome.report.error.is_none());
    let status = cli.wait().unwrap();
    let mut cli_err = String::new();
    std::io::Read::read_to_string(cli.stderr.as_mut().unwrap(), &mut cli_err).unwrap();
    assert!(status.success(), "the CLI failed: {cli_err}");
    // The app notices the other process's commits and shows all documents.
    step_until(&mut h, "the CLI's documents", |a| a.corpus.docs.len() == 405);
    let shown = h.state().messages.join("\n");
    assert!(!shown.to_lowercase().contains("locked") && shown.is_empty(), "messages: {shown}");
    assert!(!cli_err.to_lowercase().contains("locked"), "{cli_err}");
    let store = zhiwen::engine::store::Store::open(&db, Default::default()).unwrap();
    assert_eq!(store.verify().unwrap(), Vec::<String>::new());
}

#[test]
fn a_store_on_a_read_only_disk_is_shown_and_an_import_says_why_it_cannot() {
    let dir = tempfile::tempdir().unwrap();
    let Some((_disk, db)) = read_only_store(dir.path()) else { return };
    let mut h = app_harness(db, dir.path().join("r.json"));
    step_until(&mut h, "the corpus", |a| a.corpus.docs.len() == 5);
    h.get_by_label("Import folder…").click();
    step_until(&mut h, "the refusal", |a| !a.messages.is_empty() && a.import.is_none());
    let shown = h.state().messages.join("\n");
    assert!(shown.contains("is read-only") && shown.contains("corpus.sqlite"), "{shown}");
    // In the status bar, with the import dialog closed and the corpus still listed.
    h.get_by_label_contains("is read-only");
    assert_eq!(h.state().corpus.docs.len(), 5);
}

/// Frame times while a large import runs in the background: a benchmark, not a test
/// (`cargo test --test tests gui_frame_times -- --ignored --nocapture`).
#[test]
#[ignore]
fn gui_frame_times_while_importing() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/zh-news-2018");
    let dir = tempfile::tempdir().unwrap();
    let mut app = ZhiwenApp::new(&eframe::egui::Context::default(), dir.path().join("c.sqlite"), Settings::default());
    app.dialogs = Arc::new(Box::new(move |_, _| Ok(Some(vec![data.clone()]))));
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .with_context_setup(zhiwen::gui::install_fonts)
        .build_ui_state(|ui, app: &mut ZhiwenApp| app.show(ui), app);
    h.step();
    h.get_by_label("Import folder…").click();
    let mut times = Vec::new();
    let start = Instant::now();
    while h.state().import.as_ref().is_none_or(|j| j.report.is_none()) && start.elapsed() < Duration::from_secs(120) {
        let t = Instant::now();
        h.step();
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        std::thread::sleep(Duration::from_millis(16));
    }
    times.sort_by(f64::total_cmp);
    let pct = |p: f64| times[((times.len() - 1) as f64 * p) as usize];
    println!(
        "{{\"bench\":\"gui-frames-while-importing\",\"frames\":{},\"median_ms\":{:.2},\"p99_ms\":{:.2},\"max_ms\":{:.2}}}",
        times.len(),
        pct(0.5),
        pct(0.99),
        pct(1.0)
    );
}

/// A batch of results triaged: the summary, sorting by a header, filters, the works
/// table, keyboard navigation and *Export all*.
#[test]
fn triage_of_a_batch_sorts_filters_groups_navigates_and_exports_all() {
    use zhiwen::gui::panels::checks::{ResultSort, visible, works};
    let dir = tempfile::tempdir().unwrap();
    let mut h = imported_harness(dir.path());
    let reports = dir.path().join("all-reports");
    let target = reports.clone();
    h.state_mut().dialogs = Arc::new(Box::new(move |d, _| Ok((d == Dialog::ExportAll).then(|| vec![target.clone()]))));
    drop_to_check(&mut h, &fixtures().join("suspects"));
    step_until(&mut h, "the batch", |a| a.results.len() == 9 && a.checks_running == 0);
    h.run_steps(2);
    // 9 suspects, 4 copy something, binary.txt and empty.txt cannot be read.
    h.get_by_label_contains("Suspects 9 · With copies 4 · Errors 2 · Works copied 3");

    // Sort by similarity (highest first), then reverse with a second click.
    h.get_by_label("Similarity").click();
    h.run_steps(2);
    assert_eq!(h.state().triage.sort, ResultSort::Similarity);
    let sims = |h: &Harness<'_, ZhiwenApp>| -> Vec<f64> {
        visible(h.state()).iter().map(|&i| h.state().results[i].outcome.report.similarity).collect()
    };
    let order = sims(&h);
    assert!(order.windows(2).all(|w| w[0] >= w[1]), "{order:?}");
    assert!(order[0] > 0.9);
    h.get_by_label("Similarity ▼").click();
    h.run_steps(2);
    let order = sims(&h);
    assert!(order.windows(2).all(|w| w[0] <= w[1]), "{order:?}");

    // Filters: copies only, a threshold, text.
    h.get_by_label("Copies only").click();
    h.run_steps(2);
    assert_eq!(visible(h.state()).len(), 4);
    h.state_mut().triage.min_similarity = 90.0;
    h.run_steps(2);
    let strong = visible(h.state()).len();
    assert!((1..4).contains(&strong), "{strong}");
    h.state_mut().triage.min_similarity = 0.0;
    h.get_by_label("Filter:").click();
    h.run_steps(1);
    h.get_by_label("Filter:").type_text("hongloumeng");
    h.run_steps(2);
    let found = visible(h.state());
    assert_eq!(found.len(), 1);
    assert!(h.state().results[found[0]].outcome.report.path.contains("gbk_homophones_hongloumeng_000"));
    h.state_mut().triage.search.clear();

    // By work: the books copied (chapters of one novel are one row, named by its title and
    // author), each with the suspects that copy it.
    h.get_by_label("By work").click();
    h.run_steps(2);
    let ws = works(h.state());
    let titles: Vec<&str> = ws.iter().map(|w| w.title.as_str()).collect();
    assert_eq!(ws.len(), 3, "{ws:?}");
    assert_eq!(titles[0], "《三国演义》 罗贯中", "{ws:?}");
    assert_eq!(ws[0].suspects, 2, "the excerpt and the traditional-script copy: {ws:?}");
    assert!(titles.contains(&"《西游记》 吴承恩") && titles.contains(&"《红楼梦》 曹雪芹"), "{titles:?}");
    assert!(ws.iter().all(|w| w.best > 0.05), "{ws:?}");
    let xiyouji = ws.iter().find(|w| w.title.contains("西游记")).unwrap().clone();
    h.get_by_label(&xiyouji.title).click();
    h.run_steps(2);
    assert_eq!(h.state().triage.work, Some(xiyouji.key));
    let copying = visible(h.state());
    assert_eq!(copying.len(), 1);
    assert!(h.state().results[copying[0]].outcome.report.path.ends_with("ads_xiyouji_000.txt"));
    h.get_by_label("All suspects").click();
    h.run_steps(2);

    // Keyboard: J and K walk the list in the order shown.
    h.state_mut().triage.copies_only = false;
    h.run_steps(2);
    let shown = visible(h.state());
    let at = |h: &Harness<'_, ZhiwenApp>| h.state().viewer.as_ref().map(|v| v.result);
    let start = shown.iter().position(|&i| Some(i) == at(&h)).unwrap();
    h.key_press(eframe::egui::Key::J);
    h.run_steps(2);
    assert_eq!(at(&h), Some(shown[start + 1]));
    h.key_press(eframe::egui::Key::K);
    h.run_steps(2);
    assert_eq!(at(&h), Some(shown[start]));

    // Export all: one report per suspect and an index, as the CLI writes them.
    h.get_by_label("Export all…").click();
    step_until(&mut h, "the export", |_| reports.join("index.html").exists());
    let files = std::fs::read_dir(&reports).unwrap().count();
    assert_eq!(files, 10);
    let index = std::fs::read_to_string(reports.join("index.html")).unwrap();
    assert!(index.contains("ads_xiyouji_000"), "{index}");
}

/// Without an XDG portal or zenity the native dialog cannot open: the app says why, opens
/// its own dialog in its place (and from then on directly), and remembers the folder.
#[test]
fn a_native_dialog_that_cannot_open_falls_back_to_the_in_app_dialog() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_harness(dir.path().join("corpus.sqlite"), dir.path().join("r.json"));
    let tries = Arc::new(AtomicUsize::new(0));
    let counted = tries.clone();
    h.state_mut().dialogs = Arc::new(Box::new(move |_, _| {
        counted.fetch_add(1, Ordering::SeqCst);
        Err("the system file dialog could not open (it needs an XDG desktop portal or zenity)".into())
    }));
    h.step();
    h.get_by_label("Import folder…").click();
    step_until(&mut h, "the fallback dialog", |a| a.file_dialog.is_some());
    h.run_steps(2);
    assert!(h.state().settings.builtin_dialogs);
    h.get_by_label_contains(
        "could not open (it needs an XDG desktop portal or zenity): using Zhiwen's own file dialog",
    );

    // Choose the corpus folder in the in-app dialog.
    h.state_mut().file_dialog.as_mut().unwrap().1.set_path(corpus_dir());
    h.run_steps(2);
    h.get_by_label("Open").click();
    step_until(&mut h, "the import", |a| a.import.as_ref().is_some_and(|j| j.report.is_some()));
    h.get_by_label("Close").click();
    step_until(&mut h, "the corpus", |a| a.corpus.docs.len() == 5);
    assert!(h.state().file_dialog.is_none());
    assert_eq!(h.state().settings.recent_folders, vec![corpus_dir()]);

    // The next dialog is the in-app one at once, starting in the folder used last.
    h.get_by_label("Check files…").click();
    h.run_steps(2);
    let (dialog, d) = h.state().file_dialog.as_ref().unwrap();
    assert_eq!(*dialog, Dialog::CheckFiles);
    assert_eq!(d.directory(), corpus_dir());
    assert_eq!(tries.load(Ordering::SeqCst), 1, "the native dialog is not tried again");
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert!(h.state().file_dialog.is_none());
}

/// Two drop zones: where the pointer is decides, and without a known pointer the tab does
/// (the corpus tab adds, the checks tab checks).
#[test]
fn dropped_files_go_to_the_zone_under_the_pointer_or_the_tabs_default() {
    use zhiwen::gui::panels::drop_zone::{DropZone, zone};
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_harness(dir.path().join("corpus.sqlite"), dir.path().join("r.json"));
    h.step();
    // The corpus tab, no pointer in the window: the folder is added to the corpus.
    h.input_mut().events.push(eframe::egui::Event::PointerGone);
    h.input_mut().hovered_files.push(eframe::egui::HoveredFile { path: Some(corpus_dir()), mime: String::new() });
    h.run_steps(2);
    h.get_by_label("Import them as your works");
    assert_eq!(zone(h.state(), &h.ctx), DropZone::AddToCorpus);
    h.input_mut().hovered_files.clear();
    h.input_mut().dropped_files.push(Arc::new(Dropped(corpus_dir())));
    step_until(&mut h, "the import", |a| a.import.as_ref().is_some_and(|j| j.report.is_some()));
    h.get_by_label("Close").click();
    step_until(&mut h, "the corpus", |a| a.corpus.docs.len() == 5 && a.import.is_none());
    assert!(h.state().results.is_empty(), "nothing was checked");
    assert_eq!(h.state().settings.recent_folders, vec![corpus_dir()]);

    // The right half checks, even on the corpus tab.
    drop_to_check(&mut h, &suspect("traditional_sanguoyanyi_001.txt"));
    step_until(&mut h, "the check", |a| a.results.len() == 1 && a.checks_running == 0);
    assert_eq!(h.state().corpus.docs.len(), 5);

    // Now on the checks tab: without a pointer a drop checks, the left half adds.
    assert_eq!(h.state().tab, zhiwen::gui::app::Tab::Checks);
    h.input_mut().events.push(eframe::egui::Event::PointerGone);
    h.input_mut().hovered_files.push(eframe::egui::HoveredFile { path: None, mime: String::new() });
    h.run_steps(2);
    assert_eq!(zone(h.state(), &h.ctx), DropZone::Check);
    h.input_mut().hovered_files.clear();
    h.step();
    let extra = dir.path().join("new_work.txt");
    std::fs::copy(fixtures().join("precision/suspects/laundered_xiyouji_000.txt"), &extra).unwrap();
    drop_at(&mut h, &extra, eframe::egui::pos2(200.0, 400.0));
    step_until(&mut h, "the second import", |a| a.import.as_ref().is_some_and(|j| j.report.is_some()));
    h.get_by_label("Close").click();
    step_until(&mut h, "the corpus", |a| a.corpus.docs.len() == 6);
    assert_eq!(h.state().results.len(), 1);
}

/// A web page checked from the URL field is kept as a finding; the Findings tab lists it
/// after a restart, opens it without fetching again and exports its evidence.
#[test]
fn web_pages_checked_in_the_app_are_kept_as_findings_across_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let site = crate::web::serve();
    let page = format!("{}/book/1/2.html", site.base);
    {
        let mut h = imported_harness(dir.path());
        h.state_mut().settings.crawl_delay = 0.1;
        h.state_mut().settings.proxy = "none".into();
        h.get_by_label("Checks (0)").click();
        h.run_steps(2);
        h.state_mut().url_input = page.clone();
        h.run_steps(1);
        h.get_by_label("Check page").click();
        step_until(&mut h, "the web check", |a| {
            a.results.len() == 1 && a.checks_running == 0 && !a.findings.is_empty()
        });
        let report = &h.state().results[0].outcome.report;
        assert!(report.sources[0].path.ends_with("sanguoyanyi_001.txt"), "{report:?}");
        let web = report.web.as_ref().unwrap();
        assert_eq!(web.url, page);
        assert_eq!(web.finding_id, Some(h.state().findings[0].id));
        h.get_by_label("Findings (1)").click();
        h.run_steps(2);
        h.get_by_label(&page);
    }
    let fetched = site.paths().len();

    // After a restart: listed, opened from the library, its evidence exported.
    let zip = dir.path().join("evidence.zip");
    let mut h = app_harness(dir.path().join("corpus.sqlite"), dir.path().join("r.json"));
    let target = zip.clone();
    h.state_mut().dialogs =
        Arc::new(Box::new(move |d, _| Ok((d == Dialog::SaveEvidence).then(|| vec![target.clone()]))));
    step_until(&mut h, "the findings", |a| a.findings.len() == 1);
    h.get_by_label("Findings (1)").click();
    h.run_steps(2);
    h.get_by_label("Open").click();
    step_until(&mut h, "the finding in the viewer", |a| a.results.len() == 1 && a.viewer.is_some());
    // Opened twice, it is listed once.
    h.get_by_label("Findings (1)").click();
    h.run_steps(2);
    h.get_by_label("Open").click();
    step_until(&mut h, "the finding in the viewer again", |a| {
        a.tab == zhiwen::gui::app::Tab::Checks && a.viewer.is_some()
    });
    h.run_steps(3);
    assert_eq!(h.state().results.len(), 1);
    let outcome = &h.state().results[0].outcome;
    assert!(outcome.report.sources[0].path.ends_with("sanguoyanyi_001.txt"));
    assert!(outcome.text.as_deref().unwrap().contains("张翼德怒鞭督邮"));
    assert_eq!(outcome.sources.len(), outcome.report.sources.len());
    h.get_by_label("Findings (1)").click();
    h.run_steps(2);
    h.get_by_label("Export evidence…").click();
    step_until(&mut h, "the evidence package", |_| zip.exists());
    let archive = zip::ZipArchive::new(std::fs::File::open(&zip).unwrap()).unwrap();
    for name in ["zhiwen/manifest.json", "datapackage.json", "archive/capture-1-page-1.warc.gz"] {
        assert!(archive.file_names().any(|n| n.is_ok_and(|n| n == name)), "{name}");
    }
    assert_eq!(site.paths().len(), fetched, "nothing was fetched after the restart");
}

/// A link dropped from a browser (the patched winit passes it as a "path" that is a URL)
/// or pasted into the window is checked, even when dropped on the corpus half; a site
/// being followed shows the page it is fetching, and Cancel stops it.
#[test]
fn dropped_and_pasted_links_are_checked_and_a_followed_site_can_be_cancelled() {
    let dir = tempfile::tempdir().unwrap();
    let site = crate::web::serve();
    let mut h = imported_harness(dir.path());
    h.state_mut().settings.proxy = "none".into();
    h.state_mut().settings.crawl_delay = 0.1;
    let documents = h.state().corpus.stats.documents;

    // While only links hover, the whole window is one check zone.
    let link = PathBuf::from(format!("{}/book/1/2.html", site.base));
    h.input_mut().hovered_files.push(eframe::egui::HoveredFile { path: Some(link.clone()), mime: String::new() });
    h.input_mut().events.push(eframe::egui::Event::PointerMoved(eframe::egui::pos2(100.0, 400.0)));
    h.run_steps(2);
    h.get_by_label("Fetch the linked pages and find copies of your works");
    assert!(h.query_by_label("Add to corpus").is_none());
    drop_at(&mut h, &link, eframe::egui::pos2(100.0, 400.0));
    step_until(&mut h, "the dropped link", |a| a.results.len() == 1 && a.checks_running == 0);
    assert!(h.state().results[0].outcome.report.sources[0].path.ends_with("sanguoyanyi_001.txt"));
    assert_eq!(h.state().results[0].outcome.report.web.as_ref().unwrap().url, link.to_str().unwrap());
    assert_eq!(h.state().corpus.stats.documents, documents, "a dropped link is never imported");

    h.input_mut().events.push(eframe::egui::Event::Paste(format!("{}/book/1/4b.html", site.base)));
    step_until(&mut h, "the pasted link", |a| a.results.len() == 2 && a.checks_running == 0);
    assert!(h.state().results[1].outcome.report.sources[0].path.ends_with("sanguoyanyi_002.txt"));

    // Follow the contents page slowly, and cancel once the first chapter is being fetched.
    h.state_mut().settings.crawl_delay = 1.0;
    h.state_mut().follow_links = true;
    h.state_mut().url_input = format!("{}/book/1/", site.base);
    h.run_steps(1);
    h.get_by_label("Check page").click();
    step_until(&mut h, "the first chapter", |a| a.fetching.as_deref().is_some_and(|u| u.ends_with(".html")));
    h.get_by_label_contains("Fetching http://127.0.0.1");
    h.get_by_label("Cancel").click();
    step_until(&mut h, "the cancelled crawl", |a| a.checks_running == 0);
    assert!(h.state().fetching.is_none());
    let chapters = h.state().results.len() - 2;
    assert!(chapters < 4, "{chapters} chapters checked after the cancel");
}

/// The dashboard: a watch added from the form runs at once (it is due), the picture shows
/// the copies per work and per site, the findings carry their status, and ticked findings
/// of one site make a notice that can be edited, marked as sent and exported.
#[test]
fn a_watched_site_fills_the_dashboard_and_its_findings_make_a_notice() {
    let dir = tempfile::tempdir().unwrap();
    let site = crate::web::serve();
    let notice_dir = dir.path().join("notice");
    let mut h = imported_harness(dir.path());
    let target = notice_dir.clone();
    h.state_mut().dialogs =
        Arc::new(Box::new(move |d, _| Ok((d == Dialog::ExportNotice).then(|| vec![target.clone()]))));
    h.state_mut().settings.crawl_delay = 0.05;
    h.state_mut().settings.proxy = "none".into();
    h.get_by_label("Dashboard").click();
    h.run_steps(2);
    h.get_by_label_contains("No watches yet");
    h.state_mut().new_watch.url = format!("{}/book/1/", site.base);
    h.state_mut().new_watch.label = "笔趣阁".into();
    h.run_steps(1);
    h.get_by_label("Watch").click();
    step_until(&mut h, "the watch", |a| a.watching.watches.len() == 1);
    // Due at once: the app runs it by itself.
    step_until(&mut h, "the first run", |a| {
        !a.watch_running && a.watching.picture.as_ref().is_some_and(|p| p.copies == 3)
    });
    let p = h.state().watching.picture.clone().unwrap();
    assert_eq!(p.sites.len(), 1);
    assert!(p.works.iter().any(|w| w.path.ends_with("xiyouji_000.txt") && w.pages == 1));
    h.run_steps(2);
    h.get_by_label_contains("3 pages copy your works, 3 still online, 1 sites");
    h.get_by_label("Per work");
    h.get_by_label("《西游记》 吴承恩");
    h.get_by_label_contains("+3 new");
    assert!(h.state().messages.iter().any(|m| m.contains("笔趣阁: 3 new")), "{:?}", h.state().messages);

    // Findings: the status column, and a notice from two ticked pages.
    h.get_by_label_contains("Findings (").click();
    h.run_steps(2);
    assert!(h.state().findings.iter().filter(|f| f.tracking.is_some()).count() == 3);
    let ids: Vec<i64> = h.state().findings.iter().filter(|f| f.tracking.is_some()).take(2).map(|f| f.id).collect();
    for id in &ids {
        h.get_by_label(&id.to_string()).click();
    }
    h.run_steps(1);
    h.get_by_label("Notice…").click();
    step_until(&mut h, "the notice", |a| a.notice.is_some());
    assert!(h.state().notice.as_ref().unwrap().text.contains("17 U.S.C. § 512(c)(3)"));
    h.get_by_label("通知书 (China)").click();
    step_until(&mut h, "the 通知书", |a| a.notice.as_ref().is_some_and(|n| n.text.contains("第十四条")));
    h.state_mut().notice.as_mut().unwrap().text.push_str("\n附：作品登记证书一份。\n");
    h.state_mut().notice.as_mut().unwrap().sent_to = "abuse@127.0.0.1".into();
    h.run_steps(1);
    h.get_by_label("Mark as sent").click();
    step_until(&mut h, "the notice recorded", |a| {
        a.findings.iter().filter(|f| f.tracking.as_ref().is_some_and(|t| t.notice_sent_at.is_some())).count() == 2
    });
    h.get_by_label("Export with evidence…").click();
    step_until(&mut h, "the exported notice", |_| notice_dir.join("notice-cn.txt").exists());
    let text = std::fs::read_to_string(notice_dir.join("notice-cn.txt")).unwrap();
    assert!(text.ends_with("附：作品登记证书一份。\n"), "the edited text is exported: {text}");
    for id in &ids {
        assert!(notice_dir.join(format!("evidence-{id}.zip")).is_file());
    }
}

/// The Duplicates tab finds a repost with its original, compares them side by side and
/// exports the groups; with *Compare the suspects with each other*, dropped essays that
/// copy each other come out as pairs.
#[test]
fn duplicates_are_grouped_compared_and_exported_and_suspects_are_compared_among_themselves() {
    let dir = tempfile::tempdir().unwrap();
    let works = dir.path().join("works");
    std::fs::create_dir_all(&works).unwrap();
    for name in ["xiyouji_000.txt", "sanguoyanyi_001.txt"] {
        std::fs::copy(corpus_dir().join(name), works.join(name)).unwrap();
    }
    let original = read_text(&corpus_dir().join("xiyouji_000.txt"));
    std::fs::write(works.join("repost.txt"), format!("【转载】\n{}", original.replacen("猴王", "美猴王", 2))).unwrap();
    let csv = dir.path().join("dups.csv");
    let mut h = app_harness_importing(dir.path().join("corpus.sqlite"), works.clone(), csv.clone());
    let target = csv.clone();
    h.step();
    h.get_by_label("Import folder…").click();
    step_until(&mut h, "the import", |a| a.import.as_ref().is_some_and(|j| j.report.is_some()));
    h.get_by_label("Close").click();
    step_until(&mut h, "the corpus", |a| a.corpus.docs.len() == 3 && a.import.is_none());
    h.state_mut().dialogs =
        Arc::new(Box::new(move |d, _| Ok((d == Dialog::SaveClusters).then(|| vec![target.clone()]))));

    h.get_by_label("Duplicates").click();
    h.run_steps(2);
    h.get_by_label("Find duplicates").click();
    step_until(&mut h, "the groups", |a| a.duplicates.found.is_some());
    let found = h.state().duplicates.found.clone().unwrap();
    assert_eq!(found.groups.len(), 1, "{found:?}");
    assert_eq!(found.groups[0].members.len(), 2);
    h.run_steps(2);
    h.get_by_label_contains("Group 1 · 2 ·");
    h.get_by_label("Export…").click();
    step_until(&mut h, "the export", |_| csv.exists());
    assert_eq!(std::fs::read_to_string(&csv).unwrap().lines().count(), 3);
    h.get_by_label("Compare").click();
    step_until(&mut h, "the comparison", |a| a.results.len() == 1 && a.viewer.is_some());
    let o = &h.state().results[0].outcome;
    let compared = pair_files(&format!("{} ↔ {}", o.report.path, o.report.sources[0].path));
    assert_eq!(compared, "repost.txt+xiyouji_000.txt");
    assert!(o.report.sources[0].similarity > 0.9);

    // Essays dropped with the switch on: the pairs that copy each other, and no others.
    h.get_by_label_contains("Checks (").click();
    h.run_steps(2);
    h.get_by_label("Compare the suspects with each other").click();
    h.run_steps(1);
    assert!(h.state().among);
    drop_to_check(&mut h, &fixtures().join("among"));
    step_until(&mut h, "the essays", |a| a.checks_running == 0 && a.results.len() > 1);
    let mut pairs: Vec<String> = h
        .state()
        .results
        .iter()
        .map(|r| r.outcome.report.path.clone())
        .filter(|p| p.contains(" ↔ "))
        .map(|p| pair_files(&p))
        .collect();
    pairs.sort();
    assert_eq!(pairs, ["essay_a.txt+essay_b.txt", "essay_a.txt+essay_c.txt", "essay_b.txt+essay_c.txt"]);

    // Compare again with other results listed: the comparison takes its old place and is
    // what the viewer shows (it was appended, with the old suspect left in the viewer).
    let listed = h.state().results.len();
    h.key_press(eframe::egui::Key::J);
    h.run_steps(2);
    assert_ne!(h.state().viewer.as_ref().map(|v| v.result), Some(0), "another result in the viewer");
    h.get_by_label("Duplicates").click();
    h.run_steps(2);
    h.get_by_label("Compare").click();
    step_until(&mut h, "the comparison shown again", |a| a.viewer.as_ref().is_some_and(|v| v.result == 0));
    let o = &h.state().results[0].outcome;
    assert_eq!(pair_files(&format!("{} ↔ {}", o.report.path, o.report.sources[0].path)), "repost.txt+xiyouji_000.txt");
    assert_eq!(h.state().results.len(), listed);
    // Clear empties the list and the viewer.
    h.get_by_label("Clear").click();
    h.run_steps(2);
    assert!(h.state().results.is_empty() && h.state().viewer.is_none());
    h.get_by_label("No checks yet.");
}

/// `/x/a.txt ↔ b.txt` as `a.txt+b.txt`, the two file names in order.
pub fn pair_files(pair: &str) -> String {
    let mut names: Vec<String> = pair
        .split(" ↔ ")
        .map(|p| std::path::Path::new(p).file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names.join("+")
}

/// A Spark run opens as results: each suspect with its sources' texts from the run's
/// export, in the side-by-side viewer, without the open store holding them.
#[test]
fn a_spark_run_opens_as_results_in_the_side_by_side_viewer() {
    let corpus = imported();
    let suspects = [suspect("ads_xiyouji_000.txt"), suspect("unrelated_rulinwaishi_003.txt")];
    let (run, _) = crate::scaleout::run_from_check(corpus.path(), &suspects);
    // Another, empty store is open: the texts come from the run.
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_harness(dir.path().join("other.sqlite"), dir.path().join("r.json"));
    h.state_mut().dialogs = Arc::new(Box::new(move |d, _| Ok((d == Dialog::OpenRun).then(|| vec![run.clone()]))));
    h.step();
    h.get_by_label("Open Spark run…").click();
    step_until(&mut h, "the run's results", |a| a.results.len() == 2 && a.viewer.is_some());
    let first = &h.state().results[0].outcome;
    assert!(first.report.path.ends_with("ads_xiyouji_000.txt"));
    assert_eq!(first.report.sources.len(), 1);
    assert!(first.report.sources[0].path.ends_with("xiyouji_000.txt"));
    assert_eq!(first.sources.len(), 1);
    let shown: usize = first.report.sources[0]
        .passages
        .iter()
        .map(|p| first.sources[0].1.chars().skip(p.source_start).take(p.source_end - p.source_start).count())
        .sum();
    assert!(shown > 1000, "the source's text is there to show: {shown} chars");
    assert!(h.state().results[1].outcome.report.sources.is_empty());
    assert!(h.state().messages.iter().any(|m| m.contains("2 suspects from the Spark run")), "{:?}", h.state().messages);
}

/// *Find copies on the web…* on a selected chapter: the search engine is asked for its
/// work, the sites found are learned, the copies land in Findings; without a search engine
/// set, the app says so and opens the settings.
#[test]
fn find_copies_on_the_web_from_the_corpus_tab() {
    let dir = tempfile::tempdir().unwrap();
    let web = crate::discover::fake_web();
    let mut h = app_harness_importing(
        dir.path().join("corpus.sqlite"),
        crate::discover::discovery_dir().join("works"),
        dir.path().join("r.json"),
    );
    h.step();
    h.get_by_label("Import folder…").click();
    step_until(&mut h, "the import", |a| a.import.as_ref().is_some_and(|j| j.report.is_some()));
    h.get_by_label("Close").click();
    step_until(&mut h, "the corpus", |a| a.corpus.docs.len() == 18 && a.import.is_none());
    h.get_by_label("卷一 考城隍").click();
    h.run_steps(2);
    assert_eq!(h.state().selected_docs.len(), 1);

    // No search engine yet: said, and the settings open.
    h.get_by_label("Find copies on the web…").click();
    h.run_steps(2);
    assert!(h.state().messages.last().unwrap().contains("Set the search engine"), "{:?}", h.state().messages);
    assert!(h.state().show_settings);
    h.state_mut().show_settings = false;

    // The licensed site, allowed in the settings.
    h.state_mut().allow_draft = "127.0.0.40".into();
    h.state_mut().show_settings = true;
    h.run_steps(2);
    h.get_by_label("Allow").click();
    step_until(&mut h, "the allowed site", |a| a.watching.allowed.len() == 1);
    h.state_mut().show_settings = false;
    let s = &mut h.state_mut().settings;
    s.search_url = web.search.base.clone();
    s.query_interval = 0.0;
    s.crawl_delay = 0.02;
    s.proxy = "none".into();
    s.discover_private = true;
    h.run_steps(1);
    h.get_by_label("Find copies on the web…").click();
    h.run_steps(1);
    assert!(h.state().discovery_running);
    step_until(&mut h, "the discovery", |a| !a.discovery_running);
    let summary = h.state().messages.iter().find(|m| m.starts_with("聊斋志异:")).cloned();
    assert!(
        summary.as_ref().is_some_and(|m| m.contains("copies on 12 sites, 16 licensed")),
        "{:?}",
        h.state().messages
    );
    // Findings hold the verified copies, every one a planted copy (or a licensed one).
    let found: Vec<String> =
        h.state().findings.iter().map(|f| f.target.clone()).filter(|t| !t.contains("/licensed/")).collect();
    assert!(found.len() as f64 >= 0.95 * web.planted.len() as f64, "{} of {}", found.len(), web.planted.len());
    assert!(found.iter().all(|u| web.planted.contains(u)), "{found:?}");
    assert_eq!(h.state().tab, zhiwen::gui::app::Tab::Findings);
}

#[test]
fn a_picture_suspect_is_shown_beside_the_text_read_from_it() {
    if zhiwen::engine::decode::ocr::models_dir().is_none() {
        eprintln!("skipped a_picture_suspect_is_shown_beside_the_text_read_from_it: the OCR models are not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut h = imported_harness(dir.path());
    // A page of 三国演义's second chapter as a re-saved JPEG photo (tests/fixtures/ocr).
    let picture = fixtures().join("ocr/sanguoyanyi_001_page.jpg");
    drop_to_check(&mut h, &picture);
    step_until(&mut h, "the check", |a| a.results.len() == 1 && a.viewer.is_some());
    h.get_by_label_contains("text read from images 1");
    assert!(h.query_by_label("Picture").is_none(), "hidden until asked for");
    h.get_by_label("Show picture").click();
    h.run_steps(3);
    h.get_by_label("Picture");
    let viewer = h.state().viewer.as_ref().unwrap();
    let textures = viewer.picture.as_ref().unwrap().as_ref().expect("the picture loads");
    assert_eq!(textures.iter().map(|t| t.size()).collect::<Vec<_>>(), [[900, 1100]]);
    // The text beside it is the chapter's, found in the corpus.
    assert!(h.state().results[0].outcome.report.sources[0].path.ends_with("sanguoyanyi_001.txt"));
}

#[test]
fn a_scanned_pdf_shows_its_pages_beside_the_text_read_from_them() {
    if zhiwen::engine::decode::ocr::models_dir().is_none() {
        eprintln!(
            "skipped a_scanned_pdf_shows_its_pages_beside_the_text_read_from_them: the OCR models are not installed"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut h = imported_harness(dir.path());
    // Two scanned pages of 西游记's first chapter (tests/fixtures/ocr, made by img2pdf).
    drop_to_check(&mut h, &fixtures().join("ocr/xiyouji_000_scan.pdf"));
    step_until(&mut h, "the check", |a| a.results.len() == 1 && a.viewer.is_some());
    h.get_by_label_contains("text read from images 2");
    h.get_by_label("Show picture").click();
    h.run_steps(3);
    h.get_by_label("Picture");
    let viewer = h.state().viewer.as_ref().unwrap();
    let pages = viewer.picture.as_ref().unwrap().as_ref().expect("the pages load");
    assert_eq!(pages.len(), 2, "one picture a page");
    assert!(h.state().results[0].outcome.report.sources[0].path.ends_with("xiyouji_000.txt"));
}

#[test]
fn a_translation_is_named_as_one_with_its_aligned_sentences_shared_names_and_no_copy_marks() {
    let dir = tempfile::tempdir().unwrap();
    // Forty 聊斋志异 stories imported; Herbert Giles' English version of one of them (小惠's
    // story, 059) checked.
    let translation = fixtures().join("translation");
    let mut h =
        app_harness_importing(dir.path().join("corpus.sqlite"), translation.join("zh"), dir.path().join("r.json"));
    h.step();
    h.get_by_label("Import folder…").click();
    step_until(&mut h, "the import", |a| a.import.as_ref().is_some_and(|j| j.report.is_some()));
    h.get_by_label("Close").click();
    step_until(&mut h, "the corpus", |a| a.corpus.docs.len() == 39 && a.import.is_none());
    // 珠儿 has a character its edition encodes in the private use area (U+E012), which no font
    // draws: the app shows a box, as it would.
    h.ctx.set_missing_glyph_policy(eframe::egui::MissingGlyphPolicy::Tofu);
    drop_to_check(&mut h, &translation.join("en/giles_059.txt"));
    step_until(&mut h, "the check", |a| a.results.len() == 1 && a.viewer.is_some());
    h.run_steps(2);
    assert!(
        h.query_all_by_label_contains("珠儿 (translation)").count() >= 2,
        "the results table and the viewer name it"
    );
    // Its status says how it copies: translated, not copied.
    h.get_by_label("translated");
    assert!(h.query_by_label("copied").is_none());
    // Its aligned sentences, each with the share of its words the source means, and the names
    // both texts share as evidence.
    assert!(h.query_all_by_label_contains("words the source means").count() >= 10);
    h.get_by_label("Names both share");
    h.get_by_label_contains("Hsiao-hui = 小惠");
    // An aligned passage has no copied regions and no marks: no key for them either.
    assert!(h.query_by_label_contains("Copied region").is_none());
    assert!(h.query_by_label_contains("homophone").is_none());
    let viewer = h.state().viewer.as_ref().unwrap();
    assert!(viewer.left_marks.is_empty() && viewer.right_marks.is_empty());
}
