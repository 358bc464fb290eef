// The options of a container registry project (contract/enums.ts REGISTRY_OPTION_FIELDS): which
// types carry them, the platform syntax (os/arch[/variant]) and the CA certificate text, and the
// platform's own check of the same fields (each certificate parsed, the image reference read).
import { describe, expect, it } from 'vitest';
import {
  COMMON_IMAGE_PLATFORMS, CONTAINER_REGISTRY_CODE_TYPES, DEFAULT_IMAGE_PLATFORM, extraFieldsOf, isContainerRegistryType, REGISTRY_OPTION_FIELDS,
} from '../../../contract/enums.ts';
import { CA_PEM_MAX_LENGTH, IMAGE_PLATFORM_MESSAGE, validateCaPemText, validateImagePlatform } from '../../../contract/validation.ts';
import { checkRegistryOptions } from '../../../server/services/project-form.ts';
import { UserError } from '../../../server/errors.ts';

/** A self-signed EC certificate (CN=Cairn Test CA, valid for a century). */
const CA = `-----BEGIN CERTIFICATE-----
MIIBhzCCAS2gAwIBAgIUKHAyRzWHNPRd/2ZJeM/OWsy8PvgwCgYIKoZIzj0EAwIw
GDEWMBQGA1UEAwwNQ2Fpcm4gVGVzdCBDQTAgFw0yNjExMjYxNjUwMDVaGA8yMTI2
MTEwMjE2NTAwNVowGDEWMBQGA1UEAwwNQ2Fpcm4gVGVzdCBDQTBZMBMGByqGSM49
AgEGCCqGSM49AwEHA0IABGaHqsC5uyx8615bPRdr79jW1eDnMEfN/1we5lgRuKuF
AzVVJKiXoklCIJJ3jz6AkaPFudoE5oAM9FeDunFZKUejUzBRMB0GA1UdDgQWBBSp
+wU1KfdQ7n4QX0NUf5/3VWvxCDAfBgNVHSMEGDAWgBSp+wU1KfdQ7n4QX0NUf5/3
VWvxCDAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIFNmh9yLbZh9
FgGx5KO6whv82N3jIJdqNf2OCub32WfBAiEA04DFJL6Ze50L3hd7TeIETYfVdkP6
sYycmZ/MYMxXzVI=
-----END CERTIFICATE-----`;
/** Shaped like a certificate (base64 of a DER sequence) but not one. */
const NOT_A_CERT = '-----BEGIN CERTIFICATE-----\nMIIBhzCCAS2gAwIBAgIUAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n-----END CERTIFICATE-----';

const refusal = (form: Parameters<typeof checkRegistryOptions>[0]): { message: string; field: string | undefined } | null => {
  try {
    checkRegistryOptions(form);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return { message: (error as UserError).message, field: (error as UserError).field };
  }
};

describe('container registry options', () => {
  it('belong to the four registry types only, after the spec fields', () => {
    expect([...CONTAINER_REGISTRY_CODE_TYPES]).toEqual([13, 14, 15, 31]);
    for (const code of CONTAINER_REGISTRY_CODE_TYPES) expect(extraFieldsOf(code).slice(3)).toEqual([...REGISTRY_OPTION_FIELDS]);
    for (const code of [12, 17, 18, 35, 0, 2]) expect(isContainerRegistryType(code), String(code)).toBe(false);
    expect(COMMON_IMAGE_PLATFORMS[0]).toBe(DEFAULT_IMAGE_PLATFORM);
  });

  it('take a platform as os/arch[/variant], empty meaning the default', () => {
    for (const ok of ['', '  ', 'linux/amd64', 'linux/arm/v7', 'linux/arm64/v8', 'windows/amd64', 'linux/x86_64', ' linux/ppc64le ']) expect(validateImagePlatform(ok), ok).toBeNull();
    for (const bad of ['linux', 'amd64', 'linux/', '/amd64', 'linux/arm/v7/x', 'linux amd64', 'linux/amd 64', 'linux/amd64;rm']) expect(validateImagePlatform(bad), bad).toBe(IMAGE_PLATFORM_MESSAGE);
    for (const p of COMMON_IMAGE_PLATFORMS) expect(validateImagePlatform(p)).toBeNull();
  });

  it('take a CA as PEM certificates, a bundle with comments too, never a private key', () => {
    expect(validateCaPemText('')).toBeNull();
    expect(validateCaPemText(CA)).toBeNull();
    expect(validateCaPemText(`# Issuer: Cairn Test CA\n${CA}\n\n# second\n${CA}\n`)).toBeNull();
    expect(validateCaPemText('not a certificate')).toMatch(/没有找到 PEM 格式的证书/);
    expect(validateCaPemText('-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----')).toMatch(/无法解析为 X\.509 证书/);
    expect(validateCaPemText('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----')).toMatch(/无法解析为 X\.509 证书/);
    expect(validateCaPemText(`${CA}\n-----BEGIN PRIVATE KEY-----\nMIGHAgEA\n-----END PRIVATE KEY-----`)).toMatch(/不能包含私钥/);
    expect(validateCaPemText(`${CA}\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----`)).toMatch(/不能包含私钥/);
    expect(validateCaPemText(`${CA}\n# ${'x'.repeat(CA_PEM_MAX_LENGTH)}`)).toMatch(/过长/);
  });

  it('are checked again by the platform: each certificate parsed, the reference and platform read, the field named', () => {
    expect(refusal({ imageNameTag: '127.0.0.1:5000/team/app:1.0', imageCaPem: CA, imagePlatform: 'linux/arm64' })).toBeNull();
    expect(refusal({ imageNameTag: 'alpine' })).toBeNull();
    expect(refusal({ imageCaPem: NOT_A_CERT })).toEqual({ message: 'CA 证书无效：PEM 内容无法解析为 X.509 证书', field: 'imageCaPem' });
    expect(refusal({ imageCaPem: `${CA}\n${NOT_A_CERT}` })?.field).toBe('imageCaPem');
    expect(refusal({ imagePlatform: 'amd64' })).toEqual({ message: IMAGE_PLATFORM_MESSAGE, field: 'imagePlatform' });
    const reference = refusal({ imageNameTag: 'https://registry.example.com/app:1' });
    expect(reference?.field).toBe('imageNameTag');
    expect(reference?.message).toMatch(/不要带 http:\/\/ 或 https:\/\/ 前缀/);
    expect(refusal({ imageNameTag: 'Team/App:1' })?.field).toBe('imageNameTag');
  });
});
