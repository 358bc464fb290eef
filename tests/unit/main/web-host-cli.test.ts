import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultAppDataDir, parsePort, vaultServiceFor } from '../../../main/web-host/cli.ts';

describe('web host options', () => {
  it('parses --port', () => {
    expect(parsePort([])).toBe(0);
    expect(parsePort(['--port', '8080'])).toBe(8080);
    expect(parsePort(['--port=0'])).toBe(0);
    expect(() => parsePort(['--port', 'abc'])).toThrow('端口无效：abc');
    expect(() => parsePort(['--port', '70000'])).toThrow('端口无效');
    expect(() => parsePort(['--verbose'])).toThrow('未知参数：--verbose');
  });

  it('defaults CAIRN_HOME to where Electron keeps userData for Cairn', () => {
    expect(defaultAppDataDir('linux', {}, '/home/u')).toBe(path.join('/home/u', '.config', 'Cairn'));
    expect(defaultAppDataDir('linux', { XDG_CONFIG_HOME: '/xdg' }, '/home/u')).toBe(path.join('/xdg', 'Cairn'));
    expect(defaultAppDataDir('darwin', {}, '/Users/u')).toBe(path.join('/Users/u', 'Library', 'Application Support', 'Cairn'));
    expect(defaultAppDataDir('win32', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'C:\\Users\\u')).toBe(path.join('C:\\Users\\u\\AppData\\Roaming', 'Cairn'));
  });

  it('keeps the keychain service Cairn for the default home and namespaces any other', () => {
    expect(vaultServiceFor('/home/u/.config/Cairn', '/home/u/.config/Cairn')).toBe('Cairn');
    const other = vaultServiceFor('/tmp/scratch', '/home/u/.config/Cairn');
    expect(other).toMatch(/^Cairn \([0-9a-f]{12}\)$/);
    expect(vaultServiceFor('/tmp/scratch/', '/home/u/.config/Cairn')).toBe(other);
  });
});
