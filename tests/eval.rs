//! The evaluation harness on a miniature data layout made from the fixtures.

use crate::util::*;
use std::path::Path;
use zhiwen::eval::{EvalOptions, run};
use zhiwen::{CheckOptions, FingerprintParams};

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(from, to).unwrap();
}

#[test]
fn harness_scores_generated_cases_and_real_pairs() {
    let data = tempfile::tempdir().unwrap();
    let d = data.path();
    for (fixture, dest) in [
        ("sanguoyanyi_000.txt", "zh-classics/sanguoyanyi/000.txt"),
        ("sanguoyanyi_001.txt", "zh-classics/sanguoyanyi/001.txt"),
        ("sanguoyanyi_002.txt", "zh-classics/sanguoyanyi/002.txt"),
        ("xiyouji_000.txt", "zh-classics/xiyouji/000.txt"),
        ("hongloumeng_000.txt", "zh-classics/hongloumeng/000.txt"),
    ] {
        copy(&corpus_dir().join(fixture), &d.join(dest));
    }
    copy(&suspect("unrelated_rulinwaishi_003.txt"), &d.join("zh-classics/rulinwaishi/003.txt"));
    copy(&suspect("sequel_xu_sanguoyanyi_000.txt"), &d.join("zh-classics-derivative/xu_sanguoyanyi/000.txt"));
    copy(&suspect("traditional_sanguoyanyi_001.txt"), &d.join("zh-classics-traditional/sanguoyanyi_pg23950/001.txt"));

    let opts = EvalOptions {
        data: d.to_path_buf(),
        cases: 3,
        seed: 7,
        params: FingerprintParams::default(),
        check: CheckOptions::default(),
        real: true,
        // The OCR kinds read pages of pictures: minutes, measured by `zhiwen eval`, not here.
        ocr: false,
    };
    let (report, cases) = run(&opts, &|_| {}).unwrap();
    assert_eq!(report.corpus_documents, 5, "one chapter held out");
    let kind = |name: &str| report.kinds.iter().find(|k| k.kind == name).unwrap_or_else(|| panic!("no kind {name}"));
    for name in ["reformat", "ads", "homophones-15%", "traditional", "typos-2%", "gb18030", "combined", "excerpt"] {
        assert_eq!(kind(name).cases, 3, "{name}");
        assert_eq!(
            kind(name).doc_recall,
            1.0,
            "{name}: {:?}",
            cases.iter().filter(|c| c.kind == name).collect::<Vec<_>>().len()
        );
    }
    let excerpt = kind("excerpt").pan.unwrap();
    assert!(excerpt.recall > 0.9 && excerpt.precision > 0.9, "{excerpt:?}");
    for name in ["hard-negative-sequels", "hard-negative-same-novel"] {
        assert!(kind(name).cases > 0, "{name}");
        assert_eq!(kind(name).false_sources, 0, "{name}");
    }
    assert!(report.real[0].summary.starts_with("1/1 chapters find their twin first"), "{}", report.real[0].summary);
    let table = zhiwen::eval::render(&report);
    assert!(table.contains("| excerpt | 3 | 1.000 |"), "{table}");
}

#[test]
fn the_translation_harness_scores_real_translations_by_half() {
    // zh-classics: the 聊斋志异 stories of the translation fixtures; en-translations: their four
    // Giles translations (even numbers: the development half) and an unmatched one (029, odd:
    // the test half); en-gutenberg: a Dracula chapter.
    let data = tempfile::tempdir().unwrap();
    let d = data.path();
    let t = fixtures().join("translation");
    for entry in std::fs::read_dir(t.join("zh")).unwrap().flatten() {
        copy(&entry.path(), &d.join("zh-classics/liaozhaizhiyi").join(entry.file_name()));
    }
    let mut pairs = String::from("en_file\tzh_file\ttranslator\n");
    for n in ["064", "122", "138", "312"] {
        let en = format!("en-translations/giles-liaozhai/{n}.txt");
        let text = std::fs::read_to_string(t.join(format!("en/giles_{n}.txt"))).unwrap();
        std::fs::create_dir_all(d.join("en-translations/giles-liaozhai")).unwrap();
        std::fs::write(d.join(&en), format!("story {n}\n\n{text}")).unwrap();
        pairs += &format!("{en}\tzh-classics/liaozhaizhiyi/{n}.txt\tGiles\n");
    }
    std::fs::write(d.join("en-translations/pairs.tsv"), pairs).unwrap();
    let unmatched = std::fs::read_to_string(t.join("en/giles_unmatched_029.txt")).unwrap();
    std::fs::create_dir_all(d.join("en-translations/giles-liaozhai/unmatched")).unwrap();
    std::fs::write(d.join("en-translations/giles-liaozhai/unmatched/giles-029.txt"), format!("story\n\n{unmatched}"))
        .unwrap();
    copy(&t.join("en/dracula_001.txt"), &d.join("en-gutenberg/chapters/pg345_dracula/001.txt"));

    let report = zhiwen::eval::translations::run(d, &|_| {}).unwrap();
    assert_eq!(report.corpus_documents, 39);
    assert_eq!(report.suspects, 6);
    for o in &report.outcomes {
        match &o.truth {
            Some(truth) => {
                let (found, kind, _, _) = o.found.as_ref().unwrap_or_else(|| panic!("{o:?}"));
                assert_eq!((found, *kind), (truth, "translation"), "{o:?}");
            }
            None => assert!(o.found.is_none(), "{o:?}"),
        }
        assert_eq!(o.split, if o.group == "giles" { "dev" } else { "test" }, "{o:?}");
    }
    let table = zhiwen::eval::translations::render(&report);
    assert!(table.contains("| giles | dev | 4 | 4 | 0 | 0 | 0 |"), "{table}");
    assert!(table.contains("| unmatched | test | 1 | 0 | 0 | 0 | 1 |"), "{table}");
}
