// A Word report as HTML (main converts the .docx), sanitised again here with DOMPurify before it
// touches the DOM, shown as a page. Links never navigate the app: in-document anchors (footnotes,
// table of contents) scroll within the page, others are inert.
import { useMemo, type MouseEvent } from 'react';
import DOMPurify from 'dompurify';
import { EmptyState } from '../../common/states.tsx';
import { libraryZh } from '../../i18n/library.ts';

/** HTML safe to insert: no scripts, handlers, forms, frames or <style> (which would restyle the app). */
function sanitizeReportHtml(html: string): string {
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'link', 'meta', 'base'],
    FORBID_ATTR: ['style', 'class'],
    // Anchor targets (ids, names) get a user-content- prefix so they cannot clash with the app's own.
    SANITIZE_NAMED_PROPS: true,
  });
}

export function HtmlDocument({ html }: { html: string }) {
  const clean = useMemo(() => sanitizeReportHtml(html), [html]);

  const onClick = (e: MouseEvent<HTMLElement>) => {
    const link = (e.target as HTMLElement).closest('a');
    if (!link) return;
    e.preventDefault();
    const href = link.getAttribute('href') ?? '';
    if (!href.startsWith('#')) return;
    const name = decodeURIComponent(href.slice(1));
    const target = e.currentTarget.querySelector(`[id="user-content-${CSS.escape(name)}"], [name="user-content-${CSS.escape(name)}"]`);
    target?.scrollIntoView({ block: 'start' });
  };

  if (!clean.trim()) return <EmptyState icon="document" title={libraryZh.review.emptyHtml} />;
  return (
    <div className="cairn-doc-scroll">
      <article className="cairn-doc-page" data-testid="review-html" onClick={onClick} dangerouslySetInnerHTML={{ __html: clean }} />
    </div>
  );
}
