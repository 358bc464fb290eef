// An external link (reference, fix commit). It opens in a new window, which the desktop app never
// creates: main's window-open handler hands plain https links to the system browser
// (main/window.ts, main/external-url.ts) and refuses anything else. The URL can also be copied.
import { Button, Tooltip } from '@blueprintjs/core';
import { toastNotifier as notify } from '../app/toaster.ts';
import { zh } from '../i18n/zh-CN.ts';

const t = zh.vul;

const isWebUrl = (url: string): boolean => /^https?:\/\/[^\s]+$/i.test(url.trim());

async function copy(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    notify.success(t.copied);
  } catch {
    notify.error(t.copyFailed);
  }
}

export function ExternalLink({ url }: { url: string }) {
  return (
    <span className="cairn-external-link">
      {isWebUrl(url) ? (
        <a href={url} target="_blank" rel="noopener noreferrer" title={t.openLink} className="cairn-url-link">
          {url}
        </a>
      ) : (
        <span className="cairn-url-text">{url}</span>
      )}
      <Tooltip content={t.copyLink}>
        <Button size="small" variant="minimal" icon="duplicate" aria-label={t.copyLink} onClick={() => void copy(url)} />
      </Tooltip>
    </span>
  );
}
