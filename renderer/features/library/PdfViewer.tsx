// The in-app PDF viewer (pdf.js): pages are laid out at their size from the start, but only the
// pages near the viewport get a canvas (a 300-page report keeps a handful of canvases alive).
// Page count, page jump, zoom in/out and fit width. Loaded lazily with the review screen of a PDF.
//
// The worker is pdf.js's own module worker, emitted by Vite as a file of our origin: the CSP's
// `worker-src 'self' blob:` allows it in the web host (http://127.0.0.1) and in Electron (app://cairn).
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type UIEvent } from 'react';
import { Button, ButtonGroup, Callout, Classes, InputGroup, Intent, Spinner, SpinnerSize, Tooltip } from '@blueprintjs/core';
import { GlobalWorkerOptions, PasswordException, getDocument, type PDFDocumentProxy, type RenderTask } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { base64Bytes, clampPage, fitWidthScale, layoutPages, pagesInView, ZOOM_STEPS, zoomStep, type PageSize } from './pdfLayout.ts';
import { libraryZh } from '../../i18n/library.ts';

GlobalWorkerOptions.workerSrc = workerUrl;

const t = libraryZh.review;
const GAP = 16;
/** Canvases are kept for one viewport above and below what is visible. */
const MARGIN_VIEWPORTS = 1;
/** A canvas larger than this many pixels is drawn at a lower resolution (memory, not sharpness, wins). */
const MAX_CANVAS_PIXELS = 16_777_216;
const AUTO_MAX_SCALE = 1.25;

function PageCanvas({ doc, pageNumber, scale, size, onSize }: { doc: PDFDocumentProxy; pageNumber: number; scale: number; size: PageSize; onSize: (n: number, size: PageSize) => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let task: RenderTask | null = null;
    let live = true;
    void (async () => {
      try {
        const page = await doc.getPage(pageNumber);
        if (!live || !canvas.current) return;
        const natural = page.getViewport({ scale: 1 });
        if (Math.abs(natural.width - size.width) > 0.5 || Math.abs(natural.height - size.height) > 0.5) onSize(pageNumber, { width: natural.width, height: natural.height });
        const viewport = page.getViewport({ scale });
        let ratio = window.devicePixelRatio || 1;
        if (viewport.width * viewport.height * ratio * ratio > MAX_CANVAS_PIXELS) ratio = Math.sqrt(MAX_CANVAS_PIXELS / (viewport.width * viewport.height));
        const el = canvas.current;
        el.width = Math.floor(viewport.width * ratio);
        el.height = Math.floor(viewport.height * ratio);
        task = page.render({ canvas: el, viewport, transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined });
        await task.promise;
      } catch (e) {
        if (live && !(e instanceof Error && e.name === 'RenderingCancelledException')) setFailed(true);
      }
    })();
    return () => {
      live = false;
      task?.cancel();
    };
    // `size` only matters for the first correction; re-rendering on it would loop.
  }, [doc, pageNumber, scale]);

  if (failed) return <div className="cairn-pdf-page-failed">{t.pageFailed(pageNumber)}</div>;
  return <canvas ref={canvas} className="cairn-pdf-canvas" aria-label={`${pageNumber}`} />;
}

