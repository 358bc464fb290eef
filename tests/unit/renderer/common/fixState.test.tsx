// A finding's 修复版本 and the knowledge base's per-release statements (issue 16 item 6): versions
// when there are some, the distribution's reason when there are none (发行版不修复 …), 暂无修复版本
// otherwise; the affected-package table gets a 发行版状态 column, 不受影响 included.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FixedIn, FixStateTag } from '../../../../renderer/common/vulnerability/FixState.tsx';
import { AffectedPackagesTable } from '../../../../renderer/common/vulnerability/AdvisoryParts.tsx';
import type { AffectedPackageView } from '../../../../contract/api/vulnerability.ts';

const text = (html: string) => html.replace(/<[^>]+>/g, '');

describe('修复版本与发行版状态', () => {
  it('shows the fixed versions, else why there are none', () => {
    expect(text(renderToStaticMarkup(<FixedIn versions={['1.2.3', '1.3.0', '2.0.0', '2.1.0']} state="fixed" max={3} />))).toBe('1.2.3, 1.3.0, 2.0.0');
    const wontFix = renderToStaticMarkup(<FixedIn versions={[]} state="will_not_fix" />);
    expect(text(wontFix)).toBe('发行版不修复');
    expect(wontFix).toContain('data-state="will_not_fix"');
    expect(text(renderToStaticMarkup(<FixedIn versions={[]} state="end_of_life" />))).toBe('发行版已停止支持');
    expect(text(renderToStaticMarkup(<FixedIn versions={[]} state="fix_deferred" />))).toBe('发行版延期修复');
    expect(text(renderToStaticMarkup(<FixedIn versions={[]} state="affected" />))).toBe('暂无修复版本');
    expect(text(renderToStaticMarkup(<FixedIn versions={[]} state="affected" empty="--" />))).toBe('--');
    expect(text(renderToStaticMarkup(<FixStateTag state="not_affected" />))).toBe('不受影响');
  });

  it('lists each distribution release with its status in the affected-package table', () => {
    const row = (over: Partial<AffectedPackageView>): AffectedPackageView => ({
      ecosystem: 'rpm', distribution: 'redhat:7', name: 'bash', affected: ['全部版本'], ranges: [], versions: [], vulnerable: [], patched: [], fixed: [], fixState: null, ...over,
    });
    const html = renderToStaticMarkup(<AffectedPackagesTable affected={[
      row({ fixState: 'will_not_fix' }),
      row({ ecosystem: 'deb', distribution: 'debian:12', affected: [], fixState: 'not_affected' }),
      row({ ecosystem: 'deb', distribution: 'ubuntu:24.04', affected: ['< 5.2.21-2ubuntu4'], fixed: ['5.2.21-2ubuntu4'], fixState: 'fixed' }),
    ]} />);
    expect(html).toContain('发行版状态');
    expect(text(html)).toContain('不修复');
    expect(text(html)).toContain('不受影响');
    expect(text(html)).toContain('已修复');
    expect(text(html)).toContain('发行版：Red Hat Enterprise Linux 7');
    expect(text(html)).toContain('发行版：Ubuntu 24.04');
    // A language package's advisory has no distribution statements: no column.
    expect(renderToStaticMarkup(<AffectedPackagesTable affected={[row({ ecosystem: 'npm', distribution: null, name: 'lodash' })]} />)).not.toContain('发行版状态');
  });
});

describe('发行版名称', () => {
  it('names releases as people do', async () => {
    const { distributionLabel } = await import('../../../../contract/ecosystems.ts');
    expect(distributionLabel('redhat:8')).toBe('Red Hat Enterprise Linux 8');
    expect(distributionLabel('sles:15.5')).toBe('SUSE Linux Enterprise 15 SP5');
    expect(distributionLabel('sles:15')).toBe('SUSE Linux Enterprise 15');
    expect(distributionLabel('opensuse-leap:15.6')).toBe('openSUSE Leap 15.6');
    expect(distributionLabel('wolfi')).toBe('Wolfi');
    expect(distributionLabel('something:1')).toBe('something:1');
  });
});
