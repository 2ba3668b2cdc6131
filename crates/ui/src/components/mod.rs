//! The page's components: each only draws what it is given.

mod app;
pub(crate) mod charts_panel;
mod console_panel;
mod device_menu;
mod editor;
mod embed_app;
mod export;
mod file_tabs;
mod graph_node;
pub(crate) mod graph_panel;
mod graph_view;
mod lesson_chart;
mod lesson_claims;
mod lesson_controls;
mod lesson_menu;
mod lesson_panel;
mod memory_live;
pub(crate) mod memory_panel;
mod share_bar;
mod transport;

pub use app::App;
pub use embed_app::{EmbedApp, Props as EmbedAppProps};
