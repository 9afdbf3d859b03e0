// The runner's editor: CodeMirror 6 with Python highlighting in the site's own code colours (Material's CSS
// variables, so dark mode follows), Tab to indent (Escape then Tab leaves the editor: CodeMirror's rule), Ctrl/Cmd-Enter
// to run. Exposes window.PrimerEditor.create(parent, doc, label, onRun) -> {value(), setValue(text), focus(), destroy()}.
import { EditorState } from "@codemirror/state";
import { EditorView, keymap, drawSelection, highlightActiveLine, lineNumbers } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { bracketMatching, indentOnInput, indentUnit, syntaxHighlighting, HighlightStyle } from "@codemirror/language";
import { python } from "@codemirror/lang-python";
import { tags as t } from "@lezer/highlight";

const colour = (name) => `var(--md-code-hl-${name}-color)`;
const style = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.definitionKeyword, t.moduleKeyword, t.operatorKeyword], color: colour("keyword") },
  { tag: [t.string, t.special(t.string)], color: colour("string") },
  { tag: t.comment, color: colour("comment"), fontStyle: "italic" },
  { tag: [t.number, t.bool, t.null], color: colour("number") },
  { tag: [t.function(t.variableName), t.function(t.propertyName), t.definition(t.function(t.variableName))], color: colour("function") },
  { tag: [t.operator, t.punctuation], color: colour("punctuation") },
  { tag: [t.className, t.definition(t.className)], color: colour("constant") },
]);

const theme = EditorView.theme({
  "&": { backgroundColor: "var(--md-code-bg-color)", color: "var(--md-code-fg-color)", fontSize: ".75rem" },
  ".cm-content": { fontFamily: "var(--md-code-font-family)", caretColor: "var(--md-code-fg-color)", padding: ".8em 0" },
  ".cm-gutters": { backgroundColor: "var(--md-code-bg-color)", color: "var(--md-code-fg-color)", border: "none" },
  ".cm-activeLine": { backgroundColor: "var(--md-default-fg-color--lightest)" },
  "&.cm-focused": { outline: "2px solid var(--md-accent-fg-color)" },
  ".cm-selectionBackground, &.cm-focused .cm-selectionBackground": { backgroundColor: "var(--md-accent-fg-color--transparent)" },
});

function create(parent, doc, label, onRun) {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(), history(), drawSelection(), highlightActiveLine(), indentOnInput(), bracketMatching(),
        indentUnit.of("    "), python(), syntaxHighlighting(style), theme,
        keymap.of([{ key: "Mod-Enter", run: () => { onRun(); return true; } }, indentWithTab, ...defaultKeymap, ...historyKeymap]),
        // tabindex: axe counts a contenteditable as keyboard access to a scrolled region only with one.
        EditorView.contentAttributes.of({ "aria-label": label, tabindex: "0" }),
      ],
    }),
  });
  return {
    value: () => view.state.doc.toString(),
    setValue: (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}

window.PrimerEditor = { create };
