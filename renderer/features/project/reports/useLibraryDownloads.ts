// The desktop report library as 报告管理 sees it: which reports of the active server profile are
// downloaded or downloading (library.list once, then every `library:progress` event), and
// `start(row)`, which hands a succeeded row to the library. Only renderer/platform touches
// window.desktop; without a bridge the screen still lists reports and says why it cannot download.
import { useCallback, useEffect, useState } from 'react';
import type { ReportRow } from '../../../../contract/api/report.ts';
import type { LibraryEntry } from '../../../../contract/ipc/desktop-contract.ts';
import { useProfilesQuery } from '../../../api/desktopApi.ts';
import { findDesktop, invokeDesktop } from '../../../platform/desktop.ts';
import { entriesByReport, toDownloadRequest } from './reportModel.ts';

export interface LibraryDownloads {
  /** Library entries of the active profile by platform report id. */
  byReport: ReadonlyMap<number, LibraryEntry>;
  /** Whether the page has a desktop bridge to download with. */
  available: boolean;
  /** Starts (or restarts) the download of a row; rejects with the bridge's Chinese message. */
  start: (row: ReportRow) => Promise<LibraryEntry>;
}

export function useLibraryDownloads(): LibraryDownloads {
  const available = findDesktop() !== null;
  const profiles = useProfilesQuery(undefined, { skip: !available });
  const profileId = profiles.data?.activeId ?? null;
  const [byReport, setByReport] = useState<ReadonlyMap<number, LibraryEntry>>(new Map());

  const put = useCallback((entry: LibraryEntry) => {
    setByReport((old) => {
      const next = new Map(old);
      next.set(entry.reportId, entry);
      return next;
    });
  }, []);

  useEffect(() => {
    const bridge = findDesktop();
    if (!bridge || profileId === null) return undefined;
    let live = true;
    // Events first, so nothing that happens while the list is read is lost; the list then only
    // fills reports the events have not mentioned.
    const off = bridge.library.progress((entry) => {
      if (live && entry.profileId === profileId) put(entry);
    });
    invokeDesktop((d) => d.library.list({ profileId }))
      .then((entries) => {
        if (!live) return;
        const listed = entriesByReport(entries, profileId);
        setByReport((old) => {
          const next = new Map(listed);
          for (const [id, entry] of old) next.set(id, entry);
          return next;
        });
      })
      // A library that cannot be read leaves the rows without a download state; downloading still works.
      .catch(() => undefined);
    return () => {
      live = false;
      off();
    };
  }, [profileId, put]);

  const start = useCallback(
    async (row: ReportRow) => {
      const entry = await invokeDesktop((d) => d.library.download(toDownloadRequest(row)));
      // Main reports every change as a `library:progress` event, in order; the answer may arrive
      // after later events (a small file is done before its answer is), so it only fills a gap.
      setByReport((old) => (old.has(entry.reportId) ? old : new Map(old).set(entry.reportId, entry)));
      return entry;
    },
    [put],
  );

  return { byReport, available, start };
}
