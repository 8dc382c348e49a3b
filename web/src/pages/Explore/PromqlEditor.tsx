/**
 * The PromQL editor: CodeMirror 6 with codemirror-promql (syntax highlighting, linting, and
 * autocompletion of functions, metric names, label names and values from this server's
 * `/api/v1/labels`, `/api/v1/label/<name>/values`, `/api/v1/series` and `/api/v1/metadata`).
 * Enter runs the query (unless a completion is open), Shift+Enter inserts a newline.
 */
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, insertNewlineAndIndent } from '@codemirror/commands';
import { bracketMatching, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { lintKeymap } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, placeholder } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { PromQLExtension } from '@prometheus-io/codemirror-promql';
import { useEffect, useRef, type ReactNode } from 'react';

/** Token colours from the theme's variables (both themes), Okabe–Ito hues. */
const promqlHighlight = HighlightStyle.define([
  { tag: tags.name, color: 'var(--fg)' },
  { tag: tags.number, color: 'var(--cm-number)' },
  { tag: tags.string, color: 'var(--cm-string)' },
  { tag: tags.keyword, color: 'var(--cm-keyword)', fontWeight: '600' },
  { tag: tags.function(tags.variableName), color: 'var(--cm-function)' },
  { tag: tags.labelName, color: 'var(--cm-label)' },
  { tag: tags.operator, color: 'var(--cm-keyword)' },
  { tag: tags.modifier, color: 'var(--cm-keyword)', fontWeight: '600' },
  { tag: tags.paren, color: 'var(--fg-muted)' },
  { tag: tags.squareBracket, color: 'var(--fg-muted)' },
  { tag: tags.brace, color: 'var(--fg-muted)' },
  { tag: tags.comment, color: 'var(--fg-faint)', fontStyle: 'italic' },
  { tag: tags.invalid, color: 'var(--critical)' },
]);

const editorTheme = EditorView.theme({
  '&': { fontSize: '13px', backgroundColor: 'var(--surface)', color: 'var(--fg)' },
  '.cm-content': { fontFamily: 'var(--mono)', padding: '8px 0', caretColor: 'var(--fg)' },
  '.cm-line': { padding: '0 10px' },
  '&.cm-focused': { outline: 'none' },
  '.cm-cursor': { borderLeftColor: 'var(--fg)' },
  '.cm-selectionBackground, &.cm-focused .cm-selectionBackground, ::selection': { backgroundColor: 'var(--accent-soft) !important' },
  '.cm-placeholder': { color: 'var(--fg-faint)' },
  '.cm-tooltip': { backgroundColor: 'var(--surface)', border: '1px solid var(--border-strong)', borderRadius: '6px', boxShadow: 'var(--shadow)' },
  '.cm-tooltip-autocomplete > ul': { fontFamily: 'var(--mono)', fontSize: '12px', maxHeight: '260px' },
  '.cm-tooltip-autocomplete > ul > li[aria-selected]': { backgroundColor: 'var(--accent-soft)', color: 'var(--fg)' },
  '.cm-completionDetail': { color: 'var(--fg-muted)', fontStyle: 'normal', marginLeft: '8px' },
  '.cm-completionInfo': { padding: '6px 8px', maxWidth: '360px', fontSize: '12px' },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--critical)' },
  '.cm-lintRange-error': { backgroundImage: 'none', textDecoration: 'underline wavy var(--critical)' },
  '.cm-matchingBracket': { backgroundColor: 'var(--surface-3)', outline: '1px solid var(--border-strong)' },
});

/** Props of `PromqlEditor`. */
export interface PromqlEditorProps {
  readonly value: string;
  readonly onChange: (text: string) => void;
  /** Enter (or the Run button): run the text. */
  readonly onRun: (text: string) => void;
  /** The cursor moved (for the metric under it). */
  readonly onCursor?: (pos: number) => void;
  /** The server whose API feeds the completions (the page's origin). */
  readonly url: string;
}

/** The editor; `value` replaces the text when it differs from what the editor holds (navigation, a clicked metric). */
export function PromqlEditor(p: PromqlEditorProps): ReactNode {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const callbacks = useRef(p);
  callbacks.current = p;

  useEffect(() => {
    if (host.current === null) return undefined;
    const runQuery = (ed: EditorView): boolean => {
      callbacks.current.onRun(ed.state.doc.toString());
      return true;
    };
    const promql = new PromQLExtension().setComplete({
      remote: { url: p.url, httpErrorHandler: () => undefined, cache: { maxAge: 5 * 60_000 } },
      maxMetricsMetadata: 10_000,
    });
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: p.value,
        extensions: [
          history(),
          closeBrackets(),
          bracketMatching(),
          autocompletion({ icons: false }),
          placeholder('Enter a PromQL query, e.g. histogram_quantile(0.99, sum by (le) (rate(llm_time_to_first_token_seconds_bucket[5m])))'),
          EditorView.lineWrapping,
          keymap.of([
            ...closeBracketsKeymap,
            ...completionKeymap,
            { key: 'Enter', run: runQuery },
            { key: 'Mod-Enter', run: runQuery },
            { key: 'Shift-Enter', run: insertNewlineAndIndent },
            ...defaultKeymap,
            ...historyKeymap,
            ...lintKeymap,
          ]),
          promql.asExtension(),
          syntaxHighlighting(promqlHighlight),
          editorTheme,
          EditorView.contentAttributes.of({ 'aria-label': 'PromQL query', 'data-testid': 'explore-input' }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) callbacks.current.onChange(u.state.doc.toString());
            if (u.docChanged || u.selectionSet) callbacks.current.onCursor?.(u.state.selection.main.head);
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      promql.destroy();
      view.current = null;
    };
    // The editor is created once; later values arrive through the effect below.
    // The URL prop is the page's origin and never changes.
  }, []);

  useEffect(() => {
    const v = view.current;
    if (v === null) return;
    const current = v.state.doc.toString();
    if (current !== p.value) v.dispatch({ changes: { from: 0, to: current.length, insert: p.value }, selection: { anchor: p.value.length } });
  }, [p.value]);

  return <div ref={host} className="promql-editor" data-testid="explore-editor" />;
}
