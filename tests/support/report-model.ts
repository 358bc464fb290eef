// A deterministic ReportModel for the report writers' tests and the report benchmark: real-looking
// component names, purls, levels, marks and VEX statements, in any size.
import { VULNERABILITY_MARK_LABEL } from '../../contract/enums.ts';
import { recommendedUpgrade } from '../../server/kb/advisory-view.ts';
import type { Level, LevelCounts, ReportComponent, ReportModel, ReportVulnerability } from '../../server/reports/model.ts';

const LEVELS: Level[] = [1, 2, 4, 8, 16];
const ECOSYSTEMS = [
  { eco: 'npm', purl: (n: string, v: string) => `pkg:npm/${n}@${v}` },
  { eco: 'maven', purl: (n: string, v: string) => `pkg:maven/org.example/${n}@${v}` },
  { eco: 'pypi', purl: (n: string, v: string) => `pkg:pypi/${n}@${v}` },
  { eco: 'golang', purl: (n: string, v: string) => `pkg:golang/github.com/example/${n}@v${v}` },
];
const LICENSES = ['MIT', 'Apache-2.0', 'BSD-3-Clause', 'GPL-2.0-only', 'LGPL-2.1-or-later', 'MIT OR Apache-2.0', 'MPL-2.0', null];
const NAMES = ['lodash', 'jackson-databind', 'werkzeug', 'x-net', 'log4j-core', 'requests', 'express', 'netty-codec', 'pyyaml', 'gin'];

const emptyLevels = (): LevelCounts => ({ 1: 0, 2: 0, 4: 0, 8: 0, 16: 0 });

