// The renderer's Content-Security-Policy (design.md §7 "strict CSP"), sent with every renderer
// response by the app:// protocol and by the web host (main/static-files.ts).
import { describe, expect, it } from 'vitest';
import { RENDERER_CSP, SECURITY_HEADERS } from '../../../main/static-files.ts';

const directives = new Map(
  RENDERER_CSP.split(';')
    .map((d) => d.trim().split(/\s+/))
    .filter((parts) => parts[0])
    .map(([name, ...sources]) => [name!, sources]),
);

describe('renderer CSP', () => {
  it('never allows eval, and scripts only from our own origin', () => {
    expect(RENDERER_CSP).not.toMatch(/unsafe-eval/);
    expect(directives.get('script-src')).toEqual(["'self'"]);
  });

  it('has a restrictive default-src', () => {
    expect(directives.get('default-src')).toEqual(["'self'"]);
  });

  it('allows no plugins, base rewriting, form posts or framing', () => {
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('form-action')).toEqual(["'none'"]);
    expect(directives.get('frame-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('connects only to our own origin (platform calls go through main), and names no other host', () => {
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    for (const [name, sources] of directives) {
      for (const source of sources) expect(source, `${name} ${source}`).toMatch(/^('self'|'none'|'unsafe-inline'|data:|blob:)$/);
    }
    // Inline styles only (Blueprint positions popovers with style attributes), never inline scripts.
    expect([...directives].filter(([, s]) => s.includes("'unsafe-inline'")).map(([n]) => n)).toEqual(['style-src']);
  });

  it('is sent with every renderer response, with the other hardening headers', () => {
    expect(SECURITY_HEADERS['Content-Security-Policy']).toBe(RENDERER_CSP);
    expect(SECURITY_HEADERS['X-Content-Type-Options']).toBe('nosniff');
    expect(SECURITY_HEADERS['X-Frame-Options']).toBe('DENY');
  });
});
