// Secrets at rest (repository and tracker passwords): AES-256-GCM with a key kept outside the
// database, in `secret.key` of the data directory (32 random bytes, mode 0600, created on first
// use). A database dump alone then reveals no password. Stored form: `v1:<iv>:<tag>:<data>` in
// base64url, so a later key or algorithm change can be told apart.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makePrivateDirSync, writePrivateFileSync } from './files/private.ts';

const KEY_FILE = 'secret.key';
const PREFIX = 'v1';
const keys = new Map<string, Buffer>();

function keyOf(dataDir: string): Buffer {
  const file = path.join(dataDir, KEY_FILE);
  const cached = keys.get(file);
  if (cached) return cached;
  let key: Buffer;
  try {
    key = fs.readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    makePrivateDirSync(dataDir);
    key = randomBytes(32);
    try {
      // 'wx': two processes starting together must not overwrite each other's key.
      writePrivateFileSync(file, key, 'wx');
    } catch (raced) {
      if ((raced as NodeJS.ErrnoException).code !== 'EEXIST') throw raced;
      key = fs.readFileSync(file);
    }
  }
  if (key.length !== 32) throw new Error(`密钥文件 ${file} 已损坏（应为 32 字节）`);
  keys.set(file, key);
  return key;
}

export function encryptSecret(dataDir: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(dataDir), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [PREFIX, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join(':');
}

export function decryptSecret(dataDir: string, stored: string): string {
  const [prefix, iv, tag, data] = stored.split(':');
  if (prefix !== PREFIX || !iv || !tag || data === undefined) throw new Error('无法识别的密文格式');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(dataDir), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