/** `incomplete`: the knowledge base held nothing for golang and was 45 days old when the run was analysed. */
export function sampleReportModel(options: { components?: number; vulnerabilities?: number; incomplete?: boolean; binaryEvidence?: boolean } = {}): ReportModel {
  const componentCount = options.components ?? 40;
  const vulnerabilityCount = options.vulnerabilities ?? 60;
  const components: ReportComponent[] = [];
  for (let i = 0; i < componentCount; i++) {
    const e = ECOSYSTEMS[i % ECOSYSTEMS.length]!;
    const name = `${NAMES[i % NAMES.length]}${i >= NAMES.length ? `-${i}` : ''}`;
    const version = `${1 + (i % 5)}.${i % 10}.${i % 3}`;
    const license = LICENSES[i % LICENSES.length] ?? null;
    components.push({
      ref: `c${i + 1}`,
      name,
      version,
      purl: e.purl(name, version),
      ecosystem: e.eco,
      direct: i % 4 === 0,
      scope: i % 7 === 0 ? 'dev' : 'runtime',
      license,
      licenseLevel: license?.startsWith('GPL') ? 2 : license ? 8 : 16,
      risk: 32,
      vulnerabilityCount: 0,
      locations: [{ file: e.eco === 'npm' ? 'package-lock.json' : e.eco === 'maven' ? 'pom.xml' : e.eco === 'pypi' ? 'requirements.txt' : 'go.mod', line: i + 1 }],
      // binaryEvidence: the first Maven component was also found as a jar inside a war (a binary identification).
      evidence: options.binaryEvidence && e.eco === 'maven' && i < ECOSYSTEMS.length ? [{ file: `app.war!/WEB-INF/lib/${name}-${version}.jar!/META-INF/maven/org.example/${name}/pom.properties`, rule: 'pom.properties', text: `version=${version}`, offset: 1234 }] : [],
      confidence: options.binaryEvidence && e.eco === 'maven' && i < ECOSYSTEMS.length ? 1 : null,
      constraint: null,
      mark: i % 11 === 0 ? 'F' : 'N',
      markRemark: i % 11 === 0 ? '测试依赖，不随产品发布' : '',
      recommendVersion: i % 3 === 0 ? `${2 + (i % 5)}.0.0` : null,
      covered: !(options.incomplete && e.eco === 'golang'),
      layer: null,
    });
  }
  const vulnerabilities: ReportVulnerability[] = [];
  for (let i = 0; i < vulnerabilityCount && components.length > 0; i++) {
    const c = components[(i * 7) % components.length]!;
    const level = LEVELS[i % LEVELS.length]!;
    c.vulnerabilityCount += 1;
    c.risk = c.risk === 32 ? level : Math.min(c.risk, level);
    const cve = `CVE-2024-${String(10000 + i)}`;
    vulnerabilities.push({
      id: cve,
      aliases: [`GHSA-${(1000 + i).toString(36)}-abcd-efgh`],
      cve,
      cnnvd: i % 2 === 0 ? `CNNVD-2024${String(100 + i).padStart(4, '0')}` : null,
      cnvd: null,
      componentRef: c.ref,
      componentName: c.name,
      componentVersion: c.version,
      componentPurl: c.purl,
      title: `${c.name} 中的输入校验缺陷 (${cve})`,
      description: `${c.name} ${c.version} 在处理特制请求时未正确校验输入长度，远程攻击者可借此造成拒绝服务或执行任意代码。`,
      level,
      originalLevel: level,
      levelRemark: '',
      score: level === 1 ? 9.8 : level === 2 ? 7.5 : level === 4 ? 5.3 : level === 8 ? 3.1 : null,
      vector: level === 16 ? null : 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
      severitySource: level === 1 ? 'CVSS:3.1 NVD 9.8' : level === 2 ? 'CVSS:3.1 GHSA 7.5' : level === 4 ? 'CVSS:3.1 NVD 5.3' : level === 8 ? 'CVSS:3.1 NVD 3.1' : '',
      cwes: ['CWE-20'],
      fixedVersions: [`${c.version.split('.')[0]}.9.9`],
      upgrade: recommendedUpgrade(c.ecosystem, c.version, [`${c.version.split('.')[0]}.9.9`]),
      published: '2024-03-01T00:00:00.000Z',
      references: [`https://nvd.nist.gov/vuln/detail/${cve}`],
      mark: i % 5 === 0 ? 2 : 0,
      markRemark: i % 5 === 0 ? '该接口未对外开放，无需修复' : '',
      vex: i % 5 === 0 ? 1 : i % 3 === 0 ? 2 : 0,
      vexRemark: i % 5 === 0 ? '受影响代码在本产品中不可达' : '',
    });
  }
  const vulnerabilityLevels = emptyLevels();
  for (const v of vulnerabilities) vulnerabilityLevels[v.level] += 1;
  const componentRisks: Record<string, number> = {};
  for (const c of components) componentRisks[c.risk] = (componentRisks[c.risk] ?? 0) + 1;
  const licenseIds = new Map<string, number>();
  for (const c of components) {
    for (const id of (c.license ?? '').split(/\s+(?:OR|AND)\s+/).filter(Boolean)) licenseIds.set(id, (licenseIds.get(id) ?? 0) + 1);
  }
  const licenses = [...licenseIds].map(([spdxId, count]) => ({
    spdxId,
    name: spdxId,
    level: (spdxId.startsWith('GPL') ? 2 : 8) as Level,
    componentCount: count,
    osiApproved: true,
    fsfLibre: true,
    copyleft: spdxId.startsWith('GPL') ? 'strong' : spdxId.startsWith('LGPL') || spdxId.startsWith('MPL') ? 'weak' : 'none',
  }));
  const licenseLevels = emptyLevels();
  for (const l of licenses) licenseLevels[l.level] += 1;
  const conflicts = components
    .filter((c) => c.license === 'GPL-2.0-only')
    .map((c) => ({
      componentRef: c.ref,
      componentName: c.name,
      componentVersion: c.version,
      license: c.license!,
      verdict: 'incompatible' as const,
      explanation: 'GPL-2.0-only 要求衍生作品整体以 GPL-2.0 发布，与项目声明的 Apache-2.0 不兼容。',
      source: 'osadl' as const,
    }));
  const ecosystems = new Map<string, number>();
  for (const c of components) ecosystems.set(c.ecosystem, (ecosystems.get(c.ecosystem) ?? 0) + 1);
  return {
    title: '开源软件成分分析报告',
    scope: 'full',
    generatedAt: '2026-11-22T08:00:00.000Z',
    tool: { name: 'Cairn', version: '0.1.0' },
    author: 'admin',
    subject: { id: 1, name: '网上银行系统', version: 'V2.3' },
    project: { id: 1, name: '核心交易服务', codeType: 9, codeTypeLabel: '源码压缩包', outboundLicense: 'Apache-2.0' },
    task: { id: 1, seq: 2, startedAt: '2026-11-22T07:58:00.000Z', finishedAt: '2026-11-22T07:59:30.000Z', analysisModes: '1,4,7' },
    summary: {
      components: components.length,
      directComponents: components.filter((c) => c.direct).length,
      vulnerabilities: vulnerabilities.length,
      vulnerabilityLevels,
      componentRisks,
      licenses: licenses.length,
      licenseLevels,
      conflicts: conflicts.length,
      ecosystems: [...ecosystems].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count),
    },
    coverage: options.incomplete
      ? {
          complete: false,
          headline: `漏洞结果不完整：知识库中没有 golang 生态的漏洞数据（${components.filter((c) => !c.covered).length} 个组件未覆盖）；知识库已 45 天未更新（超过 30 天）`,
          reasons: [`知识库中没有 golang 生态的漏洞数据（${components.filter((c) => !c.covered).length} 个组件未覆盖）`, '知识库已 45 天未更新（超过 30 天）'],
          uncoveredComponents: components.filter((c) => !c.covered).length,
        }
      : { complete: true, headline: null, reasons: [], uncoveredComponents: 0 },
    image: null,
    components,
    edges: components.map((c, i) => ({ from: c.direct || i === 0 ? null : `c${Math.max(1, Math.floor(i / 4) * 4 + 1)}`, to: c.ref })),
    vulnerabilities,
    licenses,
    // Where the licences were found: a full text, a header, a tag, a weak reference, a modified text, a declaration.
    licenceFindings: [
      { spdxId: 'Apache-2.0', file: 'LICENSE', startLine: 1, endLine: 201, kind: 'text', score: 98, evidence: ['Apache License', 'Version 2.0, January 2004', 'http://www.apache.org/licenses/'], nearest: null },
      { spdxId: 'GPL-2.0-only', file: 'tools/viewer.py', startLine: 2, endLine: 14, kind: 'header', score: 91, evidence: ['This program is free software; you can redistribute it and/or modify', 'it under the terms of the GNU General Public License version 2'], nearest: null },
      { spdxId: 'MIT', file: 'src/main.js', startLine: 1, endLine: 1, kind: 'tag', score: 100, evidence: ['// SPDX-License-Identifier: MIT'], nearest: null },
      { spdxId: 'BSD-3-Clause', file: 'README.md', startLine: 40, endLine: 40, kind: 'reference', score: 50, evidence: ['Released under a BSD license.'], nearest: null },
      { spdxId: 'LicenseRef-Cairn-modified-MIT', file: 'vendor/acme/LICENSE', startLine: 1, endLine: 21, kind: 'text', score: 86, evidence: ['The Software shall be used for Good, not Evil.'], nearest: 'MIT' },
      { spdxId: 'MIT', file: 'web/package.json', startLine: null, endLine: null, kind: 'declared', score: 100, evidence: [], nearest: null },
    ],
    licenceFilter: null,
    conflicts,
    osadlVersion: '2026-02-12',
    markLogs: vulnerabilities
      .filter((v) => v.mark !== 0)
      .slice(0, 20)
      .map((v) => ({ kind: 'vulnerability', target: `${v.componentName}@${v.componentVersion} ${v.id}`, oldValue: '待审核', newValue: VULNERABILITY_MARK_LABEL[v.mark as 2] ?? String(v.mark), remark: v.markRemark, user: 'admin', at: '2026-11-22T07:59:50.000Z' })),
  };
}

