import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSION_CODES, PERMISSIONS, ROLE_LABEL, hasAnyPermission, hasPermission, modulesForRoleCodes, permissionChecker,
} from '../../../contract/permissions.ts';

describe('permission codes', () => {
  it('keeps every code of the spec sections', () => {
    for (const code of ['project:list', 'project-summary', 'analysis:task:list', 'report:list', 'stastistic-system:see', 'repository-security:manager', 'risk:vul:list', 'project:setup:bug', 'setup:sys:custom:list', 'set:strategy:com']) {
      expect(ALL_PERMISSION_CODES).toContain(code);
    }
    expect(ALL_PERMISSION_CODES).toHaveLength(Object.keys(PERMISSIONS).length);
  });

  it('checks a list for a code', () => {
    const codes = ['project:list', 'vul'];
    expect(hasPermission(codes, 'vul')).toBe(true);
    expect(hasPermission(codes, 'vul:x')).toBe(false);
    expect(hasPermission([], 'vul')).toBe(false);
    expect(hasPermission(null, 'vul')).toBe(false);
    expect(hasAnyPermission(codes, ['component', 'vul'])).toBe(true);
    expect(hasAnyPermission(codes, ['component'])).toBe(false);
    expect(hasAnyPermission(codes, [])).toBe(true);
  });

  it('builds a predicate from codes or permissionPOS entries', () => {
    const has = permissionChecker([{ code: 'report:list' }, { code: 'vul' }]);
    expect(has('report:list')).toBe(true);
    expect(has('project:list')).toBe(false);
    expect(permissionChecker(['a'])('a')).toBe(true);
    expect(permissionChecker(undefined)('a')).toBe(false);
  });
});

describe('roles and modules', () => {
  it('names roles 2 and 3', () => {
    expect(ROLE_LABEL).toEqual({ 2: '域管理员', 3: '普通用户' });
  });

  it('maps role codes to modules: 1→1, 3→2, 4→3, 5→6, 6→7, 7→3, 8→5, 9→5', () => {
    expect(modulesForRoleCodes([1])).toEqual([1]);
    expect(modulesForRoleCodes([3])).toEqual([2]);
    expect(modulesForRoleCodes([5])).toEqual([6]);
    expect(modulesForRoleCodes([6])).toEqual([7]);
    expect(modulesForRoleCodes([1, 3, 4, 5, 6, 7, 8, 9])).toEqual([1, 2, 3, 6, 7, 5]);
  });

  it('de-duplicates, keeps first order and skips unknown codes', () => {
    expect(modulesForRoleCodes([9, 8, 1])).toEqual([5, 1]);
    expect(modulesForRoleCodes([7, 4])).toEqual([3]);
    expect(modulesForRoleCodes([2, 10, 0])).toEqual([]);
    expect(modulesForRoleCodes([])).toEqual([]);
  });
});
