/**
 * The Content field: Quill 2 with the spec's toolbar, loaded after hydration so the static
 * build never evaluates it. The parent reads the HTML through `editorRef` when saving.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import { insertImageFromPicker } from './inline-image.ts';
import type { ArticleEditor } from './quill-setup.ts';

const CONTENT_PLACEHOLDER = 'Enter article content...';

interface RichTextEditorProps {
  /** The HTML to start from; read once, when the editor is created. */
  initialHtml: string;
  labelId: string;
  describedBy?: string;
  /** Filled with the editor once it is ready. */
  editorRef: RefObject<ArticleEditor | null>;
  /** Called when the editor becomes ready, and whenever emptiness changes (spec 5 Save rule). */
  onEmptyChange: (empty: boolean) => void;
  /** Called with true while an inline image uploads. */
  onUploadingChange: (uploading: boolean) => void;
}

type LoadState = 'loading' | 'ready' | 'failed';

export default function RichTextEditor({
  initialHtml,
  labelId,
  describedBy,
  editorRef,
  onEmptyChange,
  onUploadingChange,
}: RichTextEditorProps) {
  const mountRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<LoadState>('loading');
  // Read once: the editor owns the content after it is created.
  const [startHtml] = useState(initialHtml);
  const callbacks = useRef({ onEmptyChange, onUploadingChange });

  useEffect(() => {
    callbacks.current = { onEmptyChange, onUploadingChange };
  });

  useEffect(() => {
    const mount = mountRef.current;
    if (!mount) return;
    let disposed = false;
    let editor: ArticleEditor | null = null;

    import('./quill-setup.ts')
      .then(({ createArticleEditor }) => {
        if (disposed) return;
        // Quill owns this subtree; React only owns the empty mount around it.
        const host = document.createElement('div');
        host.className = 'blog-editor__content';
        mount.append(host);
        editor = createArticleEditor(host, {
          labelledBy: labelId,
          describedBy,
          placeholder: CONTENT_PLACEHOLDER,
          onImageButton: (current) => {
            void insertImageFromPicker(current, (uploading) =>
              callbacks.current.onUploadingChange(uploading),
            );
          },
        });
        if (startHtml) editor.setHTML(startHtml);
        const created = editor;
        let empty = created.isEmpty();
        created.quill.on('text-change', () => {
          const next = created.isEmpty();
          if (next !== empty) {
            empty = next;
            callbacks.current.onEmptyChange(next);
          }
        });
        editorRef.current = created;
        callbacks.current.onEmptyChange(empty);
        setState('ready');
      })
      .catch((error: unknown) => {
        console.error('[blog-admin] the editor failed to load', error);
        if (!disposed) setState('failed');
      });

    return () => {
      disposed = true;
      editor?.destroy();
      mount.replaceChildren();
      if (editorRef.current === editor) editorRef.current = null;
    };
  }, [startHtml, labelId, describedBy, editorRef]);

  return (
    <div className="blog-editor__rich" data-state={state}>
      <div ref={mountRef} className="blog-editor__mount" />
      {state === 'loading' && (
        <div className="blog-editor__rich-placeholder" role="status">
          <span className="spinner spinner-sm" aria-hidden="true" />
          Loading the editor…
        </div>
      )}
      {state === 'failed' && (
        <p className="blog-editor__rich-error" role="alert">
          The editor could not be loaded. Check your connection and reload the page.
        </p>
      )}
    </div>
  );
}
