import { describe, expect, it } from 'vitest';
import {
  ALL_CODE_TYPES,
  ANALYSIS_MODE_LABEL,
  ANALYSIS_MODE_ORDER,
  isAnalysisModeOffered,
  offeredAnalysisModes,
  BINARY_CODE_TYPES,
  CHANGE_TYPE_LABEL,
  CLONE_REPORT_EXTENSION,
  CLONE_REPORT_TYPE_LABEL,
  CODE_TYPE_LABEL,
  COMPONENT_MARK_LABEL,
  COMPONENT_RISK_LABEL,
  COMPONENT_TYPE_LABEL,
  CRON_TYPE_LABEL,
  CUSTOM_FIELD_TYPE_LABEL,
  DETECT_STATUS_LABEL,
  DETECT_TYPE_LABEL,
  EXPLOIT_DIFFICULTY_LABEL,
  EXPORT_EXTENSION,
  EXPORT_STATUS_LABEL,
  FTP_CODE_TYPES,
  GIT_CODE_TYPES,
  IMAGE_REPOSITORY_CODE_TYPES,
  IMPORT_RECORD_STATUS_LABEL,
  LICENSE_LEVEL_LABEL,
  LOCAL_UPLOAD_CODE_TYPES,
  MATCHED_TYPE_LABEL,
  NEW_PROJECT_DEFAULTS,
  PRODUCT_LABEL,
  PROJECT_IMPORTANCE_LABEL,
  PROJECT_TYPE_LABEL,
  RATING_LABEL,
  REMOTE_VCS_CODE_TYPES,
  REPOSITORY_MANAGER_TYPE_LABEL,
  RULE_CONDITION_LABEL,
  SCAN_STATUS_LABEL,
  SSH_TYPE_LABEL,
  STRATEGY_STATUS_LABEL,
  STRATEGY_STATUS_ORDER,
  SUBJECT_CODE_SOURCE_LABEL,
  SVN_CODE_TYPES,
  TASK_QUEUE_OPTION,
  TASK_STATUS_LABEL,
  TASK_STATUS_ORDER,
  USER_TYPE_LABEL,
  VEX_LABEL,
  VULNERABILITY_LEVEL_LABEL,
  VULNERABILITY_MARK_LABEL,
  defaultCodeType,
  defaultImagePlatform,
  extraFieldsOf,
  takesImagePlatform,
  isBinaryTask,
  isCodeType,
  isGitType,
  isSyncedUserType,
  isTaskRunning,
  isTimingDisabled,
  labelOf,
  optionsOf,
  parseAnalysisModes,
  projectTypeOfCodeType,
  repositoryManagerProjectSource,
  snippetMatchedLabel,
  sshTypeWhenEditing,
  usesBinaryVariant,
  withExportExtension,
} from '../../../contract/enums.ts';

const keys = (t: object): number[] => Object.keys(t).map(Number).sort((a, b) => a - b);
const HAN = /[\u4e00-\u9fff]/;

describe('labelOf / optionsOf', () => {
  it('finds labels by numeric or string code and answers -- otherwise', () => {
    expect(labelOf(CODE_TYPE_LABEL, 0)).toBe('源码-本地上传');
    expect(labelOf(CODE_TYPE_LABEL, '2')).toBe('源码-Git');
    expect(labelOf(CODE_TYPE_LABEL, 6)).toBe('--');
    expect(labelOf(CODE_TYPE_LABEL, null)).toBe('--');
    expect(labelOf(CODE_TYPE_LABEL, undefined)).toBe('--');
    expect(labelOf(CODE_TYPE_LABEL, '')).toBe('--');
    expect(labelOf(TASK_STATUS_LABEL, -1)).toBe('重新发送');
    expect(labelOf(COMPONENT_MARK_LABEL, 'W')).toBe('白名单');
    expect(labelOf(COMPONENT_MARK_LABEL, 'toString')).toBe('--');
  });

  it('builds options in a given order with numeric values', () => {
    const opts = optionsOf(TASK_STATUS_LABEL, TASK_STATUS_ORDER);
    expect(opts.map((o) => o.value)).toEqual([-1, 0, 1, 2, 3, 4]);
    expect(opts[0]).toEqual({ value: -1, label: '重新发送' });
    expect(optionsOf(COMPONENT_MARK_LABEL).map((o) => o.value)).toEqual(['N', 'F', 'L', 'W', 'Y']);
  });
});

