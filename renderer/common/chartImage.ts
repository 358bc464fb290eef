// The file name a chart is saved under as PNG. Pure, tested in Node.

/** `任务详情-组件风险分布-20260122-101530.png`: characters a file system refuses are replaced. */
export function imageFileName(title: string, at: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${at.getFullYear()}${p(at.getMonth() + 1)}${p(at.getDate())}-${p(at.getHours())}${p(at.getMinutes())}${p(at.getSeconds())}`;
  const safe = title.replace(/[\\/:*?"<>|\s]+/g, '_').replace(/^_+|_+$/g, '') || 'chart';
  return `${safe}-${stamp}.png`;
}
