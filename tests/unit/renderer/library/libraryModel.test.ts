// The report library's pure helpers (progress merging, filter matching, actions per state, short
// SHA-256, profiles present) and the PDF viewer's geometry (layout, pages in view, zoom, jump).
import { describe, expect, it } from 'vitest';
import type { LibraryEntry } from '../../../../contract/ipc/desktop-contract.ts';
import { actionsFor, matchesFilter, mergeEntry, profilesOf, progressOf, reviewUrl, shortSha } from '../../../../renderer/features/library/libraryModel.ts';
import { base64Bytes, clampPage, fitWidthScale, layoutPages, pagesInView, zoomStep } from '../../../../renderer/features/library/pdfLayout.ts';

const entry = (over: Partial<LibraryEntry> = {}): LibraryEntry => ({
  id: 'e1',
  profileId: 'local',
  profileName: '本机',
  reportId: 7,
  fileName: 'demo-report.pdf',
  format: 'pdf',
  subjectName: '支付网关',
  projectName: 'gateway-core',
  taskId: 12,
  generatedAt: '2026-11-20T08:00:00Z',
  downloadedAt: '2026-11-20T08:01:00Z',
  size: 1000,
  received: 1000,
  sha256: 'a'.repeat(64),
  state: 'done',
  error: null,
  ...over,
});

describe('library entries', () => {
  it('replaces a row on progress and adds a new download at the top when it matches', () => {
    const list = [entry({ id: 'e1' }), entry({ id: 'e2' })];
    const updated = mergeEntry(list, entry({ id: 'e2', state: 'downloading', received: 10 }), { query: '', profileId: '' });
    expect(updated.map((e) => [e.id, e.state])).toEqual([['e1', 'done'], ['e2', 'downloading']]);
    expect(mergeEntry(list, entry({ id: 'e3' }), { query: '', profileId: '' }).map((e) => e.id)).toEqual(['e3', 'e1', 'e2']);
    expect(mergeEntry(list, entry({ id: 'e3' }), { query: '', profileId: 'other' }).map((e) => e.id)).toEqual(['e1', 'e2']);
    expect(mergeEntry(list, entry({ id: 'e3', fileName: 'x.pdf' }), { query: 'sbom', profileId: '' })).toHaveLength(2);
  });

  it('matches file, subject and project names like library.list', () => {
    const e = entry();
    expect(matchesFilter(e, { query: 'DEMO', profileId: '' })).toBe(true);
    expect(matchesFilter(e, { query: '支付', profileId: 'local' })).toBe(true);
    expect(matchesFilter(e, { query: 'gateway-core demo', profileId: '' })).toBe(true);
    expect(matchesFilter(e, { query: 'nothing', profileId: '' })).toBe(false);
    expect(matchesFilter(e, { query: '', profileId: 'remote-1' })).toBe(false);
  });

  it('computes progress, indeterminate without a size', () => {
    expect(progressOf({ state: 'downloading', received: 250, size: 1000 })).toBe(0.25);
    expect(progressOf({ state: 'downloading', received: 250, size: 0 })).toBeUndefined();
    expect(progressOf({ state: 'done', received: 0, size: 0 })).toBe(1);
    expect(progressOf({ state: 'retrying', received: 2000, size: 1000 })).toBe(1);
  });

  it('offers each state its actions', () => {
    expect(actionsFor('done')).toEqual({ view: true, openExternal: true, reveal: true, verify: true, redownload: true, cancel: false, remove: true });
    expect(actionsFor('downloading')).toMatchObject({ view: false, verify: false, cancel: true, remove: false, redownload: false });
    expect(actionsFor('corrupt')).toMatchObject({ view: false, reveal: true, verify: true, redownload: true, remove: true });
    expect(actionsFor('failed')).toMatchObject({ view: false, reveal: false, redownload: true, remove: true });
    expect(actionsFor('cancelled')).toMatchObject({ redownload: true, remove: true, cancel: false });
  });

  it('shortens the SHA-256 and lists the profiles present', () => {
    expect(shortSha('0123456789abcdef'.repeat(4))).toBe('0123456789ab');
    expect(shortSha(null)).toBeNull();
    expect(profilesOf([entry({ profileId: 'r', profileName: '总部' }), entry(), entry({ id: 'x' })])).toEqual([
      { id: 'r', name: '总部' },
      { id: 'local', name: '本机' },
    ].sort((a, b) => a.name.localeCompare(b.name, 'zh-CN')));
    expect(reviewUrl('a b&c')).toBe('/desktop/review?id=a+b%26c');
  });
});

describe('pdf layout', () => {
  const sizes = Array.from({ length: 100 }, () => ({ width: 595, height: 842 }));

  it('stacks pages with gaps at a scale', () => {
    const layout = layoutPages(sizes.slice(0, 3), 0.5, 10);
    expect(layout).toEqual([
      { top: 10, width: 298, height: 421 },
      { top: 441, width: 298, height: 421 },
      { top: 872, width: 298, height: 421 },
    ]);
  });

  it('finds only the pages meeting the band', () => {
    const layout = layoutPages(sizes, 1, 16);
    expect(pagesInView(layout, 0, 800)).toEqual([0, 0]);
    expect(pagesInView(layout, 800, 1000)).toEqual([0, 1]);
    const [first, last] = pagesInView(layout, 50 * 858, 50 * 858 + 1200);
    expect(first).toBe(49);
    expect(last - first).toBeLessThanOrEqual(2);
    expect(pagesInView(layout, 1e9, 2e9)).toEqual([99, 99]);
    expect(pagesInView([], 0, 100)).toEqual([0, -1]);
  });

  it('fits the width, steps the zoom and clamps page jumps', () => {
    expect(fitWidthScale(595, 595 + 48)).toBeCloseTo(1);
    expect(fitWidthScale(595, 10)).toBe(1);
    expect(fitWidthScale(10, 100_000)).toBe(4);
    expect(zoomStep(1, 1)).toBe(1.25);
    expect(zoomStep(1.1, -1)).toBe(1);
    expect(zoomStep(1.1, 1)).toBe(1.25);
    expect(zoomStep(0.25, -1)).toBe(0.25);
    expect(zoomStep(4, 1)).toBe(4);
    expect(clampPage('5', 10)).toBe(5);
    expect(clampPage('0', 10)).toBe(1);
    expect(clampPage('99', 10)).toBe(10);
    expect(clampPage('x', 10)).toBeNull();
  });

  it('decodes base64 bytes', () => {
    expect([...base64Bytes(Buffer.from('%PDF-1.7').toString('base64'))]).toEqual([...Buffer.from('%PDF-1.7')]);
  });
});
