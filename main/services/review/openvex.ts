// OpenVEX: one row per statement (vulnerability, products, status and why).
import type { ReviewDocument } from '../../../contract/ipc/desktop-contract.ts';
import { cell, list, obj, table, text } from './tables.ts';

type Json = Record<string, unknown>;

export const isOpenVex = (doc: Json): boolean => /openvex/i.test(text(doc['@context']));

/** A product is an `@id` (with subcomponents) in 0.2, a plain string in 0.0.x. */
function productLabel(product: unknown): string {
  if (typeof product === 'string') return product;
  const p = obj(product);
  const id = text(p['@id']) || text(obj(p.identifiers).purl);
  const subs = list(p.subcomponents).map((s) => (typeof s === 'string' ? s : text(obj(s)['@id']))).filter(Boolean);
  return subs.length ? `${id}（${subs.join(', ')}）` : id;
}

export function readOpenVex(doc: Json, fileName: string): ReviewDocument {
  const statements = list(doc.statements).map(obj).map((s) => {
    const vulnerability = typeof s.vulnerability === 'string' ? s.vulnerability : text(obj(s.vulnerability).name) || text(obj(s.vulnerability)['@id']);
    return {
      vulnerability: vulnerability || null,
      products: list(s.products).map(productLabel).filter(Boolean).join('; ') || null,
      status: cell(s.status),
      justification: cell(s.justification),
      impact: cell(s.impact_statement),
      action: cell(s.action_statement),
      timestamp: cell(s.timestamp),
    };
  });
  const version = /v(\d+\.\d+(?:\.\d+)?)/.exec(text(doc['@context']))?.[1];
  return {
    kind: 'sbom',
    fileName,
    standard: version ? `OpenVEX ${version}` : 'OpenVEX',
    name: text(doc['@id']) || text(doc.author) || fileName,
    tables: [
      table('statements', '声明', [['vulnerability', '漏洞'], ['products', '产品'], ['status', '状态'], ['justification', '理由'], ['impact', '影响说明'], ['action', '处置措施'], ['timestamp', '时间']], statements),
    ],
  };
}
