import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dayRange, formatDate, formatDateTime, formatDotDate, formatFileSize, formatLargeNumber, formatTimestamp, formatVulnerabilityId,
  isDay, orDash,
} from '../../../contract/format.ts';

describe('orDash', () => {
  it('shows -- for empty values only', () => {
    for (const v of [null, undefined, '', '   ', Number.NaN]) expect(orDash(v)).toBe('--');
    expect(orDash(0)).toBe('0');
    expect(orDash(false)).toBe('false');
    expect(orDash('值')).toBe('值');
  });
});

describe('vulnerability identifier', () => {
  it('shows identify with the CNNVD id in brackets, else the CVE id', () => {
    expect(formatVulnerabilityId({ identify: 'XVE-2021-1', cnnvd: 'CNNVD-202112-799', cve: 'CVE-2021-44228' })).toBe('XVE-2021-1(CNNVD-202112-799)');
    expect(formatVulnerabilityId({ identify: 'XVE-2021-1', cve: 'CVE-2021-44228' })).toBe('XVE-2021-1(CVE-2021-44228)');
    expect(formatVulnerabilityId({ identify: 'XVE-2021-1' })).toBe('XVE-2021-1');
  });
  it('without identify shows CNNVD with CVE in brackets, or whichever exists', () => {
    expect(formatVulnerabilityId({ cnnvd: 'CNNVD-202112-799', cve: 'CVE-2021-44228' })).toBe('CNNVD-202112-799(CVE-2021-44228)');
    expect(formatVulnerabilityId({ identify: '', cnnvd: 'CNNVD-202112-799', cve: null })).toBe('CNNVD-202112-799');
    expect(formatVulnerabilityId({ identify: null, cnnvd: '  ', cve: 'CVE-2021-44228' })).toBe('CVE-2021-44228');
  });
  it('shows -- when none exists and does not repeat an equal id', () => {
    expect(formatVulnerabilityId({})).toBe('--');
    expect(formatVulnerabilityId({ identify: '', cnnvd: '', cve: '' })).toBe('--');
    expect(formatVulnerabilityId(null)).toBe('--');
    expect(formatVulnerabilityId({ identify: 'CVE-2021-44228', cve: 'CVE-2021-44228' })).toBe('CVE-2021-44228');
  });
});

describe('dates (local time)', () => {
  const savedTz = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'Asia/Shanghai';
  });
  afterAll(() => {
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });

  it('formats ISO strings with T as YYYY-MM-DD HH:mm:ss in local time', () => {
    expect(formatDateTime('2024-01-02T03:04:05')).toBe('2024-01-02 03:04:05');
    expect(formatDateTime('2024-01-02T03:04:05.678')).toBe('2024-01-02 03:04:05');
    expect(formatDateTime('2024-01-01T16:04:05Z')).toBe('2024-01-02 00:04:05');
    expect(formatDateTime('2024-01-02T03:04:05+08:00')).toBe('2024-01-02 03:04:05');
    expect(formatDateTime('2024-01-02T03:04')).toBe('2024-01-02 03:04:00');
  });

  it('shows strings not in ISO style with T as given', () => {
    expect(formatDateTime('2024-01-02 03:04:05')).toBe('2024-01-02 03:04:05');
    expect(formatDateTime('2024/01/02')).toBe('2024/01/02');
    expect(formatDateTime('昨天')).toBe('昨天');
    expect(formatDotDate('2024-01-02 03:04:05')).toBe('2024-01-02 03:04:05');
    expect(formatDateTime('2024-13-45T99:99:99')).toBe('2024-13-45T99:99:99');
  });

  it('shows -- for empty values', () => {
    expect(formatDateTime('')).toBe('--');
    expect(formatDateTime('  ')).toBe('--');
    expect(formatDateTime(null)).toBe('--');
    expect(formatDateTime(undefined)).toBe('--');
    expect(formatDateTime(new Date(Number.NaN))).toBe('--');
  });

  it('formats Dates and epoch milliseconds', () => {
    expect(formatDateTime(new Date(2024, 0, 2, 3, 4, 5))).toBe('2024-01-02 03:04:05');
    expect(formatDateTime(Date.UTC(2024, 0, 1, 16, 0, 0))).toBe('2024-01-02 00:00:00');
  });

  it('has the date-only and alternate YYYY.MM.DD formats', () => {
    expect(formatDate('2024-03-09T23:59:59')).toBe('2024-03-09');
    expect(formatDotDate('2024-03-09T23:59:59')).toBe('2024.03.09');
    expect(formatTimestamp('2024-03-09T08:07:06', 'HH:mm')).toBe('08:07');
  });
});

