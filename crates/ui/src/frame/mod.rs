//! When the page does its work, apart from what it draws: the worker's
//! replies read a chunk at a time (`inbox`), work put off to idle time
//! (`idle`) or paced to the frame budget (`pace`), finished runs' views
//! dropped off the main path (`graveyard`), and the first frames made
//! cheap by drawing the panels and fonts once before a run needs them
//! (`rehearsal`, `font_warmup`). The components draw; these decide when.

pub(crate) mod font_warmup;
pub(crate) mod graveyard;
pub(crate) mod idle;
pub(crate) mod inbox;
pub(crate) mod pace;
pub(crate) mod rehearsal;

pub use font_warmup::FontWarmup;
pub use rehearsal::Rehearsal;
