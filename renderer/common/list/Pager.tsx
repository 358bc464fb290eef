// Paging under a list: total, page x / y, previous / next, page size.
import { Button, ButtonGroup, HTMLSelect } from '@blueprintjs/core';
import { PAGE_SIZES, pageCount } from './urlState.ts';
import { zh } from '../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.list;

export function Pager({ page, size, total, onPage, onSize, sizes = PAGE_SIZES }: {
  page: number;
  size: number;
  total: number;
  onPage: (page: number) => void;
  onSize?: (size: number) => void;
  sizes?: readonly number[];
}) {
  const pages = pageCount(total, size);
  return (
    <div className="cairn-pager">
      <span className="cairn-muted">{t.total(total)}</span>
      <span className="cairn-pager-spacer" />
      {onSize ? (
        <HTMLSelect
          aria-label={t.pageSize(size)}
          value={size}
          minimal
          onChange={(e) => onSize(Number(e.currentTarget.value))}
          options={sizes.map((n) => ({ value: n, label: t.pageSize(n) }))}
        />
      ) : null}
      <span className="cairn-pager-label">{t.pageOf(Math.min(page, pages), pages)}</span>
      <ButtonGroup>
        <Button icon="chevron-left" aria-label={t.prevPage} title={t.prevPage} disabled={page <= 1} onClick={() => onPage(page - 1)} />
        <Button icon="chevron-right" aria-label={t.nextPage} title={t.nextPage} disabled={page >= pages} onClick={() => onPage(page + 1)} />
      </ButtonGroup>
    </div>
  );
}
