//! Where the pointer is while files are dragged over the window.
//!
//! The drop overlay has two zones (add to the corpus, check), so the app must know where
//! the pointer is during a drag. winit 0.30 reports the drag (`HoveredFile`) but no
//! position, and the dragging application holds the pointer grab, so no motion events
//! arrive either. On X11 the app asks the server (QueryPointer on its own window, through
//! x11rb's pure-Rust connection, opened once). Elsewhere, and when the query fails, the
//! answer is `None` and the overlay falls back to egui's last pointer position or to the
//! zone the current tab suggests.

use eframe::egui;

#[derive(Default)]
pub struct DragPointer {
    #[cfg(target_os = "linux")]
    conn: Option<x11rb::rust_connection::RustConnection>,
    /// Set after a failed connection, so a desktop without X11 is not asked every frame.
    unavailable: bool,
}

impl DragPointer {
    /// The pointer's position in the window, in egui points, if the platform tells it.
    pub fn position(&mut self, frame: &eframe::Frame, pixels_per_point: f32) -> Option<egui::Pos2> {
        if self.unavailable {
            return None;
        }
        let position = self.query(frame, pixels_per_point);
        if position.is_none() {
            self.unavailable = true;
        }
        position
    }

    #[cfg(target_os = "linux")]
    fn query(&mut self, frame: &eframe::Frame, pixels_per_point: f32) -> Option<egui::Pos2> {
        use raw_window_handle::{HasWindowHandle, RawWindowHandle};
        use x11rb::protocol::xproto::ConnectionExt;
        let window = match frame.window_handle().ok()?.as_raw() {
            RawWindowHandle::Xlib(h) => h.window as u32,
            RawWindowHandle::Xcb(h) => h.window.get(),
            _ => return None,
        };
        if self.conn.is_none() {
            self.conn = Some(x11rb::connect(None).ok()?.0);
        }
        let reply = self.conn.as_ref()?.query_pointer(window).ok()?.reply().ok()?;
        Some(egui::pos2(reply.win_x as f32 / pixels_per_point, reply.win_y as f32 / pixels_per_point))
    }

    #[cfg(not(target_os = "linux"))]
    fn query(&mut self, _frame: &eframe::Frame, _pixels_per_point: f32) -> Option<egui::Pos2> {
        None
    }
}
