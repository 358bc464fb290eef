import { describe, expect, it } from 'vitest';
import { isAppUrl, isTrustedSender } from '../../../main/ipc/sender.ts';
import { isSafeExternalUrl } from '../../../main/external-url.ts';

describe('IPC sender check', () => {
  const trusted = new Set([7]);
  it('accepts only our window, top frame, app://cairn', () => {
    expect(isTrustedSender({ webContentsId: 7, frameUrl: 'app://cairn/index.html#/home', isMainFrame: true }, trusted)).toBe(true);
    expect(isTrustedSender({ webContentsId: 8, frameUrl: 'app://cairn/index.html', isMainFrame: true }, trusted)).toBe(false);
    expect(isTrustedSender({ webContentsId: 7, frameUrl: 'app://cairn/index.html', isMainFrame: false }, trusted)).toBe(false);
    expect(isTrustedSender({ webContentsId: 7, frameUrl: 'https://evil.example/', isMainFrame: true }, trusted)).toBe(false);
    expect(isTrustedSender({ webContentsId: 7, frameUrl: 'app://other/index.html', isMainFrame: true }, trusted)).toBe(false);
    expect(isTrustedSender({ webContentsId: 7, frameUrl: null, isMainFrame: true }, trusted)).toBe(false);
  });
  it('parses app:// URLs strictly', () => {
    expect(isAppUrl('app://cairn/')).toBe(true);
    expect(isAppUrl('app://u:p@cairn/')).toBe(false);
    expect(isAppUrl('file:///etc/passwd')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });
});

describe('external links', () => {
  it('opens only plain https links with a real host', () => {
    expect(isSafeExternalUrl('https://nvd.nist.gov/vuln/detail/CVE-2021-44228')).toBe(true);
    expect(isSafeExternalUrl('https://10.0.0.1/x')).toBe(true);
    for (const bad of ['http://example.com', 'file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'https://user:pw@example.com', 'https://localhost/', 'https://intranet/', 'ms-settings:', '', 42]) {
      expect(isSafeExternalUrl(bad), String(bad)).toBe(false);
    }
  });
});
