//! The `windows` table's blobs: one row per document, windows in ordinal order.
//! `fingerprints` holds each window's u64 simhash little-endian (8 bytes); `spans` its
//! char_start and char_end as little-endian u32 (8 bytes). Opening a store reads only the
//! first; the viewer reads the second for one document at a time.

use super::StoredWindow;

pub const FINGERPRINT_BYTES: usize = 8;
pub const SPAN_BYTES: usize = 8;

/// (fingerprints, spans) blobs of windows given in ordinal order 0, 1, 2, ...
pub fn pack(windows: &[StoredWindow]) -> (Vec<u8>, Vec<u8>) {
    let mut fps = Vec::with_capacity(windows.len() * FINGERPRINT_BYTES);
    let mut spans = Vec::with_capacity(windows.len() * SPAN_BYTES);
    for (i, w) in windows.iter().enumerate() {
        debug_assert_eq!(w.ordinal as usize, i, "windows are packed in ordinal order");
        fps.extend_from_slice(&w.fingerprint.to_le_bytes());
        spans.extend_from_slice(&w.char_start.to_le_bytes());
        spans.extend_from_slice(&w.char_end.to_le_bytes());
    }
    (fps, spans)
}

/// The fingerprints of a `fingerprints` blob, by ordinal.
pub fn fingerprints(blob: &[u8]) -> impl Iterator<Item = u64> + '_ {
    blob.chunks_exact(FINGERPRINT_BYTES).map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
}

/// The (char_start, char_end) pairs of a `spans` blob, by ordinal.
pub fn spans(blob: &[u8]) -> Vec<(u32, u32)> {
    blob.chunks_exact(SPAN_BYTES)
        .map(|b| {
            (
                u32::from_le_bytes(b[..4].try_into().expect("4 bytes")),
                u32::from_le_bytes(b[4..].try_into().expect("4 bytes")),
            )
        })
        .collect()
}
