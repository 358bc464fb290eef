// The system vulnerability dialog's form: its values as typed, the add/edit payloads built from
// them (blank fields left out, lists split), and the values of an existing entry. Pure, tested
// in Node. The platform validates everything again and its messages are shown as given.
import type { SystemAdd, SystemEdit, VulnerabilityDetail } from '../../../../contract/api/vulnerability.ts';
import { purlTypeOfOsvEcosystem } from '../../../../contract/ecosystems.ts';
import { validateFields, type FieldErrors } from '../../../common/form/formErrors.ts';
import { ECOSYSTEMS } from '../../../common/vulnerability/fields.ts';

export type Ecosystem = SystemAdd['packages'][number]['ecosystem'];

export interface PackageForm {
  ecosystem: Ecosystem;
  name: string;
  /** One constraint per line (a constraint may itself contain commas: `>=1.0.0, <1.2.3`). */
  vulnerable: string;
  /** Versions separated by commas, spaces or new lines. */
  fixed: string;
}

export interface SystemVulForm {
  identify: string;
  name: string;
  description: string;
  vector: string;
  /** '' = decided by the vector. */
  level: '' | '1' | '2' | '4' | '8' | '16';
  /** '' = automatic. */
  exploit: '' | '1' | '2' | '4' | '16';
  cve: string;
  cnnvd: string;
  cnvd: string;
  aliases: string;
  cwes: string;
  packages: PackageForm[];
  references: string;
  fixCommits: string;
  published: string;
}

export const emptyPackage = (): PackageForm => ({ ecosystem: 'maven', name: '', vulnerable: '', fixed: '' });

export const emptyForm = (): SystemVulForm => ({
  identify: '',
  name: '',
  description: '',
  vector: '',
  level: '',
  exploit: '',
  cve: '',
  cnnvd: '',
  cnvd: '',
  aliases: '',
  cwes: '',
  packages: [emptyPackage()],
  references: '',
  fixCommits: '',
  published: '',
});

const unique = (items: string[]): string[] => [...new Set(items)];
/** Items separated by commas (ASCII or full-width), semicolons, spaces or new lines. */
export const splitWords = (text: string): string[] => unique(text.split(/[\s,，;；]+/).map((s) => s.trim()).filter(Boolean));
/** One item per line. */
export const splitLines = (text: string): string[] => unique(text.split(/\r?\n/).map((s) => s.trim()).filter(Boolean));

export function ecosystemFor(value: string): Ecosystem {
  const v = value.trim().toLowerCase();
  if ((ECOSYSTEMS as readonly string[]).includes(v)) return v as Ecosystem;
  const type = purlTypeOfOsvEcosystem(v);
  return type && (ECOSYSTEMS as readonly string[]).includes(type) ? (type as Ecosystem) : 'generic';
}

/** Only the name is checked here; the platform checks the rest and says what is wrong. */
export const checkForm = (form: SystemVulForm, messages: { nameRequired: string }): FieldErrors<SystemVulForm> =>
  validateFields<SystemVulForm>({ name: (name) => (name.trim() ? null : messages.nameRequired) })(form);

type Fields = Omit<SystemAdd, 'identify'>;