describe('code source types (getCodeType)', () => {
  it('holds exactly the codes of the table, with the table\'s meanings', () => {
    expect(ALL_CODE_TYPES).toEqual([0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40]);
    expect(CODE_TYPE_LABEL[0]).toBe('源码-本地上传');
    for (const c of [1, 3, 8]) expect(CODE_TYPE_LABEL[c as 1]).toBe('源码-SVN');
    for (const c of [2, 4, 7, 10]) expect(CODE_TYPE_LABEL[c as 2]).toBe('源码-Git');
    expect(CODE_TYPE_LABEL[5]).toBe('源码-TFVC');
    expect(CODE_TYPE_LABEL[9]).toBe('特征文件-本地');
    expect(CODE_TYPE_LABEL[12]).toBe('容器镜像-本地');
    expect(CODE_TYPE_LABEL[13]).toBe('容器镜像-公共仓库');
    expect(CODE_TYPE_LABEL[16]).toBe('二进制制品-本地');
    expect(CODE_TYPE_LABEL[19]).toBe('源码-FTP');
    expect(CODE_TYPE_LABEL[30]).toBe('SBOM');
    expect(CODE_TYPE_LABEL[31]).toBe('容器镜像-私有仓库');
    expect(CODE_TYPE_LABEL[34]).toBe('Excel清单');
    expect(CODE_TYPE_LABEL[38]).toBe('二进制制品-FTP');
    expect(CODE_TYPE_LABEL[39]).toBe('源码-Mercurial');
    expect(isCodeType(6)).toBe(false);
    expect(isCodeType(40)).toBe(true);
  });

  it('groups the types as the spec lists them', () => {
    expect([...LOCAL_UPLOAD_CODE_TYPES]).toEqual([0, 9, 12, 16, 30, 32, 34]);
    expect([...REMOTE_VCS_CODE_TYPES]).toEqual([1, 2, 3, 4, 5, 7, 8, 10, 36, 37, 39, 40]);
    expect([...GIT_CODE_TYPES]).toEqual([2, 4, 7, 10]);
    expect([...SVN_CODE_TYPES]).toEqual([1, 3, 8, 36, 37]);
    expect([...IMAGE_REPOSITORY_CODE_TYPES]).toEqual([13, 14, 15, 17, 18, 31, 35]);
    expect([...FTP_CODE_TYPES]).toEqual([19, 38]);
    expect([...BINARY_CODE_TYPES]).toEqual([16, 17, 18, 36, 37, 38]);
    for (const c of GIT_CODE_TYPES) expect(CODE_TYPE_LABEL[c]).toContain('Git');
    for (const c of SVN_CODE_TYPES) expect(CODE_TYPE_LABEL[c]).toContain('SVN');
    for (const c of FTP_CODE_TYPES) expect(CODE_TYPE_LABEL[c]).toContain('FTP');
    for (const c of BINARY_CODE_TYPES) expect(CODE_TYPE_LABEL[c]).toMatch(/^二进制制品-/);
    for (const c of [...LOCAL_UPLOAD_CODE_TYPES, ...REMOTE_VCS_CODE_TYPES, ...IMAGE_REPOSITORY_CODE_TYPES]) expect(isCodeType(c)).toBe(true);
    expect(isGitType(7)).toBe(true);
    expect(isGitType(8)).toBe(false);
    expect(isBinaryTask(36)).toBe(true);
    expect(isBinaryTask(0)).toBe(false);
  });

  it('names the extra fields each type carries', () => {
    expect(extraFieldsOf(13)).toEqual(['imageNameTag', 'imageUsername', 'imagePassword', 'imageCaPem', 'imageInsecure', 'imagePlatform']);
    expect(extraFieldsOf(31)).toEqual(extraFieldsOf(13));
    // artifact repositories of binaries carry the spec's three fields only
    expect(extraFieldsOf(17)).toEqual(['imageNameTag', 'imageUsername', 'imagePassword']);
    expect(extraFieldsOf(35)).toContain('imageNameTag');
    expect(extraFieldsOf(11)).toEqual(['fireFlyIp', 'fireFlyPort', 'fireFlyProj', 'fireFlyLabel', 'fireFlyBranchName', 'fireFlyUserName', 'fireFlyPassWord', 'fireFlySsl']);
    expect(extraFieldsOf(19)).toEqual(['ftpIp', 'ftpFilePath', 'ftpUserName', 'ftpPassWord', 'ftpSsl']);
    expect(extraFieldsOf(38)).toEqual(extraFieldsOf(19));
    expect(extraFieldsOf(33)).toEqual(['stream', 'pvob', 'vob']);
    expect(extraFieldsOf(2)).toContain('svnGitUri');
    expect(extraFieldsOf(0)).toEqual([]);
    expect(extraFieldsOf(null)).toEqual([]);
    // an uploaded image (本地镜像文件) names the platform analysed of a multi-platform archive
    expect(extraFieldsOf(12)).toEqual(['imagePlatform']);
    expect(takesImagePlatform(12)).toBe(true);
    expect(takesImagePlatform(13)).toBe(true);
    expect(takesImagePlatform(9)).toBe(false);
  });

  it('picks the platform analysed when the form names none: linux/amd64, else the only one', () => {
    expect(defaultImagePlatform(['linux/arm64', 'linux/amd64'])).toBe('linux/amd64');
    expect(defaultImagePlatform(['linux/arm64'])).toBe('linux/arm64');
    expect(defaultImagePlatform(['linux/arm64', 'linux/s390x'])).toBeNull();
  });

  it('disables timing for local-upload types only', () => {
    for (const c of [0, 9, 12, 16, 30, 32, 34]) expect(isTimingDisabled(c)).toBe(true);
    for (const c of [1, 2, 11, 13, 19, 33, 39]) expect(isTimingDisabled(c)).toBe(false);
  });

  it('sets sshType when editing: 7, 8 -> 2; 3, 4, 11 -> 1; others unchanged', () => {
    expect(sshTypeWhenEditing(7)).toBe(2);
    expect(sshTypeWhenEditing(8, 1)).toBe(2);
    expect(sshTypeWhenEditing(3)).toBe(1);
    expect(sshTypeWhenEditing(4, 2)).toBe(1);
    expect(sshTypeWhenEditing(11)).toBe(1);
    expect(sshTypeWhenEditing(2, 2)).toBe(2);
    expect(sshTypeWhenEditing(2)).toBeNull();
  });

  it('maps detect types, project types and getCodeType to project type', () => {
    expect(DETECT_TYPE_LABEL).toEqual({ 100: '本地源码', 200: 'Git', 300: 'SVN' });
    expect(keys(PROJECT_TYPE_LABEL)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(projectTypeOfCodeType(9)).toBe(1);
    expect(projectTypeOfCodeType(2)).toBe(2);
    expect(projectTypeOfCodeType(13)).toBe(3);
    expect(projectTypeOfCodeType(32)).toBe(3);
    expect(projectTypeOfCodeType(37)).toBe(4);
    expect(projectTypeOfCodeType(30)).toBe(5);
    expect(projectTypeOfCodeType(34)).toBe(6);
    expect(projectTypeOfCodeType(6)).toBeNull();
  });
});

describe('new project defaults', () => {
  it('has retention audit on, timing off, cron type 2, week 1 and getCodeType 9', () => {
    expect(NEW_PROJECT_DEFAULTS).toMatchObject({ retentionAudit: true, enableTiming: false, cronType: 2, week: 1, getCodeType: 9, gitBranchName: 'master', artifactoryAuthType: 1 });
  });
  it('uses the last stored choice, or 9', () => {
    expect(defaultCodeType()).toBe(9);
    expect(defaultCodeType(null)).toBe(9);
    expect(defaultCodeType('')).toBe(9);
    expect(defaultCodeType(13)).toBe(13);
    expect(defaultCodeType('2')).toBe(2);
    expect(defaultCodeType(6)).toBe(9);
  });
});

describe('levels and marks', () => {
  it('labels vulnerability and licence levels 1..16', () => {
    expect(VULNERABILITY_LEVEL_LABEL).toEqual({ 1: '超危', 2: '高危', 4: '中危', 8: '低危', 16: '未知' });
    expect(LICENSE_LEVEL_LABEL).toEqual(VULNERABILITY_LEVEL_LABEL);
  });
  it('adds 32 and 64 for component risk', () => {
    expect(keys(COMPONENT_RISK_LABEL)).toEqual([1, 2, 4, 8, 16, 32, 64]);
    expect(COMPONENT_RISK_LABEL[32]).toBe('无漏洞');
    expect(COMPONENT_RISK_LABEL[64]).toBe('未知版本');
  });
  it('labels exploit difficulty, marks and VEX', () => {
    expect(keys(EXPLOIT_DIFFICULTY_LABEL)).toEqual([1, 2, 4, 16]);
    expect(EXPLOIT_DIFFICULTY_LABEL[1]).toBe('容易');
    expect(Object.keys(COMPONENT_MARK_LABEL)).toEqual(['N', 'F', 'L', 'W', 'Y']);
    expect(COMPONENT_MARK_LABEL.F).toBe('误报');
    expect(keys(VULNERABILITY_MARK_LABEL)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(VULNERABILITY_MARK_LABEL[0]).toBe('待审核');
    expect(VULNERABILITY_MARK_LABEL[6]).toBe('厂商已修复');
    expect(keys(VEX_LABEL)).toEqual([0, 1, 2, 3, 4]);
    expect(VEX_LABEL[1]).toBe('不受影响');
  });
  it('lists strategy statuses in document 2 order', () => {
    expect(keys(STRATEGY_STATUS_LABEL)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect([...STRATEGY_STATUS_ORDER]).toEqual([0, 6, 1, 2, 3, 4, 5]);
    expect(STRATEGY_STATUS_LABEL[5]).toBe('禁用');
    expect(STRATEGY_STATUS_LABEL[6]).toBe('白名单');
  });
});

describe('other enumerations', () => {
  it('covers the spec codes', () => {
    expect(keys(CRON_TYPE_LABEL)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(CRON_TYPE_LABEL[2]).toBe('每周');
    expect(keys(COMPONENT_TYPE_LABEL)).toEqual([-1, 0, 1]);
    expect(labelOf(COMPONENT_TYPE_LABEL, -1)).toBe('未知');
    expect(PROJECT_IMPORTANCE_LABEL[1]).toBe('非常重要');
    expect(PROJECT_IMPORTANCE_LABEL[5]).toBe('非常不重要');
    expect(SSH_TYPE_LABEL).toEqual({ 1: 'SVN', 2: 'Git', 3: 'Mercurial' });
    expect(keys(USER_TYPE_LABEL)).toEqual([0, 2, 3, 6, 7, 8, 9, 10]);
    expect(isSyncedUserType(8)).toBe(true);
    expect(isSyncedUserType(3)).toBe(false);
    expect(keys(SUBJECT_CODE_SOURCE_LABEL)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(keys(ANALYSIS_MODE_LABEL)).toEqual([1, 3, 4, 5, 6, 7, 8, 9]);
    expect([...ANALYSIS_MODE_ORDER].sort((a, b) => a - b)).toEqual(keys(ANALYSIS_MODE_LABEL));
    // modes the engine does not run yet: code snippets (3, 6), file signatures (5)
    expect(ANALYSIS_MODE_ORDER.filter((m) => !isAnalysisModeOffered(m))).toEqual([3, 5, 6]);
    expect(offeredAnalysisModes('1,3,4,9,7')).toBe('1,4,9,7');
    expect(offeredAnalysisModes('8,6')).toBe('8');
    expect(offeredAnalysisModes('3,5')).toBe('');
    expect(keys(CUSTOM_FIELD_TYPE_LABEL)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(keys(TASK_STATUS_LABEL)).toEqual([-1, 0, 1, 2, 3, 4]);
    expect(keys(EXPORT_STATUS_LABEL)).toEqual([0, 1, 2, 3, 4]);
    expect(keys(SCAN_STATUS_LABEL)).toEqual([1, 2, 3, 4, 5]);
    expect(Object.keys(DETECT_STATUS_LABEL)).toEqual(['WAITING', 'DETECTING', 'SUCCESS', 'FAILED']);
    expect(keys(IMPORT_RECORD_STATUS_LABEL)).toEqual([1, 2, 3, 4, 5]);
    expect(Object.keys(MATCHED_TYPE_LABEL)).toEqual(['TO_BE_CONFIRMED', 'AUTO_CONFIRMATION', 'MANUAL_CONFIRMATION', 'NOT_MATCHED']);
    expect(CHANGE_TYPE_LABEL).toEqual({ 1: '新增', 2: '变更', 3: '删除' });
    expect(TASK_QUEUE_OPTION).toEqual({ SUSPEND: 1, RECOVER: 2 });
    expect(CLONE_REPORT_TYPE_LABEL).toEqual({ 7: 'Word', 8: 'Excel', 9: 'PDF' });
    expect(CLONE_REPORT_EXTENSION).toEqual({ 7: '.doc', 8: '.xls', 9: '.pdf' });
    expect(keys(REPOSITORY_MANAGER_TYPE_LABEL)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(Object.values(RATING_LABEL)).toEqual(['优秀', '良好', '一般', '较差', '未知']);
    expect(keys(PRODUCT_LABEL)).toEqual([1, 2, 3]);
  });

  it('has rule conditions 1..16 in the spec order', () => {
    expect(keys(RULE_CONDITION_LABEL)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(RULE_CONDITION_LABEL[1]).toBe('等级高于');
    expect(RULE_CONDITION_LABEL[2]).toBe('等级低于');
    expect(RULE_CONDITION_LABEL[3]).toBe('名称包含');
    expect(RULE_CONDITION_LABEL[16]).toBe('许可证等级');
  });

  it('writes every label of a Chinese-worded enumeration in Chinese', () => {
    for (const t of [CRON_TYPE_LABEL, VULNERABILITY_MARK_LABEL, VEX_LABEL, STRATEGY_STATUS_LABEL, TASK_STATUS_LABEL, EXPORT_STATUS_LABEL, SCAN_STATUS_LABEL, RULE_CONDITION_LABEL, CUSTOM_FIELD_TYPE_LABEL, ANALYSIS_MODE_LABEL]) {
      for (const label of Object.values(t)) expect(label).toMatch(HAN);
    }
  });
});

describe('rules attached to enumerations', () => {
  it('labels snippet matched status: 2 已忽略, 3 已确认, else 已取消', () => {
    expect(snippetMatchedLabel(2)).toBe('已忽略');
    expect(snippetMatchedLabel('3')).toBe('已确认');
    expect(snippetMatchedLabel(0)).toBe('已取消');
    expect(snippetMatchedLabel(1)).toBe('已取消');
    expect(snippetMatchedLabel(null)).toBe('已取消');
    expect(snippetMatchedLabel(undefined)).toBe('已取消');
  });
  it('parses analysisModes comma lists', () => {
    expect(parseAnalysisModes('1,3,9')).toEqual([1, 3, 9]);
    expect(parseAnalysisModes(' 1, 2 ,x,3,3,')).toEqual([1, 3]);
    expect(parseAnalysisModes('')).toEqual([]);
    expect(parseAnalysisModes(null)).toEqual([]);
  });
  it('uses the binary variant for products other than 1', () => {
    expect(usesBinaryVariant(1)).toBe(false);
    expect(usesBinaryVariant(2)).toBe(true);
    expect(usesBinaryVariant(3)).toBe(true);
  });
  it('routes repository manager type 5 to package-cloud projects', () => {
    expect(repositoryManagerProjectSource(5)).toBe('packageCloud');
    expect(repositoryManagerProjectSource(1)).toBe('coding');
  });
  it('knows running task states', () => {
    expect(isTaskRunning(0)).toBe(true);
    expect(isTaskRunning(1)).toBe(true);
    expect(isTaskRunning(2)).toBe(false);
    expect(isTaskRunning(-1)).toBe(false);
  });
  it('has the export extensions of §9, with Office Open XML for Word and Excel (issue 7)', () => {
    expect(EXPORT_EXTENSION).toEqual({ word: '.docx', excel: '.xlsx', pdf: '.pdf', spdx: '.spdx.json', cyclonedx: '.CycloneDX.json', swid: '.zip' });
    expect(withExportExtension('报告', 'cyclonedx')).toBe('报告.CycloneDX.json');
    expect(withExportExtension('a.spdx.json', 'spdx')).toBe('a.spdx.json');
    expect(withExportExtension('a.PDF', 'pdf')).toBe('a.PDF');
  });
});
