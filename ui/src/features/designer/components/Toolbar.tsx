// Undo/redo, zoom, export, save and publish. Publish stays disabled while problems remain, and while the page
// equals the active version (nothing to publish), with the reason shown beside it.
import { t } from '../i18n';

export interface ToolbarProps {
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
  onZoom: (factor: number | 'fit') => void;
  zoom: number;
  onExport: () => void;
  onSave: () => void;
  onPublish: () => void;
  busy: boolean;
  publishable: boolean;
  /** Why there is nothing to publish (the page equals the active version), or null. */
  unchanged: string | null;
  dirty: boolean;
}

export function Toolbar(p: ToolbarProps) {
  const d = t.designer;
  return (
    <div class="buttons" role="toolbar" aria-label={d.title} data-testid="designer-toolbar">
      <button type="button" onClick={p.onUndo} disabled={!p.canUndo} title={`${d.undo} (Ctrl+Z)`} data-tool="undo">
        ↶ {d.undo}
      </button>
      <button
        type="button"
        onClick={p.onRedo}
        disabled={!p.canRedo}
        title={`${d.redo} (Ctrl+Shift+Z)`}
        data-tool="redo"
      >
        ↷ {d.redo}
      </button>
      <button type="button" onClick={() => p.onZoom(1 / 1.2)} aria-label={d.zoomOut} title={d.zoomOut}>
        −
      </button>
      <span class="small" aria-live="polite">
        {Math.round(p.zoom * 100)}%
      </span>
      <button type="button" onClick={() => p.onZoom(1.2)} aria-label={d.zoomIn} title={d.zoomIn}>
        +
      </button>
      <button type="button" onClick={() => p.onZoom('fit')}>
        {d.fit}
      </button>
      <button type="button" onClick={p.onExport} data-tool="export">
        {d.exportJson}
      </button>
      <button type="button" onClick={p.onSave} disabled={p.busy} data-tool="save">
        {d.saveDraft}
      </button>
      <button
        type="button"
        class="primary"
        onClick={p.onPublish}
        disabled={p.busy || !p.publishable || p.unchanged !== null}
        title={!p.publishable ? d.publishBlocked : (p.unchanged ?? undefined)}
        aria-describedby={p.unchanged ? 'publish-unchanged' : undefined}
        data-tool="publish"
      >
        {d.publish}
      </button>
      {p.dirty && <span class="muted small">{d.unsaved}</span>}
      {p.unchanged && (
        <span class="muted small" id="publish-unchanged" data-testid="publish-unchanged">
          {p.unchanged}
        </span>
      )}
    </div>
  );
}