function fieldsOf(form: SystemVulForm): Fields {
  const out: Fields = { name: form.name.trim(), packages: [] };
  const text = (v: string) => v.trim();
  if (text(form.description)) out.description = form.description.trim();
  if (text(form.vector)) out.vector = text(form.vector);
  if (form.level) out.level = Number(form.level) as NonNullable<Fields['level']>;
  if (form.exploit) out.exploit = Number(form.exploit) as NonNullable<Fields['exploit']>;
  if (text(form.cve)) out.cve = text(form.cve);
  if (text(form.cnnvd)) out.cnnvd = text(form.cnnvd);
  if (text(form.cnvd)) out.cnvd = text(form.cnvd);
  const aliases = splitWords(form.aliases);
  if (aliases.length) out.aliases = aliases;
  const cwes = splitWords(form.cwes).map((c) => (/^\d+$/.test(c) ? `CWE-${c}` : c.toUpperCase()));
  if (cwes.length) out.cwes = cwes;
  for (const p of form.packages) {
    // A package row left completely blank is a row the user did not use.
    if (!p.name.trim() && !p.vulnerable.trim() && !p.fixed.trim()) continue;
    const fixed = splitWords(p.fixed);
    out.packages.push({ ecosystem: p.ecosystem, name: p.name.trim(), vulnerable: splitLines(p.vulnerable), ...(fixed.length ? { fixed } : {}) });
  }
  const references = splitLines(form.references);
  if (references.length) out.references = references;
  const fixCommits = splitLines(form.fixCommits);
  if (fixCommits.length) out.fixCommits = fixCommits;
  if (text(form.published)) out.published = text(form.published);
  return out;
}

export function addPayload(form: SystemVulForm): SystemAdd {
  const identify = form.identify.trim();
  return { ...(identify ? { identify } : {}), ...fieldsOf(form) };
}

export function editPayload(id: number, form: SystemVulForm): SystemEdit {
  return { id, ...fieldsOf(form) };
}

/** The form of an existing system vulnerability. */
export function formOf(v: VulnerabilityDetail): SystemVulForm {
  const ids = new Set([v.identify, v.cve, v.cnnvd, v.cnvd].filter(Boolean));
  return {
    identify: v.identify,
    name: v.name,
    description: v.details,
    vector: v.vector ?? '',
    // With a vector the level follows from it; without one the stored level is the chosen one.
    level: v.vector ? '' : (String(v.level) as SystemVulForm['level']),
    exploit: v.vector ? '' : (String(v.exploit) as SystemVulForm['exploit']),
    cve: v.cve ?? '',
    cnnvd: v.cnnvd ?? '',
    cnvd: v.cnvd ?? '',
    aliases: v.aliases.filter((a) => !ids.has(a)).join(', '),
    cwes: v.cwes.join(', '),
    packages: v.affected.length
      ? v.affected.map((p) => ({
          ecosystem: ecosystemFor(p.ecosystem),
          name: p.name,
          vulnerable: (p.vulnerable.length ? p.vulnerable : p.affected).join('\n'),
          fixed: p.fixed.join(', '),
        }))
      : [],
    references: v.references.map((r) => r.url).join('\n'),
    fixCommits: v.fixCommits.join('\n'),
    published: v.published ? v.published.slice(0, 10) : '',
  };
}

export type FieldKey = 'identify' | 'name' | 'vector' | 'level' | 'cve' | 'cnnvd' | 'cnvd' | 'aliases' | 'cwes' | 'packages' | 'references' | 'published';

/** The fields the dialog shows a refusal beside (a refusal about the packages shows at the top). */
export const FIELD_KEYS: readonly FieldKey[] = ['identify', 'name', 'vector', 'level', 'cve', 'cnnvd', 'cnvd', 'aliases', 'cwes', 'references', 'published'];

/**
 * The field a refusal of the platform is about, to mark it next to the message (the message
 * itself is shown as given). Matched on the wording of the platform's messages; null when it
 * names no single field.
 */
export function fieldOfMessage(message: string): FieldKey | null {
  const rules: Array<[RegExp, FieldKey]> = [
    [/^CVE 编号/, 'cve'],
    [/^CNNVD 编号/, 'cnnvd'],
    [/^CNVD 编号/, 'cnvd'],
    [/^漏洞编号/, 'identify'],
    [/^漏洞名称/, 'name'],
    [/^CVSS 向量/, 'vector'],
    [/^请选择漏洞等级/, 'level'],
    [/^漏洞别名/, 'aliases'],
    [/^CWE/, 'cwes'],
    [/^链接/, 'references'],
    [/^发布日期/, 'published'],
    [/受影响组件|^组件 /, 'packages'],
  ];
  for (const [re, field] of rules) if (re.test(message.trim())) return field;
  return null;
}
