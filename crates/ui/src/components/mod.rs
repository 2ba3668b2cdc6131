//! The page's components: each only draws what it is given.

mod app;
mod device_panel;
mod graph_view;
mod result_panel;

pub use app::App;
