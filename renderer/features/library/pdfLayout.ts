// Pure geometry of the PDF viewer: where each page sits at a scale, which pages meet a band of
// the scroll area, the zoom steps and fit width. Tested in Node.

export interface PageSize {
  width: number;
  height: number;
}
export interface PageBox extends PageSize {
  top: number;
}

export const ZOOM_STEPS: readonly number[] = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4];

/** Pages stacked with `gap` above each, at `scale`. */
export function layoutPages(sizes: readonly PageSize[], scale: number, gap: number): PageBox[] {
  const out: PageBox[] = [];
  let top = gap;
  for (const s of sizes) {
    const height = Math.round(s.height * scale);
    out.push({ top, width: Math.round(s.width * scale), height });
    top += height + gap;
  }
  return out;
}

/**
 * Zero-based [first, last] of the pages meeting [from, to] (inclusive); a page in a gap counts
 * the next one. [0, -1] when there are no pages.
 */
export function pagesInView(layout: readonly PageBox[], from: number, to: number): [number, number] {
  if (layout.length === 0) return [0, -1];
  // First page whose bottom reaches `from`.
  let lo = 0;
  let hi = layout.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (layout[mid]!.top + layout[mid]!.height < from) lo = mid + 1;
    else hi = mid;
  }
  const first = lo;
  let last = first;
  while (last + 1 < layout.length && layout[last + 1]!.top <= to) last += 1;
  return [first, last];
}

/** The scale at which a page of `pageWidth` points fills `available` pixels less a margin, within the zoom range. */
export function fitWidthScale(pageWidth: number, available: number, margin = 48): number {
  if (pageWidth <= 0 || available <= margin) return 1;
  return Math.min(ZOOM_STEPS[ZOOM_STEPS.length - 1]!, Math.max(ZOOM_STEPS[0]!, (available - margin) / pageWidth));
}

/** The next zoom step above (+1) or below (-1) the current scale (which may be a fit-width scale between steps). */
export function zoomStep(scale: number, direction: 1 | -1): number {
  if (direction > 0) return ZOOM_STEPS.find((s) => s > scale + 0.001) ?? ZOOM_STEPS[ZOOM_STEPS.length - 1]!;
  return [...ZOOM_STEPS].reverse().find((s) => s < scale - 0.001) ?? ZOOM_STEPS[0]!;
}

/** A typed page number within 1..count, or null for anything else. */
export function clampPage(text: string, count: number): number | null {
  const n = Number.parseInt(text.trim(), 10);
  if (!Number.isFinite(n) || count < 1) return null;
  return Math.min(count, Math.max(1, n));
}

/** Base64 (as main sends a PDF) to bytes. */
export function base64Bytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
