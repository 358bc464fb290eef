// SBOM and SBOM-like serialisations Cairn does not read, recognised by their content so that a
// refusal names what the file is (and how to get one Cairn reads) instead of calling it an
// unknown format or, for an upload meant as an archive, no archive.

const ASCII = new TextDecoder('latin1');

/** What a CycloneDX Bom message encoded as binary protobuf starts with: field 1 (spec_version, length-delimited) "1.x". */
function isCycloneDxProtobuf(bytes: Uint8Array): boolean {
  if (bytes.length < 5 || bytes[0] !== 0x0a) return false;
  const length = bytes[1]!;
  if (length < 3 || length > 4) return false;
  return /^1\.\d{1,2}$/.test(ASCII.decode(bytes.subarray(2, 2 + length)));
}

const hasBinaryBytes = (bytes: Uint8Array): boolean => bytes.subarray(0, 4096).some((b) => b === 0 || (b < 0x09) || (b > 0x0d && b < 0x20 && b !== 0x1b));

/**
 * The name (in Chinese) of the unread serialisation a file's content is, with what to export
 * instead; null when it is none of them.
 */
export function unreadSerialisation(bytes: Uint8Array, fileName: string): { format: string; advice: string } | null {
  if (isCycloneDxProtobuf(bytes) || (/\.(?:cdx|bom)\.(?:pb|bin|protobuf)$/i.test(fileName) && hasBinaryBytes(bytes))) {
    return { format: 'CycloneDX protobuf 二进制格式', advice: '请转换为 CycloneDX JSON、XML 或 protobuf 文本格式（cyclonedx-cli convert --output-format json）' };
  }
  if (hasBinaryBytes(bytes)) return null;
  const head = new TextDecoder('utf-8').decode(bytes.subarray(0, 8192)).replace(/^\uFEFF/, '');
  if (/@prefix\s+\w*:\s*<https?:\/\/spdx\.org\/rdf\/3\./.test(head) || (/spdx\.org\/rdf\/3\./.test(head) && /<rdf:RDF[\s>]/.test(head))) {
    return { format: 'SPDX 3 RDF（Turtle / RDF/XML）', advice: '请导出为 SPDX 3 JSON-LD（.spdx.json）' };
  }
  if (/@prefix\s+\w*:\s*<https?:\/\/spdx\.org\/rdf\/terms#?>/.test(head)) {
    return { format: 'SPDX 2 RDF Turtle', advice: '请导出为 SPDX 2 的 JSON、YAML、tag-value 或 RDF/XML' };
  }
  if (/<SoftwareIdentity[\s>]/.test(head) && /19770/.test(head)) {
    return { format: 'SWID 标签（ISO/IEC 19770-2）', advice: 'SWID 标签只描述单个软件，请提供该软件的 CycloneDX 或 SPDX SBOM' };
  }
  if (/"@context"\s*:\s*"https:\/\/openvex\.dev\/ns/.test(head)) {
    return { format: 'OpenVEX 漏洞可利用性声明（不是 SBOM）', advice: '请上传产品的 CycloneDX 或 SPDX SBOM' };
  }
  if (/"csaf_version"\s*:/.test(head)) {
    return { format: 'CSAF 安全公告（不是 SBOM）', advice: '请上传产品的 CycloneDX 或 SPDX SBOM' };
  }
  if (/"schema"\s*:\s*\{[^}]*anchore\/syft/.test(head) || (/"artifacts"\s*:/.test(head) && /"artifactRelationships"\s*:/.test(head))) {
    return { format: 'syft 自有 JSON 格式', advice: '请用 syft -o cyclonedx-json 或 -o spdx-json 导出' };
  }
  if (/"SchemaVersion"\s*:\s*2/.test(head) && /"ArtifactName"\s*:/.test(head)) {
    return { format: 'Trivy JSON 扫描报告', advice: '请用 trivy --format cyclonedx 或 --format spdx-json 导出' };
  }
  if (/"@context"\s*:/.test(head) && /spdx\.org\/rdf\//.test(head)) {
    return { format: '无法识别版本的 SPDX JSON-LD', advice: 'Cairn 读取 SPDX 3.0.x JSON-LD（@context 为 https://spdx.org/rdf/3.0.x/spdx-context.jsonld）与 SPDX 2.x' };
  }
  return null;
}

/** The Chinese refusal of an unread serialisation. */
export function unreadSerialisationMessage(fileName: string, found: { format: string; advice: string }): string {
  return `SBOM 文件 ${fileName} 是${found.format}，Cairn 不读取该格式：${found.advice}`;
}

/** The refusal of an SBOM uploaded as a source archive: what it is, and the source type that reads it. */
export const sbomNotArchiveMessage = (fileName: string, what: string): string =>
  `上传的文件 ${fileName} 是${what}，不是压缩包：请选择「SBOM 文件」来源类型分析它`;
