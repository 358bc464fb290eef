// The temporary passwords `cairn user reset-password` generates meet any password policy of their length.
import { describe, expect, it } from 'vitest';
import { generatePassword } from '../../../../server/auth/password.ts';
import { validatePassword } from '../../../../contract/validation.ts';

describe('generatePassword', () => {
  it('holds every character class, at least 16 characters, and differs each time', () => {
    const strict = { length: 16, uppercase: true, lowercase: true, digit: true, special: true };
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const password = generatePassword();
      expect(password).toHaveLength(16);
      expect(validatePassword(password, strict)).toBeNull();
      expect(password).not.toMatch(/[0O1lI\s]/);
      seen.add(password);
    }
    expect(seen.size).toBe(200);
    expect(validatePassword(generatePassword(24), { ...strict, length: 24 })).toBeNull();
    expect(generatePassword(8)).toHaveLength(16);
  });
});
