// A description written in Markdown (markdown.ts's safe subset), drawn as React elements: no HTML
// is ever parsed or injected, so a <script> or <img onerror> in a description stays inert text.
// Links open in a new window, which the desktop never creates: main's window-open handler hands
// plain https addresses to the system browser (main/window-policy.ts) and refuses anything else.
import { Fragment, type ReactNode } from 'react';
import { parseMarkdown, type Block, type Inline } from '../../contract/markdown.ts';

function inlines(nodes: Inline[]): ReactNode {
  return nodes.map((n, i) => {
    switch (n.kind) {
      case 'text':
        return <Fragment key={i}>{n.text}</Fragment>;
      case 'code':
        return <code key={i} className="cairn-md-code">{n.text}</code>;
      case 'strong':
        return <strong key={i}>{inlines(n.children)}</strong>;
      case 'em':
        return <em key={i}>{inlines(n.children)}</em>;
      case 'link':
        return (
          <a key={i} href={n.url} target="_blank" rel="noopener noreferrer" title={n.url} className="cairn-url-link">
            {inlines(n.children)}
          </a>
        );
    }
  });
}

function blocks(nodes: Block[]): ReactNode {
  return nodes.map((b, i) => {
    switch (b.kind) {
      case 'heading':
        // Headings sit inside a panel that has its own title: they read as sub-headings.
        return <div key={i} className={`cairn-md-heading cairn-md-h${Math.min(b.level, 4)}`} role="heading" aria-level={Math.min(b.level + 2, 6)}>{inlines(b.children)}</div>;
      case 'paragraph':
        return <p key={i}>{inlines(b.children)}</p>;
      case 'code':
        return <pre key={i} className="cairn-md-pre" data-lang={b.lang || undefined}><code>{b.text}</code></pre>;
      case 'list':
        return b.ordered ? (
          <ol key={i} start={b.start === 1 ? undefined : b.start}>{b.items.map((item, j) => <li key={j}>{listItem(item)}</li>)}</ol>
        ) : (
          <ul key={i}>{b.items.map((item, j) => <li key={j}>{listItem(item)}</li>)}</ul>
        );
      case 'quote':
        return <blockquote key={i}>{blocks(b.children)}</blockquote>;
      case 'rule':
        return <hr key={i} />;
    }
  });
}

/** A list item of one paragraph is drawn without the paragraph's margins. */
const listItem = (item: Block[]): ReactNode => (item.length === 1 && item[0]!.kind === 'paragraph' ? inlines(item[0]!.children) : blocks(item));

export function Markdown({ text, className }: { text: string; className?: string }) {
  return <div className={`cairn-markdown${className ? ` ${className}` : ''}`}>{blocks(parseMarkdown(text))}</div>;
}