describe('day range', () => {
  it('starts at 00:00:00 and ends at 23:59:59', () => {
    expect(dayRange('2024-01-02')).toEqual({ start: '2024-01-02 00:00:00', end: '2024-01-02 23:59:59' });
    expect(dayRange('2024-01-01', '2024-01-31')).toEqual({ start: '2024-01-01 00:00:00', end: '2024-01-31 23:59:59' });
  });
  it('refuses impossible days and reversed ranges', () => {
    expect(dayRange('2024-02-30')).toBeNull();
    expect(dayRange('2024-1-2')).toBeNull();
    expect(dayRange('2024-01-31', '2024-01-01')).toBeNull();
    expect(isDay('2024-02-29')).toBe(true);
    expect(isDay('2023-02-29')).toBe(false);
  });
});

describe('file sizes', () => {
  it('shows B, K, M or G with up to two decimals', () => {
    expect(formatFileSize(0)).toBe('0B');
    expect(formatFileSize(10)).toBe('10B');
    expect(formatFileSize(100)).toBe('100B');
    expect(formatFileSize(512)).toBe('512B');
    expect(formatFileSize(10 * 1024)).toBe('10K');
    expect(formatFileSize(1023)).toBe('1023B');
    expect(formatFileSize(1024)).toBe('1K');
    expect(formatFileSize(1536)).toBe('1.5K');
    expect(formatFileSize(1048576)).toBe('1M');
    expect(formatFileSize(1048575)).toBe('1M');
    expect(formatFileSize(1.25 * 1024 ** 3)).toBe('1.25G');
    expect(formatFileSize(5 * 1024 ** 4)).toBe('5120G');
    expect(formatFileSize('2048')).toBe('2K');
  });
  it('shows -- for empty, negative or non-numeric sizes', () => {
    for (const v of [null, undefined, '', -1, 'abc', Number.NaN]) expect(formatFileSize(v)).toBe('--');
  });
});

describe('large numbers', () => {
  it('keeps numbers below 10000', () => {
    expect(formatLargeNumber(0)).toBe('0');
    expect(formatLargeNumber(9999)).toBe('9999');
    expect(formatLargeNumber(100)).toBe('100');
    expect(formatLargeNumber(1000.5)).toBe('1000.5');
    expect(formatLargeNumber(12.5)).toBe('12.5');
  });
  it('shows 万, 亿 and 万亿 rounded to two decimals', () => {
    expect(formatLargeNumber(10000)).toBe('1万');
    expect(formatLargeNumber(12345)).toBe('1.23万');
    expect(formatLargeNumber(12355)).toBe('1.24万');
    expect(formatLargeNumber(15000)).toBe('1.5万');
    expect(formatLargeNumber(100000)).toBe('10万');
    expect(formatLargeNumber(200000000)).toBe('2亿');
    expect(formatLargeNumber(123456789)).toBe('1.23亿');
    expect(formatLargeNumber(1.5e12)).toBe('1.5万亿');
    expect(formatLargeNumber('20000')).toBe('2万');
    expect(formatLargeNumber(-12345)).toBe('-1.23万');
  });
  it('moves to the next unit when rounding reaches 10000', () => {
    expect(formatLargeNumber(9999.999)).toBe('1万');
    expect(formatLargeNumber(99999999)).toBe('1亿');
    expect(formatLargeNumber(999999999999)).toBe('1万亿');
  });
  it('shows -- for empty or non-numeric values', () => {
    for (const v of [null, undefined, '', 'abc', Number.POSITIVE_INFINITY]) expect(formatLargeNumber(v)).toBe('--');
  });
});
