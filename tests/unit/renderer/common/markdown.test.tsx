// Advisory descriptions are Markdown from outside sources: the subset renders as React elements,
// raw HTML stays inert text, and only http(s) addresses become links.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { Markdown } from '../../../../renderer/common/Markdown.tsx';
import { markdownToText, parseInline, parseMarkdown } from '../../../../contract/markdown.ts';

const html = (text: string) => renderToStaticMarkup(<Markdown text={text} />);
const CORPUS = path.resolve(import.meta.dirname, '../../../../../shared/corpora/advisories');

describe('safe Markdown', () => {
  it('keeps a <script>, an <img onerror> and an <iframe> as inert text', () => {
    const out = html('Before <script>alert(1)</script> and <img src=x onerror="alert(2)"> after.\n\n<iframe src="https://evil.example"></iframe>');
    expect(out).not.toMatch(/<script|<img|<iframe/i);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('&lt;img src=x onerror=&quot;alert(2)&quot;&gt;');
    // onerror survives only as escaped text, never as an attribute.
    expect(out).not.toMatch(/<[^>]+\sonerror=/i);
  });

  it('links only http(s) addresses: javascript:, data: and relative targets stay text', () => {
    const out = html('[click](javascript:alert(1)) [img](data:text/html;base64,PHNjcmlwdD4=) [rel](/etc/passwd) [ok](https://example.org/a?b=1&c=2)');
    expect(out).not.toMatch(/href="(javascript|data|\/etc)/i);
    // The whole link is consumed, parentheses of the target included: only its label is left.
    expect(out).toContain('<p>click img rel <a');
    expect(out).toContain('<a href="https://example.org/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer"');
    expect(html('[wiki](https://en.wikipedia.org/wiki/ReDoS_(attack))')).toContain('href="https://en.wikipedia.org/wiki/ReDoS_(attack)"');
    const quoted = html('[x](https://example.org/"onmouseover="alert(1))');
    expect(quoted).not.toMatch(/<a[^>]+onmouseover/i);
  });

  it('renders paragraphs, headings, fenced code, lists, quotes and inline styles', () => {
    const out = html('# Impact\n\nA **bold** and *em* with `code` and __strong__.\nSame paragraph.\n\n- one\n- two with [link](https://a.example)\n\n1. first\n2. second\n\n> quoted\n\n```rust\nlet x = "<b>";\n```\n\n---');
    expect(out).toContain('<div class="cairn-md-heading cairn-md-h1" role="heading" aria-level="3">Impact</div>');
    expect(out).toContain('<p>A <strong>bold</strong> and <em>em</em> with <code class="cairn-md-code">code</code> and <strong>strong</strong>.\nSame paragraph.</p>');
    expect(out).toContain('<ul><li>one</li><li>two with <a href="https://a.example"');
    expect(out).toContain('<ol><li>first</li><li>second</li></ol>');
    expect(out).toContain('<blockquote><p>quoted</p></blockquote>');
    expect(out).toContain('<pre class="cairn-md-pre" data-lang="rust"><code>let x = &quot;&lt;b&gt;&quot;;</code></pre>');
    expect(out).toContain('<hr/>');
  });

  it('leaves snake_case and lone markers alone, and links bare and angle-bracket addresses', () => {
    expect(parseInline('reject_remote_clients stays * as is')).toEqual([{ kind: 'text', text: 'reject_remote_clients stays * as is' }]);
    expect(parseInline('see https://nvd.nist.gov/vuln/detail/CVE-2021-44228.')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', url: 'https://nvd.nist.gov/vuln/detail/CVE-2021-44228', children: [{ kind: 'text', text: 'https://nvd.nist.gov/vuln/detail/CVE-2021-44228' }] },
      { kind: 'text', text: '.' },
    ]);
    expect(parseInline('<https://a.example/x>')[0]).toMatchObject({ kind: 'link', url: 'https://a.example/x' });
  });

  it('resolves reference-style links and drops their definitions (RustSec RUSTSEC-2023-0001)', () => {
    const doc = JSON.parse(readFileSync(path.join(CORPUS, 'crates.io/RUSTSEC-2023-0001.json'), 'utf8')) as { details: string };
    const blocks = parseMarkdown(doc.details);
    expect(blocks.map((b) => b.kind)).toEqual(['paragraph', 'paragraph', 'paragraph', 'heading', 'paragraph', 'code']);
    const out = html(doc.details);
    expect(out).toContain('<a href="https://docs.rs/tokio/latest/tokio/net/windows/named_pipe/struct.ServerOptions.html#method.pipe_mode"');
    expect(out).toContain('<pre class="cairn-md-pre" data-lang="rust"><code>let mut opts = ServerOptions::new();');
    expect(out).not.toContain(']:');
  });

  it('renders a real OSV description without losing text (PYSEC-2022-42969)', () => {
    const doc = parseYaml(readFileSync(path.join(CORPUS, 'pypi/py/PYSEC-2022-42969.yaml'), 'utf8')) as { details: string };
    const out = html(doc.details);
    expect(out).toBe(`<div class="cairn-markdown"><p>${doc.details.trim()}</p></div>`);
  });

  it('gives documents plain text: markers removed, links with their address, bullets, code indented', () => {
    expect(markdownToText('## Impact\n\nA **bold** [fix](https://e.example/pr/1) and <https://a.example>.\n\n- one\n- two\n\n```\nx = 1\n```'))
      .toBe('Impact\n\nA bold fix（https://e.example/pr/1） and https://a.example.\n\n• one\n• two\n\n    x = 1');
    const doc = JSON.parse(readFileSync(path.join(CORPUS, 'crates.io/RUSTSEC-2026-0038.json'), 'utf8')) as { details: string };
    const text = markdownToText(doc.details);
    expect(text).toContain('Vulnerability Type:\nImproper Control of Generation of Code');
    expect(text).toContain('Apich Organization Security Team Homepage（https://security.apich.org/）');
    expect(text).not.toMatch(/\*\*|## /);
  });
});