/**
 * The sample model as the report of a container image run: a Debian-based image in four layers
 * (the base, an apt-get step, a COPY of the application, a step the history does not describe),
 * each component in the layer it first appeared in; its Debian packages (base-files and curl, which
 * brings libssl3 and it libc6) in the base and apt-get layers.
 */
export function sampleImageReportModel(options: { components?: number; vulnerabilities?: number } = {}): ReportModel {
  const model = sampleReportModel(options);
  model.project = { ...model.project, codeType: 12, codeTypeLabel: '容器镜像' };
  const steps = [
    '/bin/sh -c #(nop) ADD file:6f2d3e7a1c0b in / ',
    'RUN /bin/sh -c apt-get update && apt-get install -y --no-install-recommends ca-certificates curl # buildkit',
    '/bin/sh -c #(nop) COPY dir:4b1f0c9e2d7a in /app ',
    null,
  ];
  // The Debian base system's packages: base-files and curl installed, curl bringing libssl3 and it libc6.
  const debs = [['base-files', '12.4+deb12u5', 'GPL-2.0-or-later'], ['curl', '7.88.1-10+deb12u5', 'curl'], ['libssl3', '3.0.11-1~deb12u2', 'Apache-2.0'], ['libc6', '2.36-9+deb12u4', 'LGPL-2.1-or-later']] as const;
  for (const [name, version, license] of debs) {
    model.components.push({
      ref: `c${model.components.length + 1}`, name, version, purl: `pkg:deb/debian/${name}@${version}?arch=amd64&distro=debian-12`, ecosystem: 'deb',
      direct: name === 'base-files' || name === 'curl', scope: 'runtime', license, licenseLevel: 8, risk: 32, vulnerabilityCount: 0,
      locations: [{ file: 'var/lib/dpkg/status', line: null }], evidence: [], confidence: null, constraint: null, mark: 'N', markRemark: '', recommendVersion: null, covered: true, layer: null,
    });
  }
  const refOf = (name: string) => model.components.find((c) => c.name === name)!.ref;
  model.edges.push({ from: null, to: refOf('base-files') }, { from: null, to: refOf('curl') }, { from: refOf('curl'), to: refOf('libssl3') }, { from: refOf('libssl3'), to: refOf('libc6') });
  model.summary = { ...model.summary, components: model.components.length, directComponents: model.components.filter((c) => c.direct).length, ecosystems: [...model.summary.ecosystems, { name: 'deb', count: debs.length }] };
  const layerOf = (i: number) => (i % 8 === 7 ? 3 : i % 3);
  model.components.forEach((c, i) => { c.layer = c.ecosystem === 'deb' ? (c.name === 'curl' || c.name === 'libssl3' ? 1 : 0) : layerOf(i); });
  model.image = {
    reference: 'registry.example.com/bank/core-trade:2.3.0',
    manifestDigest: 'sha256:9b2a6c1e0f3d4a5b6c7d8e9f00112233445566778899aabbccddeeff00112233',
    platform: 'linux/amd64',
    os: { id: 'debian', versionId: '12', prettyName: 'Debian GNU/Linux 12 (bookworm)' },
    created: '2026-11-20T03:14:15.000Z',
    size: 31_457_280 + 8_388_608 + 2_097_152 + 1024,
    layers: steps.map((createdBy, index) => ({
      index,
      digest: `sha256:${String(index).repeat(64)}`,
      size: [31_457_280, 8_388_608, 2_097_152, 1024][index]!,
      createdBy,
      components: model.components.filter((c) => c.layer === index).length,
    })),
  };
  return model;
}
