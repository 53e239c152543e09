//! Large zeroed arrays for the index, on transparent huge pages where Linux allows it.
//!
//! A query touches a handful of random buckets spread over hundreds of megabytes. With
//! 4 KiB pages nearly every bucket is also a TLB miss (a page walk before the cache miss);
//! 2 MiB pages make the TLB cover the tables. Many distributions enable huge pages only
//! for memory that asks (`/sys/kernel/mm/transparent_hugepage/enabled` = `madvise`), and
//! the request must come before the pages are first written, hence this constructor.

/// `n` zeroed elements, advised as huge-page memory (a no-op elsewhere or if refused).
pub fn zeroed<T: Copy + Default>(n: usize) -> Vec<T> {
    let v = vec![T::default(); n];
    advise_huge(&v);
    v
}

#[cfg(target_os = "linux")]
fn advise_huge<T>(v: &[T]) {
    const PAGE: usize = 4096;
    let bytes = std::mem::size_of_val(v);
    if bytes < 4 << 20 {
        return;
    }
    let start = v.as_ptr() as usize;
    let aligned = start.next_multiple_of(PAGE);
    let len = (start + bytes - aligned) / PAGE * PAGE;
    // SAFETY: the range lies inside `v`'s allocation and is page aligned; MADV_HUGEPAGE
    // only changes how the kernel backs the pages, never their contents.
    unsafe {
        libc::madvise(aligned as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge<T>(_: &[T]) {}
