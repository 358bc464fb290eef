import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../server/engine/model.ts';
import { extractors } from '../../../../server/engine/extractors/terraform/index.ts';
import { parseTerraformLock, terraformPurl } from '../../../../server/engine/extractors/terraform/lock-hcl.ts';
import { noManifestMessage } from '../../../../server/engine/extractors/index.ts';
import { expectClaims, extractFile } from './extractor.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/public/lockfiles/terraform');
const extractor = extractors[0]!;

describe('terraform .terraform.lock.hcl', () => {
  it('claims the lock file only', () => {
    expectClaims(extractor, ['.terraform.lock.hcl', 'infra/prod/.terraform.lock.hcl'], ['main.tf', 'terraform.lock.hcl', '.terraform.lock.hcl.bak', 'versions.tf']);
    expect(noManifestMessage()).toContain('.terraform.lock.hcl');
  });

  it('reads syft\'s two-provider fixture: every provider a root, names as the lock writes them', async () => {
    const t = await extractFile(extractor, path.join(FIXTURES, 'syft-two-providers'), '.terraform.lock.hcl');
    expect(t.type).toBe('terraform');
    expect(t.ecosystem).toBe('terraform');
    expect(t.project).toBeNull();
    expect(t.components.map((c) => [c.name, c.version, c.purl, c.direct, c.scope, c.dependsOn])).toEqual([
      ['registry.terraform.io/hashicorp/aws', '5.72.1', 'pkg:terraform/hashicorp/aws@5.72.1', true, 'runtime', []],
      ['registry.terraform.io/hashicorp/google', '6.8.0', 'pkg:terraform/hashicorp/google@6.8.0', true, 'runtime', []],
    ]);
    expect(t.roots).toEqual(['pkg:terraform/hashicorp/aws@5.72.1', 'pkg:terraform/hashicorp/google@6.8.0']);
    expect(t.components.map((c) => c.locations)).toEqual([
      [{ file: '.terraform.lock.hcl', startLine: 4, endLine: 25 }],
      [{ file: '.terraform.lock.hcl', startLine: 27, endLine: 44 }],
    ]);
  });

  it('reads a project\'s lock file with a pessimistic constraint', async () => {
    const t = await extractFile(extractor, path.join(FIXTURES, 'cloudflare-terraform-infra'), '.terraform.lock.hcl');
    expect(t.components.map((c) => [c.name, c.version, c.purl, c.direct])).toEqual([
      ['registry.terraform.io/cloudflare/cloudflare', '2.19.2', 'pkg:terraform/cloudflare/cloudflare@2.19.2', true],
    ]);
  });

  it('an OpenTofu or private registry is the purl\'s repository_url; legacy two-part addresses mean the default registry', () => {
    const t = parseTerraformLock(`# This file is maintained automatically by "tofu init".
provider "registry.opentofu.org/hashicorp/random" {
  version     = "3.6.3"
  constraints = ">= 3.0"
  hashes      = ["h1:abc=", /* inline */ "zh:def"] // trailing
}

provider "tf.example.com/acme/widgets" {
  version = "0.1.0-beta.2"
}
`, 'infra/.terraform.lock.hcl');
    expect(t.components.map((c) => [c.name, c.version, c.purl, c.locations[0]])).toEqual([
      ['registry.opentofu.org/hashicorp/random', '3.6.3', 'pkg:terraform/hashicorp/random@3.6.3?repository_url=https%3A%2F%2Fregistry.opentofu.org', { file: 'infra/.terraform.lock.hcl', startLine: 2, endLine: 6 }],
      ['tf.example.com/acme/widgets', '0.1.0-beta.2', 'pkg:terraform/acme/widgets@0.1.0-beta.2?repository_url=https%3A%2F%2Ftf.example.com', { file: 'infra/.terraform.lock.hcl', startLine: 8, endLine: 10 }],
    ]);
    expect(terraformPurl('hashicorp/aws', '5.0.0')).toBe('pkg:terraform/hashicorp/aws@5.0.0');
  });

  it('an empty lock file (no providers yet) has no components; other blocks and attributes are passed over', () => {
    expect(parseTerraformLock('# This file is maintained automatically by "terraform init".\n', 'x/.terraform.lock.hcl').components).toEqual([]);
    const t = parseTerraformLock(`provider "registry.terraform.io/hashicorp/null" {
  version = "3.2.1"
  extra   = { a = ["b", { c = 1 }] }
  enabled = true
  nested "label" {
    deep = "x"
  }
}
module "ignored" {
  source = "./m"
}
`, '.terraform.lock.hcl');
    expect(t.components.map((c) => [c.purl, c.locations[0]!.endLine])).toEqual([['pkg:terraform/hashicorp/null@3.2.1', 8]]);
  });

  it('a malformed lock file is an ExtractError naming the line', () => {
    const bad = (text: string) => () => parseTerraformLock(text, '.terraform.lock.hcl');
    expect(bad('provider "registry.terraform.io/hashicorp/aws" {\n  version = "5.0.0"\n')).toThrow(ExtractError);
    expect(bad('provider "registry.terraform.io/hashicorp/aws" {\n  version = "5.0.0"\n')).toThrow(/第 1 行.*块 \{ 未结束/);
    expect(bad('provider "registry.terraform.io/hashicorp/aws" {\n  version = "5.0.0\n}\n')).toThrow(/第 2 行.*字符串未结束/);
    expect(bad('provider "registry.terraform.io/hashicorp/aws" {\n}\n}\n')).toThrow(/第 3 行.*多余的 \}/);
    expect(bad('provider "a/b/c/d" {\n  version = "1"\n}\n')).toThrow(/来源地址“a\/b\/c\/d”无效/);
    expect(bad('provider {\n  version = "1"\n}\n')).toThrow(/来源地址标签/);
  });
});
