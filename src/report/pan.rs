//! PAN text-alignment XML (the format of the PAN plagiarism-detection evaluations):
//! one document per suspect, one `<feature name="plagiarism">` per passage, offsets and
//! lengths in characters of the extracted texts.

use super::{escape, file_name};
use crate::SuspectReport;
use std::fmt::Write;

pub fn pan_xml(r: &SuspectReport) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(out, "<document reference=\"{}\">", escape(&file_name(&r.path)));
    for s in &r.sources {
        for p in &s.passages {
            let _ = writeln!(
                out,
                "<feature name=\"plagiarism\" this_offset=\"{}\" this_length=\"{}\" source_reference=\"{}\" \
                 source_offset=\"{}\" source_length=\"{}\"/>",
                p.suspect_start,
                p.suspect_end - p.suspect_start,
                escape(&file_name(&s.path)),
                p.source_start,
                p.source_end - p.source_start
            );
        }
    }
    out + "</document>\n"
}