export default function PdfViewer({ base64 }: { base64: string }) {
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sizes, setSizes] = useState<PageSize[]>([]);
  /** `auto` (the default): fit width, but no larger than 125% (a wide window would blow a page up). */
  const [zoom, setZoom] = useState<number | 'fit' | 'auto'>('auto');
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState({ width: 800, height: 600 });
  /** The page field's text while the user types in it; null shows the current page. */
  const [jump, setJump] = useState<string | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  /** The page to keep in view when the zoom changes. */
  const anchor = useRef<number | null>(null);

  useEffect(() => {
    let live = true;
    const task = getDocument({ data: base64Bytes(base64), useWasm: false, stopAtErrors: false });
    task.promise.then(
      async (pdf) => {
        if (!live) return;
        // Every page is assumed to be the size of the first until it is drawn (reports are uniform).
        const first = (await pdf.getPage(1)).getViewport({ scale: 1 });
        if (!live) return;
        const assumed = Array.from({ length: pdf.numPages }, () => ({ width: first.width, height: first.height }));
        setSizes(assumed);
        setDoc(pdf);
        // Then the real sizes, read once in the background (no drawing), so mixed page sizes do
        // not shift the layout page by page while the user scrolls.
        const real: PageSize[] = [];
        for (let n = 1; n <= pdf.numPages && live; n += 1) {
          const v = (await pdf.getPage(n)).getViewport({ scale: 1 });
          real.push({ width: v.width, height: v.height });
        }
        if (live && real.some((s, i) => s.width !== assumed[i]!.width || s.height !== assumed[i]!.height)) setSizes(real);
      },
      (e: unknown) => {
        if (live) setError(e instanceof PasswordException ? t.pdfPassword : `${t.pdfFailed}${e instanceof Error && e.message ? `：${e.message}` : ''}`);
      },
    );
    return () => {
      live = false;
      // Destroying the loading task ends the document and its worker.
      void task.destroy();
    };
  }, [base64]);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setViewport({ width: el.clientWidth, height: el.clientHeight }));
    observer.observe(el);
    setViewport({ width: el.clientWidth, height: el.clientHeight });
    return () => observer.disconnect();
  }, [doc]);

  const widest = useMemo(() => sizes.reduce((m, s) => Math.max(m, s.width), 0) || 595, [sizes]);
  const fit = fitWidthScale(widest, viewport.width);
  const scale = zoom === 'fit' ? fit : zoom === 'auto' ? Math.min(fit, AUTO_MAX_SCALE) : zoom;
  const layout = useMemo(() => layoutPages(sizes, scale, GAP), [sizes, scale]);
  const margin = viewport.height * MARGIN_VIEWPORTS;
  const [from, to] = pagesInView(layout, scrollTop - margin, scrollTop + viewport.height + margin);
  const current = layout.length ? pagesInView(layout, scrollTop + viewport.height / 3, scrollTop + viewport.height / 3)[0] + 1 : 0;

  const scrollToPage = useCallback((n: number) => {
    const el = scroller.current;
    const box = layout[n - 1];
    if (el && box) el.scrollTop = box.top - GAP / 2;
  }, [layout]);

  // After a zoom, bring back the page that was in view.
  useLayoutEffect(() => {
    if (anchor.current === null) return;
    scrollToPage(anchor.current);
    anchor.current = null;
  }, [scale, scrollToPage]);

  const setZoomKeepingPage = (next: number | 'fit' | 'auto') => {
    anchor.current = current || 1;
    setZoom(next);
  };

  const onSize = useCallback((n: number, size: PageSize) => setSizes((old) => old.map((s, i) => (i === n - 1 ? size : s))), []);

  const submitJump = () => {
    const n = clampPage(jump ?? '', sizes.length);
    if (n !== null) scrollToPage(n);
    setJump(null);
  };

  if (error) return <Callout intent={Intent.DANGER} icon="error" title={t.pdfFailed}>{error}</Callout>;
  if (!doc) {
    return (
      <div className="cairn-pdf-loading">
        <Spinner size={SpinnerSize.STANDARD} />
        <span className={Classes.TEXT_MUTED}>{t.pdfLoading}</span>
      </div>
    );
  }

  const height = layout.length ? layout[layout.length - 1]!.top + layout[layout.length - 1]!.height + GAP : 0;
  const width = Math.max(...layout.map((p) => p.width), 0) + GAP * 2;
  const percent = Math.round(scale * 100);

  return (
    <div className="cairn-pdf">
      <div className="cairn-pdf-toolbar">
        <span className="cairn-pdf-pages" data-testid="pdf-page-count">
          <InputGroup
            className="cairn-pdf-jump"
            size="small"
            aria-label={t.jump}
            value={jump ?? String(current)}
            onFocus={(e) => e.currentTarget.select()}
            onValueChange={(v) => setJump(v.replace(/\D/g, ''))}
            onKeyDown={(e) => {
              if (e.key === 'Enter') submitJump();
              if (e.key === 'Escape') setJump(null);
            }}
            onBlur={() => setJump(null)}
          />
          <span>{t.pageOf(sizes.length)}</span>
        </span>
        <ButtonGroup>
          <Tooltip content={t.zoomOut}>
            <Button icon="zoom-out" aria-label={t.zoomOut} disabled={scale <= ZOOM_STEPS[0]!} onClick={() => setZoomKeepingPage(zoomStep(scale, -1))} />
          </Tooltip>
          <Button className="cairn-pdf-zoom" text={t.zoom(percent)} disabled />
          <Tooltip content={t.zoomIn}>
            <Button icon="zoom-in" aria-label={t.zoomIn} disabled={scale >= ZOOM_STEPS[ZOOM_STEPS.length - 1]!} onClick={() => setZoomKeepingPage(zoomStep(scale, 1))} />
          </Tooltip>
          <Button icon="arrows-horizontal" text={t.fitWidth} active={zoom === 'fit'} onClick={() => setZoomKeepingPage('fit')} />
        </ButtonGroup>
      </div>
      <div className="cairn-pdf-scroll" ref={scroller} onScroll={(e: UIEvent<HTMLDivElement>) => setScrollTop(e.currentTarget.scrollTop)} data-testid="pdf-scroll">
        <div className="cairn-pdf-pages-box" style={{ height, minWidth: width }}>
          {layout.map((box, i) =>
            i >= from && i <= to ? (
              <div key={i} className="cairn-pdf-page" data-testid="pdf-page" data-page={i + 1} style={{ top: box.top, width: box.width, height: box.height }}>
                <PageCanvas doc={doc} pageNumber={i + 1} scale={scale} size={sizes[i]!} onSize={onSize} />
              </div>
            ) : null,
          )}
        </div>
      </div>
    </div>
  );
}
