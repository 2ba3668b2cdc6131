//! Text in every font, size and weight the views draw, laid out once,
//! hidden, as soon as the engine is ready: before the first run.
//!
//! The first time Chromium lays out text in a new font size (a "strike") it
//! asks the browser process for the font's rendering settings, synchronously.
//! Traced in the playground's first run, the views' first text cost 22 to
//! 183 ms of layout in one frame, four to six such waits: a long task in
//! the first run every learner sees. Laid out here first, while the main
//! thread waits for the learner, the same first run asks for none (traced,
//! two fresh pages each: 6 strikes -> 0; layouts over 5 ms 113 and 49 ms
//! -> 6 and 13 ms).
//!
//! The samples use the views' own classes, so the sizes follow the style
//! sheet; the graph's text is drawn with `text-rendering: geometricPrecision`
//! so its strikes do not change with the zoom (style.css).

use yew::prelude::*;

/// What each sample says: letters, digits and the symbols the views use.
const SAMPLE: &str = "Ab0.9 KiB ▸ ↑ · × —";

/// The graph's own font for group headers and frames (graph_node.rs).
const MONO: &str = "ui-monospace, 'DejaVu Sans Mono', monospace";

#[function_component]
pub fn FontWarmup() -> Html {
    // Each SVG sample sits in the group whose class the view's CSS targets
    // (`.tick text`, `.node .name`, ...).
    let in_group = |class: &'static str| html! { <g class={class}><text>{ SAMPLE }</text></g> };
    html! {
        <div class="font-warmup" aria-hidden="true">
            <svg width="1" height="1">
                <g class="graph-view">
                    <g class="node"><text class="name">{ SAMPLE }</text><text class="status">{ SAMPLE }</text></g>
                    <text font-family={MONO} font-size="12" font-weight="600">{ SAMPLE }</text>
                    <text font-family={MONO} font-size="10">{ SAMPLE }</text>
                    <text font-family={MONO} font-size="11">{ SAMPLE }</text>
                </g>
                <text class="chart-name">{ SAMPLE }</text>
                <text class="axis">{ SAMPLE }</text>
                { for ["off", "budget", "reserved", "span", "tick", "peak", "marks"].into_iter().map(in_group) }
            </svg>
            <span class="where">{ SAMPLE }</span>
            <span class="node-details">{ SAMPLE }</span>
            <ul class="legend"><li>{ SAMPLE }</li></ul>
            <section class="console"><pre>{ SAMPLE }</pre></section>
        </div>
    }
}
