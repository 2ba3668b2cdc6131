// gradscope's code editor: CodeMirror 6 with Python highlighting, line
// numbers, Ctrl/Cmd-Enter to run, and two line marks the page sets: the line
// that raised (error) and the line the trace is stepped to (current).
//
// `cargo xtask build-web` bundles this file with esbuild into the site's
// editor.js; index.html exposes it as `window.gradscopeEditor` before the
// yew app starts, and the app calls it through wasm-bindgen.
import { EditorState, StateEffect, StateField } from "@codemirror/state";
import {
  Decoration, EditorView, highlightActiveLineGutter, highlightSpecialChars,
  keymap, lineNumbers, drawSelection,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import {
  bracketMatching, defaultHighlightStyle, indentOnInput, indentUnit, syntaxHighlighting,
} from "@codemirror/language";
import { python } from "@codemirror/lang-python";

const setMarks = StateEffect.define();
const errorLine = Decoration.line({ class: "cm-gs-error", attributes: { "data-mark": "error" } });
const currentLine = Decoration.line({ class: "cm-gs-current", attributes: { "data-mark": "current" } });

// The marked lines, as decorations; edits map them along with the text.
const marks = StateField.define({
  create: () => Decoration.none,
  update(value, tr) {
    value = value.map(tr.changes);
    for (const effect of tr.effects) {
      if (effect.is(setMarks)) value = decorate(tr.state.doc, effect.value);
    }
    return value;
  },
  provide: (field) => EditorView.decorations.from(field),
});

function decorate(doc, { error, current }) {
  const ranges = [];
  const add = (line, deco) => {
    if (Number.isInteger(line) && line >= 1 && line <= doc.lines) {
      ranges.push(deco.range(doc.line(line).from));
    }
  };
  add(current, currentLine);
  add(error, errorLine);
  ranges.sort((a, b) => a.from - b.from);
  return Decoration.set(ranges, true);
}

const theme = EditorView.theme({
  "&": { height: "100%", fontSize: "14px" },
  ".cm-scroller": { fontFamily: 'ui-monospace, "DejaVu Sans Mono", monospace', lineHeight: "1.5" },
  ".cm-gs-current": { backgroundColor: "#e4f0fb", boxShadow: "inset 3px 0 0 #0072b2" },
  ".cm-gs-error": { backgroundColor: "#fbe3d9", boxShadow: "inset 3px 0 0 #d55e00" },
});

/// Creates an editor in `parent` holding `doc`. `onChange(text)` runs on
/// every edit, `onRun()` on Ctrl/Cmd-Enter.
export function create(parent, doc, onChange, onRun) {
  const run = () => { onRun(); return true; };
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), highlightSpecialChars(), history(),
        drawSelection(), indentOnInput(), bracketMatching(), indentUnit.of("    "),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }), python(), marks, theme,
        // The program's column is narrow beside the graph: wrap rather than
        // scroll sideways, so a long comment never hides the code's start.
        EditorView.lineWrapping,
        keymap.of([{ key: "Mod-Enter", run, preventDefault: true }, indentWithTab,
          ...defaultKeymap, ...historyKeymap]),
        EditorView.contentAttributes.of({ "aria-label": "Python program", "data-testid": "code" }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  return view;
}

/// Marks `error` and `current` (1-based line numbers, or null).
export function mark(view, error, current) {
  view.dispatch({ effects: setMarks.of({ error, current }) });
  const line = error ?? current;
  if (Number.isInteger(line) && line >= 1 && line <= view.state.doc.lines) {
    view.dispatch({ effects: EditorView.scrollIntoView(view.state.doc.line(line).from, { y: "nearest" }) });
  }
}

/// Replaces the whole text (Reset); fires onChange like an edit.
export function setDoc(view, text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

/// Removes the editor.
export function destroy(view) {
  view.destroy();
}
