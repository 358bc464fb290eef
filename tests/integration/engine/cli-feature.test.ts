// `cairn feature`: writes a folder's feature file; `cairn scan` of that file finds the components
// the folder has (under the folder's name, as in a zip of it); bad arguments are refused in Chinese.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { featureCommand, FeatureUsageError } from '../../../cli/commands/feature.ts';
import { scanCommand } from '../../../cli/commands/scan.ts';
import { isFeatureFile } from '../../../server/engine/index.ts';
import { TRIVY } from '../../support/golden.ts';

const work = mkdtempSync(path.join(tmpdir(), 'cairn-cli-feature-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface JsonOut { components: Array<{ purl: string }>; targets: Array<{ file: string; type: string }> }

describe('cairn feature', () => {
  it('writes a feature file that cairn scan reads like the folder', async () => {
    const folder = path.join(work, 'app');
    cpSync(path.join(TRIVY, 'repo', 'cargo'), folder, { recursive: true });
    writeFileSync(path.join(folder, 'main.rs'), 'fn main() {}\n');
    const out = path.join(work, 'app.zip');
    const { file, summary } = await featureCommand([folder, '--output', out]);
    expect(file).toBe(out);
    expect(await isFeatureFile(out)).toBe(true);
    expect(summary).toMatch(/特征文件已写入 .*app\.zip：3 个文件.*其中 2 个清单、锁文件与许可证文件/);
    const fromFeature = JSON.parse((await scanCommand([out])).output) as JsonOut;
    const fromFolder = JSON.parse((await scanCommand([folder])).output) as JsonOut;
    expect(fromFeature.components.map((c) => c.purl).sort()).toEqual(fromFolder.components.map((c) => c.purl).sort());
    expect(fromFeature.targets.map((t) => `${t.file}:${t.type}`)).toEqual(['app/Cargo.lock:cargo']);
  });

  it('refuses what is not a folder, and an output inside the folder', async () => {
    await expect(featureCommand([])).rejects.toThrow(FeatureUsageError);
    await expect(featureCommand([path.join(work, 'missing')])).rejects.toThrow(/找不到目录/);
    await expect(featureCommand([path.join(TRIVY, 'repo', 'cargo', 'Cargo.lock')])).rejects.toThrow(/不是目录/);
    const folder = path.join(work, 'inside');
    cpSync(path.join(TRIVY, 'repo', 'cargo'), folder, { recursive: true });
    await expect(featureCommand([folder, '-o', path.join(folder, 'f.zip')])).rejects.toThrow(/不能写在被扫描的目录/);
  });
});
